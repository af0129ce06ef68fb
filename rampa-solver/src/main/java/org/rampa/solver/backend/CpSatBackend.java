package org.rampa.solver.backend;

import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rampa.domain.Invalid;

/**
 * CP-SAT, which only takes integer coefficients. Rows whose coefficients are not integers (the
 * latency row, in microseconds) are multiplied by {@code 2^30 / max|coefficient or bound|} and
 * rounded conservatively (toward a tighter row: coefficients up and the upper bound down for a
 * {@code <=} row, the other way for a {@code >=} row, to nearest for a two-sided one; every variable
 * is non-negative), so every
 * CP-SAT solution satisfies the row as written, and a solution loses at most about
 * {@code (its non-zero terms + 1) x 2^-30} of the row's largest value: far inside the SLO
 * predicate's 1e-6 tolerance. Not 2^40: with row coefficients near 2^40, CP-SAT 9.15's presolve
 * answered OPTIMAL at twice the optimum, and INFEASIBLE, on two 7-variable models that it solves
 * right with presolve off or at 2^30 (boundary seeds 500324 and 701493). The
 * objective (GPU costs) is scaled the same way to {@code 2^40} for the largest possible total, so
 * ties closer than about {@code 1e-12} of the largest cost may be broken either way. The reported
 * objective and bound are divided back.
 */
public final class CpSatBackend implements MilpBackend {

  public static final String NAME = "cpsat";
  private static final double ROW_SCALE = 0x1p30;
  private static final double OBJECTIVE_SCALE = 0x1p40;

  private final SolveWatchdog watchdog;

  public CpSatBackend(SolveWatchdog watchdog) {
    this.watchdog = watchdog;
    OrToolsNatives.ensureLoaded();
    FirstSolve.done();
  }

  /**
   * One tiny solve per JVM when the backend is created: CP-SAT's first solve loads and initialises
   * its protobuf and solver classes (about 100 ms), which would otherwise be charged to the first
   * call's time limit (measured: the first 100 ms call took 2.08x its limit, later ones 1.27x).
   */
  private static final class FirstSolve {
    static {
      CpModel cp = new CpModel();
      IntVar x = cp.newIntVar(0, 1, "x");
      cp.minimize(LinearExpr.newBuilder().addTerm(x, 1));
      CpSolver solver = new CpSolver();
      solver.getParameters().setNumWorkers(1);
      solver.solve(cp);
    }

