package org.rampa.moves;

import java.util.List;
import org.rampa.domain.ClusterState;
import org.rampa.strategy.SolveStatus;

/**
 * What a {@link Defragmenter} found: the moves in the order to apply them, their total price, the
 * state after them, and the room ({@link ForecastRoom}) before and after (after ≥ before).
 *
 * <p>Statuses: {@code OPTIMAL} — proven: no sequence within the budget leaves more room, nor equal
 * room at a lower price or, at an equal price, with fewer moves; {@code FEASIBLE} — the moves are
 * legal and gain what they report, a better sequence may exist (a heuristic, or a search the time
 * limit stopped).
 *
 * @param explored candidate moves, evacuations or states whose room was evaluated, for reports
 */
public record DefragResult(SolveStatus status, List<Move> moves, double moveCost, ClusterState after, double roomBefore, double roomAfter,
    String reason, String defragmenter, long explored) {

  public DefragResult {
    moves = List.copyOf(moves);
  }
}
