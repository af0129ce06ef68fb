package org.rampa.heuristics.strategy;

import org.rampa.strategy.NecessaryConditions;

/**
 * Human-readable reasons why no plan exists: the first failing {@link NecessaryConditions} (the
 * same conditions, and messages, as every other strategy), else what the search tried and the
 * last rejection it saw.
 */
final class Infeasibility {
  private Infeasibility() {}

  /** The first necessary condition that fails, or empty when all hold. */
  static String obviousReason(PlacementContext c) {
    return NecessaryConditions.firstFailure(c.problem).orElse("");
  }

  /** The reason for an INFEASIBLE result after a search that found nothing. */
  static String afterSearch(PlacementContext c, String searched) {
    String obvious = obviousReason(c);
    if (!obvious.isEmpty()) {
      return obvious;
    }
    String last = c.lastRejection().isEmpty() ? "" : "; last candidate rejected because " + c.lastRejection();
    return String.format("no placement found meeting %.4g req/s within %.4g s (%s, %d candidates tried%s)",
        c.request.slo().requiredThroughput(), c.request.slo().latencyBoundSeconds(), searched, c.candidatesEvaluated(), last);
  }
}
