package org.rampa.heuristics.strategy;

import java.util.Map;
import org.rampa.domain.Plan;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.TimeBudget;

/** Builds the results the heuristic strategies return. */
final class Results {
  private Results() {}

  static PlacementResult withPlan(String strategy, SolveStatus status, Plan plan, String note, TimeBudget budget, Map<String, Double> stats) {
    return PlacementResult.builder()
        .status(status)
        .plan(plan)
        .reason(note)
        .strategy(strategy)
        .solveTime(budget.elapsed())
        .statistics(stats)
        .build();
  }

  static PlacementResult infeasible(String strategy, String reason, TimeBudget budget, Map<String, Double> stats) {
    return PlacementResult.builder()
        .status(SolveStatus.INFEASIBLE)
        .reason(reason)
        .strategy(strategy)
        .solveTime(budget.elapsed())
        .statistics(stats)
        .build();
  }
}
