package org.rampa.heuristics.strategy;

import java.util.Map;
import org.rampa.domain.Plan;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.support.TimeBudget;

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

  /** A proof that no plan exists (a necessary condition fails, or a complete exact search found none). */
  static PlacementResult infeasible(String strategy, String reason, TimeBudget budget, Map<String, Double> stats) {
    return withoutPlan(strategy, SolveStatus.INFEASIBLE, reason, budget, stats);
  }

  /** A heuristic search that found nothing: no proof, so NO_PLAN_FOUND, pointing to an exact strategy. */
  static PlacementResult noPlanFound(String strategy, String searched, TimeBudget budget, Map<String, Double> stats) {
    return withoutPlan(strategy, SolveStatus.NO_PLAN_FOUND,
        "no plan found by " + strategy + " (a plan may exist: try \"exact\"): " + searched, budget, stats);
  }

  private static PlacementResult withoutPlan(String strategy, SolveStatus status, String reason, TimeBudget budget,
      Map<String, Double> stats) {
    return PlacementResult.builder()
        .status(status)
        .reason(reason)
        .strategy(strategy)
        .solveTime(budget.elapsed())
        .statistics(stats)
        .build();
  }
}
