package org.rampa.moves;

import java.time.Duration;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Invalid;

/**
 * Defragmentation: the state, the rules moves obey, at most {@code budget} moves, their prices, the
 * room measure to increase, and the time a defragmenter may take.
 *
 * @param budget the most moves, in [0, {@value MoveProblem#MAX_BUDGET}]; 0 moves nothing
 */
public record DefragProblem(ClusterState state, MoveRules rules, int budget, MoveCosts costs, ForecastRoom room, Duration timeLimit) {

  public DefragProblem {
    Invalid.requireNonNull("state", state);
    Invalid.requireNonNull("rules", rules);
    Invalid.requireNonNull("costs", costs);
    Invalid.requireNonNull("room", room);
    if (budget < 0 || budget > MoveProblem.MAX_BUDGET) {
      throw Invalid.value("defrag.budget", budget, "must lie in [0, " + MoveProblem.MAX_BUDGET + "]", "a quiet period's budget is a few moves");
    }
    Invalid.requirePositive("defrag.timeLimit", timeLimit);
  }
}
