package org.rampa.moves;

import java.time.Duration;
import java.util.Objects;
import org.rampa.Rampa;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;

/**
 * Admission with moves: the request, the state it arrives to, how it is placed on a state, the
 * rules moves obey, at most {@code budget} moves, their prices, and the time a mover may take.
 *
 * @param placer the per-service placement on a state: "the request fits" means it returns a plan
 * @param budget the most moves a sequence may have, in [0, {@value #MAX_BUDGET}]; 0 is plain admission
 */
public record MoveProblem(ClusterState state, ServiceRequest request, Placer placer, MoveRules rules, int budget, MoveCosts costs,
    Duration timeLimit) {

  /** The largest budget accepted: beyond it no search here ends in reasonable time. */
  public static final int MAX_BUDGET = 16;

  /** How the request is placed on a state (a configured planner pointed at it). */
  @FunctionalInterface
  public interface Placer {
    PlacementResult place(ClusterState state, ServiceRequest request);
  }

  public MoveProblem {
    Invalid.requireNonNull("state", state);
    Invalid.requireNonNull("request", request);
    Invalid.requireNonNull("placer", placer);
    Invalid.requireNonNull("rules", rules);
    Invalid.requireNonNull("costs", costs);
    if (budget < 0 || budget > MAX_BUDGET) {
      throw Invalid.value("moves.budget", budget, "must lie in [0, " + MAX_BUDGET + "]", "0 admits without moves; 1 or 2 moves admit most");
    }
    Invalid.requirePositive("moves.timeLimit", timeLimit);
  }

  /**
   * The problem for {@code request} on {@code placer}'s state, placed by {@code placer}, with move
   * rules on its performance and interference models and its time limit.
   */
  public static MoveProblem of(Rampa.Placer placer, ServiceRequest request, int budget, MoveCosts costs) {
    Objects.requireNonNull(placer, "placer");
    PlacementProblem p = placer.problem(request);
    return new MoveProblem(placer.state(), request, (s, r) -> placer.state(s).place(r), MoveRules.of(p), budget, costs,
        p.options().timeLimit());
  }

  /** This problem with {@code newRules}: keeping placements, say ({@link MoveRules#keepingPlacements()}). */
  public MoveProblem withRules(MoveRules newRules) {
    return new MoveProblem(state, request, placer, newRules, budget, costs, timeLimit);
  }
}
