package org.rampa.solver.backend;

import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * GLOP, OR-Tools' simplex, through {@code MPSolver}, for programmes whose variables are all
 * continuous (an LP relaxation); settings other than the budget do not apply to it. Loaded and
 * stopped as {@link ScipBackend} is: its limit is what is left of the budget once the programme is
 * loaded, and {@link SolveWatchdog} interrupts it at that deadline.
 */
public final class GlopBackend implements MilpBackend {

  public static final String NAME = "glop";

  private final SolveWatchdog watchdog;

  public GlopBackend(SolveWatchdog watchdog) {
    this.watchdog = watchdog;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Solution solve(LinearProgram program, Settings settings) {
    if (program.variables().stream().anyMatch(LinearProgram.Variable::integer)) {
      throw new IllegalArgumentException("GLOP solves linear programmes; this one has integer variables. "
          + "Maybe write their relaxation (continuous variables), or solve it with the SCIP backend");
    }
    OrToolsNatives.ensureLoaded();
    MPSolver solver = MPSolver.createSolver("GLOP");
    if (solver == null) {
      throw new IllegalStateException("OR-Tools could not create a GLOP solver (MPSolver.createSolver(\"GLOP\") returned null); "
          + "maybe the ortools-java native jar for this platform is missing");
    }
    try {
      MPVariable[] vars = ScipBackend.load(solver, program, settings.budget()::expired);
      long leftNanos = settings.budget().remaining().toNanos();
      if (vars == null || leftNanos <= 0) {
        return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, Map.of("solverMillis", 0.0));
      }
      solver.setTimeLimit(Math.max(1, leftNanos / 1_000_000));
      MPSolver.ResultStatus status;
      boolean interrupted;
      try (SolveWatchdog.Guard guard = watchdog.arm(Duration.ofNanos(leftNanos), solver::interruptSolve)) {
        status = solver.solve();
        interrupted = guard.fired() > 0;
      }
      if (interrupted && status == MPSolver.ResultStatus.ABNORMAL) {
        status = MPSolver.ResultStatus.NOT_SOLVED; // stopped at the deadline, as SCIP's user interrupt
      }
      Map<String, Double> stats = new LinkedHashMap<>();
      stats.put("solverMillis", (double) solver.wallTime());
      switch (status) {
        case OPTIMAL -> {
          double[] values = new double[vars.length];
          for (int i = 0; i < vars.length; i++) {
            values[i] = vars[i].solutionValue();
          }
          double value = solver.objective().value();
          return new Solution(Outcome.OPTIMAL, values, value, value, stats);
        }
        case INFEASIBLE -> {
          return new Solution(Outcome.INFEASIBLE, new double[0], Double.NaN, Double.NaN, stats);
        }
        case NOT_SOLVED -> {
          return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, stats);
        }
        default -> throw new IllegalStateException("GLOP ended with status " + status + " on a linear programme of "
            + program.variableCount() + " variables; an unbounded or invalid programme is a bug in whoever wrote it");
      }
    } finally {
      solver.delete();
    }
  }
}
