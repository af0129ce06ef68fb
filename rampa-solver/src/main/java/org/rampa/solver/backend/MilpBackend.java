package org.rampa.solver.backend;

import java.util.Map;
import java.util.Optional;
import org.rampa.strategy.support.TimeBudget;

/**
 * A MILP solver behind our own interface, so SCIP (through OR-Tools' MPSolver), CP-SAT and, for
 * linear programmes, GLOP solve the same {@link LinearProgram} the same way: natives loaded once,
 * the solver's own limit set to what is left of the call's budget once the programme is loaded, and
 * {@link SolveWatchdog} stopping it at that deadline.
 */
public interface MilpBackend {

  /** "scip" or "cpsat" (what users of exact select with the {@code backend} option), or "glop". */
  String name();

  /**
   * Solves {@code program} within what is left of {@code settings.budget()} once the model is loaded
   * into the solver (so loading counts against the limit); UNKNOWN without solving when nothing is left.
   */
  Solution solve(LinearProgram program, Settings settings);

  /**
   * @param budget the call's time budget; the solver gets what remains of it
   * @param hint an assignment to try first (a MIP start), when there is one: one value per
   *     variable, NaN for a variable it leaves open (a partial start, which SCIP completes)
   * @param solverParameters backend-specific parameters in the backend's own text format, or ""
   * @param tuning the settings the backend starts from, before {@code solverParameters}
   */
  record Settings(TimeBudget budget, double relativeGap, long seed, Optional<double[]> hint, String solverParameters,
      Tuning tuning) {

    /** Settings tuned for the interval-flow programme of exact. */
    public Settings(TimeBudget budget, double relativeGap, long seed, Optional<double[]> hint, String solverParameters) {
      this(budget, relativeGap, seed, hint, solverParameters, Tuning.INTERVAL_FLOW);
    }
  }

  /** What a backend's settings start from. */
  enum Tuning {
    /**
     * Tuned for the interval-flow programme, whose LP relaxation is already tight (for SCIP: see
     * {@link ScipBackend#DEFAULT_PARAMETERS}, and the seed as its random seed shift).
     */
    INTERVAL_FLOW,
    /** The solver's own defaults (the co-location planner's aggregated pattern programme); no seed. */
    SOLVER_DEFAULTS
  }

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
