package org.rampa.strategy;

/** How a strategy's search ended. */
public enum SolveStatus {
  /** A plan of proven minimum cost. */
  OPTIMAL,
  /** A plan that meets the SLO; its cost may exceed the optimum by the reported gap. */
  FEASIBLE,
  /** No plan meets the SLO on this state; the result says why. */
  INFEASIBLE,
  /** The time limit ran out before any plan was found; feasibility is unknown. */
  NO_SOLUTION_IN_TIME;

  /** True for the statuses that carry a plan (OPTIMAL, FEASIBLE). */
  public boolean hasPlan() {
    return this == OPTIMAL || this == FEASIBLE;
  }
}
