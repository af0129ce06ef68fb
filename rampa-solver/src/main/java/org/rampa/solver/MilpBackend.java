package org.rampa.solver;

import java.util.Map;
import java.util.Optional;
import org.rampa.strategy.support.TimeBudget;

/**
 * A MILP solver behind our own interface, so SCIP (through OR-Tools' MPSolver) and CP-SAT solve
 * the same {@link LinearModel} and another binding can be plugged in later.
 */
interface MilpBackend {

  /** "scip" or "cpsat": what users select with the {@code backend} option. */
  String name();

  /**
   * Solves {@code model} within what is left of {@code settings.budget()} once the model is loaded
   * into the solver (so loading counts against the limit); UNKNOWN without solving when nothing is left.
   */
  Solution solve(LinearModel model, Settings settings);

  /**
   * @param budget the call's time budget; the solver gets what remains of it
   * @param hint a complete assignment to try first (a MIP start), when there is one
   * @param solverParameters backend-specific parameters in the backend's own text format, or ""
   */
  record Settings(TimeBudget budget, double relativeGap, long seed, Optional<double[]> hint, String solverParameters) {}

  enum Outcome {
    /** Proven optimal within the relative gap asked for. */
    OPTIMAL,
    /** A solution, optimality not proven. */
    FEASIBLE,
    /** Proven to have no solution. */
    INFEASIBLE,
    /** Stopped (time limit) without a solution; feasibility unknown. */
    UNKNOWN
  }

  /**
   * @param values one value per variable when there is a solution, else empty
   * @param bestBound the proven lower bound on the objective (NaN when none)
   */
  record Solution(Outcome outcome, double[] values, double objective, double bestBound, Map<String, Double> statistics) {}
}
