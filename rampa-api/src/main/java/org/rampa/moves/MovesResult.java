package org.rampa.moves;

import java.util.List;
import java.util.Optional;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/**
 * What a {@link Mover} found: the moves in the order to apply them, their total price, the state
 * after them, and the newcomer's placement on that state.
 *
 * <p>Statuses: {@code OPTIMAL} — no cheaper sequence within the budget lets the request fit (proven);
 * {@code FEASIBLE} — the moves work, a cheaper sequence may exist; {@code INFEASIBLE} — proven: no
 * sequence of at most the budget's moves lets the request fit; {@code NO_PLAN_FOUND} — the mover
 * found nothing, which proves nothing; {@code NO_SOLUTION_IN_TIME} — the time limit ran out first.
 *
 * @param placement the newcomer's placement after the moves (with its plan when there is one)
 * @param explored states whose fit was tested, for reports
 */
public record MovesResult(SolveStatus status, List<Move> moves, double moveCost, ClusterState afterMoves, Optional<PlacementResult> placement,
    String reason, String mover, long explored) {

  public MovesResult {
    moves = List.copyOf(moves);
  }

  /** The newcomer's plan on {@link #afterMoves()}, when the status has one. */
  public Optional<Plan> plan() {
    return status.hasPlan() ? placement.flatMap(PlacementResult::plan) : Optional.empty();
  }
}
