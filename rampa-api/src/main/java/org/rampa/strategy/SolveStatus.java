package org.rampa.strategy;

/** How a strategy's search ended. */
public enum SolveStatus {
  /** A plan of proven minimum cost. */
  OPTIMAL,
  /** A plan that meets the SLO; its cost may exceed the optimum by the reported gap. */
  FEASIBLE,
  /** Proven: no plan meets the SLO on this state; the result says why. */
  INFEASIBLE,
  /** The time limit ran out before any plan was found; feasibility is unknown. */
  NO_SOLUTION_IN_TIME,
  /**
   * A search that does not explore every placement (a heuristic, or an exact search cut short by one
   * of its own limits other than time) found no plan; one may exist, so try an exact strategy.
   */
  NO_PLAN_FOUND;

  /** True for the statuses that carry a plan (OPTIMAL, FEASIBLE). */
  public boolean hasPlan() {
    return this == OPTIMAL || this == FEASIBLE;
  }
}
