package org.rampa.examples.bound;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rampa.examples.sim.Arrival;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.solver.backend.OrToolsNatives;

/**
 * An upper bound on the services any scheduler could admit from one arrival trace, even knowing
 * the whole future: an integer programme in which each arrival is admitted with one of its class's
 * {@link GpuCountOptions minimal GPU vectors} or not at all, and at every arrival instant the
 * vectors of the services then running fit the cluster's GPUs of each type.
 *
 * <p><b>Why it is a bound.</b> Take the admissions of any online scheduler on the trace. Each
 * admitted plan holds, per type, at least the GPUs of some minimal vector of its class (the option
 * set is complete), and the plans running at any instant hold disjoint GPUs of the cluster. Giving
 * each admitted arrival that minimal vector is therefore a solution of the programme with the same
 * number of admissions, so the programme's optimum is at least as large. It drops what only
 * restricts a real scheduler: which node a GPU is on, links and transfer times, importance, the
 * order of decisions and the requirement to decide on arrival. Capacity need only be checked at
 * arrival instants: between arrivals services only leave. The integer optimum is the bound; its
 * LP relaxation, a weaker bound, is reported alongside.
 *
 * <p>Solved on SCIP (integer) and GLOP (LP) through OR-Tools, one thread per solve. When the
 * integer solve stops at its node limit before proving optimality, the bound is SCIP's proven dual
 * bound rounded down, still a true bound, and {@link Result#proven()} is false.
 */
public final class OfflineBound {

  /** Explore only the root node: its dual bound, after SCIP's cuts, is usually already the optimum. */
  public static final long ROOT_ONLY = 1;

  /**
   * A last resort against a solve that would never end; the node limit is what normally stops it
   * (a time limit would make the bound depend on the machine's speed).
   */
  private static final Duration SAFETY_TIME_LIMIT = Duration.ofMinutes(10);

  /** Feasibility tolerance of the solvers on the objective (a count of arrivals). */
  private static final double OBJECTIVE_TOLERANCE = 1e-6;

  private OfflineBound() {}

  /**
   * @param admissions the bound: no scheduler admits more
   * @param lpRelaxation the LP relaxation's optimum (at least {@code admissions})
   * @param proven whether SCIP proved the integer optimum (else {@code admissions} is its dual bound)
   */
  public record Result(int admissions, double lpRelaxation, boolean proven) {}

  /**
   * The bound for {@code trace}; {@code options.get(c)} are the minimal GPU vectors of class
   * {@code c}, {@code capacity} the cluster's GPUs per type. SCIP explores at most
   * {@code nodeLimit} branch-and-bound nodes ({@link #ROOT_ONLY}: the root with its cutting planes;
   * -1: until optimal), a deterministic limit, so the same trace always gets the same bound.
   */
  public static Result of(ArrivalTrace trace, List<List<int[]>> options, int[] capacity, long nodeLimit) {
    return of(trace, options.stream().map(o -> o.stream().map(OfflineBound::real).toList()).toList(), real(capacity), nodeLimit);
  }

  /**
   * The bound with fractional footprints ({@link SharedFootprints}: parts of GPUs, memory):
   * {@code options.get(c)} are class {@code c}'s footprints, {@code capacity} what the cluster
   * offers in each of their components; as {@link #of(ArrivalTrace, List, int[], long)} otherwise.
   */
  public static Result of(ArrivalTrace trace, List<List<double[]>> options, double[] capacity, long nodeLimit) {
    OrToolsNatives.ensureLoaded();
    double lp = solve(trace, options, capacity, nodeLimit, false).value;
    Solved integer = solve(trace, options, capacity, nodeLimit, true);
    int admissions = (int) Math.floor(Math.min(integer.value, lp) + OBJECTIVE_TOLERANCE);
    return new Result(admissions, lp, integer.proven);
  }

  private static double[] real(int[] v) {
    return java.util.Arrays.stream(v).asDoubleStream().toArray();
  }

  private record Solved(double value, boolean proven) {}