    static void done() {}
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Solution solve(LinearProgram program, Settings settings) {
    if (!program.allInteger() || program.maximises()) {
      throw new IllegalArgumentException("CP-SAT takes integer programmes to minimise; this one " + (program.allInteger()
          ? "maximises" : "has continuous variables") + ". Maybe solve it with the SCIP backend");
    }
    OrToolsNatives.ensureLoaded();
    CpModel cp = new CpModel();
    IntVar[] vars = new IntVar[program.variableCount()];
    for (int i = 0; i < vars.length; i++) {
      LinearProgram.Variable v = program.variables().get(i);
      vars[i] = cp.newIntVar((long) v.lower(), (long) v.upper(), v.name());
    }
    for (LinearProgram.Row row : program.rows()) {
      addRow(cp, vars, row);
    }
    double largestTotal = 0;
    for (int i = 0; i < vars.length; i++) {
      largestTotal += Math.abs(program.objective(i)) * program.variables().get(i).upper();
    }
    double objectiveScale = largestTotal > 0 ? OBJECTIVE_SCALE / largestTotal : 1;
    LinearExprBuilder objective = LinearExpr.newBuilder();
    for (int i = 0; i < vars.length; i++) {
      long c = Math.round(program.objective(i) * objectiveScale);
      if (c != 0) {
        objective.addTerm(vars[i], c);
      }
    }
    cp.minimize(objective);
    settings.hint().ifPresent(h -> {
      for (int i = 0; i < vars.length; i++) {
        if (!Double.isNaN(h[i])) {
          cp.addHint(vars[i], Math.round(h[i]));
        }
      }
    });

    CpSolver solver = new CpSolver();
    var params = solver.getParameters();
    long leftNanos = settings.budget().remaining().toNanos();
    if (leftNanos <= 0) {
      return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, Map.of("solverMillis", 0.0));
    }
    params.setMaxTimeInSeconds(leftNanos * 1e-9);
    params.setNumWorkers(1);
    params.setRandomSeed((int) Math.floorMod(settings.seed(), Integer.MAX_VALUE));
    params.setRelativeGapLimit(settings.relativeGap());
    if (!settings.solverParameters().isBlank()) {
      try {
        com.google.protobuf.TextFormat.merge(settings.solverParameters(), params);
      } catch (com.google.protobuf.TextFormat.ParseException e) {
        throw Invalid.value("options.extra.solverParameters", settings.solverParameters(),
            "CP-SAT rejected these parameters: " + e.getMessage(), "use SatParameters text format, e.g. \"num_workers: 1\"");
      }
    }
    CpSolverStatus status;
    // CP-SAT checks its own limit only now and then: the watchdog stops it at the deadline
    try (SolveWatchdog.Guard guard = watchdog.arm(Duration.ofNanos(leftNanos), solver::stopSearch)) {
      status = solver.solve(cp);
    }
    Map<String, Double> stats = new LinkedHashMap<>();
    stats.put("solverBranches", (double) solver.numBranches());
    stats.put("solverConflicts", (double) solver.numConflicts());
    stats.put("solverMillis", solver.wallTime() * 1e3);
    switch (status) {
      case OPTIMAL, FEASIBLE -> {
        double[] values = new double[vars.length];
        for (int i = 0; i < vars.length; i++) {
          values[i] = solver.value(vars[i]);
        }
        Outcome outcome = status == CpSolverStatus.OPTIMAL ? Outcome.OPTIMAL : Outcome.FEASIBLE;
        return new Solution(outcome, values, program.objectiveValue(values),
            solver.bestObjectiveBound() / objectiveScale, stats);
      }
      case INFEASIBLE -> {
        return new Solution(Outcome.INFEASIBLE, new double[0], Double.NaN, Double.NaN, stats);
      }
      case UNKNOWN -> {
        return new Solution(Outcome.UNKNOWN, new double[0], Double.NaN, Double.NaN, stats);
      }
      default -> throw new IllegalStateException("CP-SAT ended with status " + status + ": " + cp.validate()
          + ". This is a bug in the formulation. Maybe export the model with extra exportLp=<path>");
    }
  }

  private static void addRow(CpModel cp, IntVar[] vars, LinearProgram.Row row) {
    double scale = 1;
    if (!row.integral()) {
      double largest = 0;
      for (LinearProgram.Term t : row.terms()) {
        largest = Math.max(largest, Math.abs(t.coefficient()));
      }
      for (double b : new double[] {row.lower(), row.upper()}) {
        if (Double.isFinite(b)) {
          largest = Math.max(largest, Math.abs(b));
        }
      }
      scale = largest > 0 ? ROW_SCALE / largest : 1;
    }
    boolean upperOnly = Double.isInfinite(row.lower()) && !Double.isInfinite(row.upper());
    boolean lowerOnly = !Double.isInfinite(row.lower()) && Double.isInfinite(row.upper());
    LinearExprBuilder expr = LinearExpr.newBuilder();
    for (LinearProgram.Term t : row.terms()) {
      double c = t.coefficient() * scale;
      expr.addTerm(vars[t.variable()], (long) (upperOnly ? Math.ceil(c) : lowerOnly ? Math.floor(c) : Math.rint(c)));
    }
    long lower = Double.isInfinite(row.lower()) ? Long.MIN_VALUE : (long) Math.ceil(row.lower() * scale);
    long upper = Double.isInfinite(row.upper()) ? Long.MAX_VALUE : (long) Math.floor(row.upper() * scale);
    cp.addLinearConstraint(expr, lower, upper);
  }
}
