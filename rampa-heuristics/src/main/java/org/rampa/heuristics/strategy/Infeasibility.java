package org.rampa.heuristics.strategy;

import org.rampa.strategy.support.NecessaryConditions;
import org.rampa.strategy.SharingOptions;

/**
 * Human-readable reasons why no plan exists: the first failing {@link NecessaryConditions} (the
 * same conditions, and messages, as every other strategy), else what the search tried and the
 * last rejection it saw.
 */
final class Infeasibility {
  private Infeasibility() {}

  /**
   * The first necessary condition that applies with {@code sharing} and fails, or empty: every
   * strategy asks here, and {@link NecessaryConditions#firstFailure(org.rampa.strategy.PlacementProblem, SharingOptions)}
   * alone decides which conditions apply.
   */
  static String obviousReason(PlacementContext c, SharingOptions sharing) {
    return NecessaryConditions.firstFailure(c.problem, sharing).orElse("");
  }

  /** What a search that found nothing tried, and the last rejection it saw. */
  static String afterSearch(PlacementContext c, String searched) {
    String last = c.lastRejection().isEmpty() ? "" : "; last candidate rejected because " + c.lastRejection();
    return String.format("%s, %d candidates tried, for %.4g req/s within %.4g s%s",
        searched, c.candidatesEvaluated(), c.request.slo().requiredThroughput(), c.request.slo().latencyBoundSeconds(), last);
  }
}