  private static Solved solve(ArrivalTrace trace, List<List<double[]>> options, double[] capacity, long nodeLimit, boolean integer) {
    MPSolver solver = MPSolver.createSolver(integer ? "SCIP" : "GLOP");
    if (solver == null) {
      throw new IllegalStateException("OR-Tools could not create a " + (integer ? "SCIP" : "GLOP") + " solver");
    }
    try {
      solver.setNumThreads(1);
      solver.setTimeLimit(SAFETY_TIME_LIMIT.toMillis());
      if (integer && !solver.setSolverSpecificParametersAsString("limits/nodes = " + nodeLimit)) {
        throw new IllegalStateException("SCIP refused the parameter limits/nodes = " + nodeLimit);
      }
      List<Arrival> arrivals = trace.arrivals();
      List<MPVariable[]> x = new ArrayList<>();
      MPObjective objective = solver.objective();
      objective.setMaximization();
      for (Arrival a : arrivals) {
        List<double[]> choices = options.get(a.classIndex());
        MPVariable[] vars = new MPVariable[choices.size()];
        MPConstraint once = solver.makeConstraint(0, 1, "once_" + a.sequence());
        for (int o = 0; o < vars.length; o++) {
          vars[o] = integer ? solver.makeIntVar(0, 1, "x_" + a.sequence() + "_" + o) : solver.makeNumVar(0, 1, "x_" + a.sequence() + "_" + o);
          once.setCoefficient(vars[o], 1);
          objective.setCoefficient(vars[o], 1);
        }
        x.add(vars);
      }
      List<Integer> running = new ArrayList<>();
      for (int i = 0; i < arrivals.size(); i++) {
        double now = arrivals.get(i).timeSeconds();
        running.removeIf(j -> end(arrivals.get(j)) <= now);
        running.add(i);
        if (!isPeak(arrivals, running, i)) {
          continue;
        }
        for (int t = 0; t < capacity.length; t++) {
          MPConstraint fits = solver.makeConstraint(0, capacity[t], "cap_" + i + "_" + t);
          for (int j : running) {
            List<double[]> choices = options.get(arrivals.get(j).classIndex());
            for (int o = 0; o < choices.size(); o++) {
              if (choices.get(o)[t] > 0) {
                fits.setCoefficient(x.get(j)[o], choices.get(o)[t]);
              }
            }
          }
        }
      }
      MPSolver.ResultStatus status = solver.solve();
      if (status == MPSolver.ResultStatus.OPTIMAL) {
        return new Solved(objective.value(), true);
      }
      if (integer && (status == MPSolver.ResultStatus.FEASIBLE || status == MPSolver.ResultStatus.NOT_SOLVED)) {
        // stopped at the node limit: SCIP's proven dual bound is still an upper bound (none yet: infinite)
        double dual = objective.bestBound();
        return new Solved(Double.isFinite(dual) ? dual : Double.POSITIVE_INFINITY, false);
      }
      throw new IllegalStateException("the offline bound's " + (integer ? "integer programme" : "LP relaxation") + " ended "
          + status + "; admitting nothing is always feasible, so this is a solver failure");
    } finally {
      solver.delete();
    }
  }

  /**
   * Whether the services running just after arrival {@code i} are not all still running at the
   * next arrival (one leaves in between, or {@code i} is the last): only such instants need a
   * capacity row, the others' running sets being contained in the next one's. The simulator
   * releases a service whose departure time equals an arrival's before that arrival, so a service
   * runs at instant {@code now} while {@code start + lifetime > now}.
   */
  private static boolean isPeak(List<Arrival> arrivals, List<Integer> running, int i) {
    if (i == arrivals.size() - 1) {
      return true;
    }
    double next = arrivals.get(i + 1).timeSeconds();
    return running.stream().anyMatch(j -> end(arrivals.get(j)) <= next);
  }

  private static double end(Arrival a) {
    return a.timeSeconds() + a.lifetimeSeconds();
  }
}
