package org.rampa.heuristics.strategy;

import java.time.Duration;
import java.util.Map;
import org.rampa.domain.Plan;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/** Builds the results the heuristic strategies return. */
final class Results {
  private Results() {}

  static Duration since(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  static PlacementResult withPlan(String strategy, SolveStatus status, Plan plan, String note, long startNanos, Map<String, Double> stats) {
    return PlacementResult.builder()
        .status(status)
        .plan(plan)
        .reason(note)
        .strategy(strategy)
        .solveTime(since(startNanos))
        .statistics(stats)
        .build();
  }

  static PlacementResult infeasible(String strategy, String reason, long startNanos, Map<String, Double> stats) {
    return PlacementResult.builder()
        .status(SolveStatus.INFEASIBLE)
        .reason(reason)
        .strategy(strategy)
        .solveTime(since(startNanos))
        .statistics(stats)
        .build();
  }
}
