package org.rampa.solver.backend;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.rampa.domain.Invalid;

/**
 * SCIP through OR-Tools' {@code MPSolver}: one solver object and one thread per solve (SCIP with
 * several threads has been buggy upstream; parallelise across solves instead).
 */
public final class ScipBackend implements MilpBackend {

  public static final String NAME = "scip";

  /** How many native calls loading a programme makes between readings of the clock. */
  private static final int CLOCK_EVERY = 4096;

  private final SolveWatchdog watchdog;

  public ScipBackend(SolveWatchdog watchdog) {
    this.watchdog = watchdog;
  }

  /**
   * Root settings for the interval LP, whose relaxation is already tight: presolving, root
   * propagation, root separation, conflict analysis and the cheap start heuristics off. Measured on
   * the 1000-GPU, 80-block benchmark model (11k binaries): SCIP's defaults spent 1.5 s in probing
   * and sparsification that removed nothing; presolving off alone left a 0.24 s median, these
   * settings 0.06 s (six instances, interleaved). Users can turn anything back on with
   * {@code solverParameters}, which are applied after these.
   */
  public static final String DEFAULT_PARAMETERS = String.join("\n",
      "presolving/maxrounds = 0",
      "propagating/maxroundsroot = 0",
      "separating/maxroundsroot = 0",
      "conflict/enable = FALSE",
      "heuristics/locks/freq = -1",
      "heuristics/shiftandpropagate/freq = -1",
      "heuristics/trivial/freq = -1",
      "heuristics/zeroobj/freq = -1",
      "heuristics/clique/freq = -1",
      "heuristics/trivialnegation/freq = -1",
      "heuristics/simplerounding/freq = -1",
      // rows hold to a billionth, inside FlowProgramBuilder.SOLVER_MARGIN of the SLO predicate
      "numerics/feastol = 1e-9",
      "");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Solution solve(LinearProgram program, Settings settings) {
    MPSolver solver = newSolver();
    MPSolverParameters parameters = new MPSolverParameters();
    try {
      MPVariable[] vars = load(solver, program, settings.budget()::expired);
      if (vars == null) {
        return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, Map.of("solverMillis", 0.0));
      }
      solver.setNumThreads(1);
      String scipParameters = (settings.tuning() == Tuning.INTERVAL_FLOW ? DEFAULT_PARAMETERS
          + "randomization/randomseedshift = " + Math.floorMod(settings.seed(), Integer.MAX_VALUE) : "")
          + (settings.solverParameters().isBlank() ? "" : "\n" + settings.solverParameters());
      if (!scipParameters.isBlank() && !solver.setSolverSpecificParametersAsString(scipParameters)) {
        throw Invalid.value("options.extra.solverParameters", settings.solverParameters(),
            "SCIP rejected these parameters", "write one \"section/name = value\" per line, as in SCIP's settings files");
      }
      settings.hint().ifPresent(h -> setHint(solver, vars, h));
      parameters.setDoubleParam(MPSolverParameters.DoubleParam.RELATIVE_MIP_GAP, settings.relativeGap());
      long leftNanos = settings.budget().remaining().toNanos();
      if (leftNanos <= 0) {
        return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, Map.of("solverMillis", 0.0));
      }
      solver.setTimeLimit(Math.max(1, leftNanos / 1_000_000));
      MPSolver.ResultStatus status;
      boolean interrupted;
      // SCIP checks its own limit only now and then: the watchdog stops it at the deadline
      try (SolveWatchdog.Guard guard = watchdog.arm(Duration.ofNanos(leftNanos), solver::interruptSolve)) {
        status = solver.solve(parameters);
        interrupted = guard.fired() > 0;
      }
      if (interrupted && status == MPSolver.ResultStatus.ABNORMAL) {
        // OR-Tools reports SCIP's "user interrupt" without a solution as ABNORMAL (with one, FEASIBLE)
        status = MPSolver.ResultStatus.NOT_SOLVED;
      }
      Map<String, Double> stats = new LinkedHashMap<>();
      stats.put("solverNodes", (double) solver.nodes());
      stats.put("solverMillis", (double) solver.wallTime());
      switch (status) {
        case OPTIMAL, FEASIBLE -> {
          double[] values = new double[vars.length];
          for (int i = 0; i < vars.length; i++) {
            values[i] = vars[i].solutionValue();
          }
          MPObjective objective = solver.objective();
          Outcome outcome = status == MPSolver.ResultStatus.OPTIMAL ? Outcome.OPTIMAL : Outcome.FEASIBLE;
          return new Solution(outcome, values, objective.value(), objective.bestBound(), stats);
        }
        case INFEASIBLE -> {
          return new Solution(Outcome.INFEASIBLE, new double[0], Double.NaN, Double.NaN, stats);
        }
        case NOT_SOLVED -> {
          return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, stats);
        }
        default -> throw new IllegalStateException(
            "SCIP ended with status " + status + " on a bounded programme of " + program.variableCount() + " variables; "
                + "this is a bug in the formulation or the solver. Maybe export the model with extra exportLp=<path>");
      }
    } finally {
      parameters.delete();
      solver.delete();
    }
  }

  /**
   * Hands SCIP a start: every value when {@code hint} gives one per variable (a complete
   * solution, which SCIP checks), else the variables it gives a value (not NaN) as a partial
   * solution, which SCIP completes.
   */
  static void setHint(MPSolver solver, MPVariable[] vars, double[] hint) {
    if (Arrays.stream(hint).noneMatch(Double::isNaN)) {
      solver.setHint(vars, hint);
      return;
    }
    List<MPVariable> given = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < vars.length; i++) {
      if (!Double.isNaN(hint[i])) {
        given.add(vars[i]);
        values.add(hint[i]);
      }
    }
    solver.setHint(given.toArray(MPVariable[]::new), values.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** A fresh SCIP solver; fails loudly when this OR-Tools build lacks SCIP. */
  static MPSolver newSolver() {
    OrToolsNatives.ensureLoaded();
    MPSolver solver = MPSolver.createSolver("SCIP");
    if (solver == null) {
      throw new IllegalStateException(
          "OR-Tools could not create a SCIP solver (MPSolver.createSolver(\"SCIP\") returned null). "
              + "Maybe the ortools-java native jar for this platform is missing or was built without SCIP; "
              + "try the CP-SAT backend (strategy \"exact-cpsat\")");
    }
    return solver;
  }

  /**
   * Copies {@code program} into {@code solver}; returns the solver's variables in model order, or null
   * when {@code outOfTime} says so. Each variable and coefficient is a native call: on a loaded
   * machine a 7k-variable relaxation took tens of milliseconds to copy, so the clock is asked every
   * {@link #CLOCK_EVERY} of them.
   */
  static MPVariable[] load(MPSolver solver, LinearProgram program, BooleanSupplier outOfTime) {
    MPVariable[] vars = new MPVariable[program.variableCount()];
    int calls = 0;
    for (int i = 0; i < vars.length; i++) {
      LinearProgram.Variable v = program.variables().get(i);
      vars[i] = v.integer() ? solver.makeIntVar(bound(v.lower()), bound(v.upper()), v.name())
          : solver.makeNumVar(bound(v.lower()), bound(v.upper()), v.name());
      if (++calls % CLOCK_EVERY == 0 && outOfTime.getAsBoolean()) {
        return null;
      }
    }
    for (LinearProgram.Row row : program.rows()) {
      MPConstraint c = solver.makeConstraint(bound(row.lower()), bound(row.upper()), row.name());
      for (LinearProgram.Term t : row.terms()) {
        c.setCoefficient(vars[t.variable()], c.getCoefficient(vars[t.variable()]) + t.coefficient());
        if (++calls % CLOCK_EVERY == 0 && outOfTime.getAsBoolean()) {
          return null;
        }
      }
    }
    MPObjective objective = solver.objective();
    for (int i = 0; i < vars.length; i++) {
      objective.setCoefficient(vars[i], program.objective(i));
    }
    if (program.maximises()) {
      objective.setMaximization();
    } else {
      objective.setMinimization();
    }
    return vars;
  }

  private static double bound(double v) {
    return v == Double.POSITIVE_INFINITY ? MPSolver.infinity() : v == Double.NEGATIVE_INFINITY ? -MPSolver.infinity() : v;
  }

  /** The programme in LP format, as SCIP would receive it (for debugging and reading). */
  public static String exportLp(LinearProgram program) {
    MPSolver solver = newSolver();
    try {
      load(solver, program, () -> false);
      return solver.exportModelAsLpFormat();
    } finally {
      solver.delete();
    }
  }
}
