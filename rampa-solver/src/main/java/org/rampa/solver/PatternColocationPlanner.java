package org.rampa.solver;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.SegmentMenu;
import org.rampa.strategy.SolveStatus;

/**
 * The exact co-location planner (SHARING.md section 5): the pattern MILP whose columns are legal
 * configurations of one GPU with their per-service throughput, solved by column generation on the
 * LP relaxation (GLOP, duals priced by {@link ColocationPricing}) and then an integer solve over the
 * generated columns on SCIP. When pricing finds no improving column the LP optimum is a proven bound
 * on the optimum of every plan over the searched configurations; the integer plan is OPTIMAL only
 * when it meets that bound (for the fewest GPUs: the bound rounded up), else FEASIBLE with the gap —
 * an integer solve over generated columns alone proves nothing about the integer optimum.
 *
 * <p>Searched: whole GPUs; MIG layouts with one service per instance (MPS processes inside an
 * instance included); two MPS tenants splitting a GPU as (s, 1 − s), s ∈ {0.2, 0.4, 0.5, 0.6, 0.8},
 * with α for exactly that pair (enumerated once, priced by scanning; skipped, and said so, past
 * 50 000 pair evaluations per pool). Not searched: three or more MPS tenants on one GPU.
 *
 * <p>Rows: {@code Σ_c a_ic x_c ≥ r_i} (fewest GPUs; a priced slack keeps the restricted LP feasible),
 * {@code Σ_c a_ic x_c ≥ r_i·Z} (largest scale), {@code s_i ≤ Σ_c a_ic x_c, s_i ≤ r_i} (weighted
 * throughput), and {@code Σ_{c of type τ} x_c ≤ N_τ}.
 */
public final class PatternColocationPlanner implements ColocationPlanner {

  /** Column generation stops after this many rounds even without convergence (then no bound is claimed). */
  private static final int MAX_ROUNDS = 10_000;

  private static final double REDUCED_COST_EPS = 1e-9;

  private final Optional<ColocationPlanner> warmStart;

  /** Column generation alone, no integer start from outside. */
  public PatternColocationPlanner() {
    this.warmStart = Optional.empty();
  }

  /**
   * Warm-started: the configurations of {@code warmStart}'s plan (a heuristic's, checked by the
   * verifier) join the columns and its GPU counts are SCIP's start, so the integer solve is never
   * worse than that plan. The bound and the status do not depend on it.
   */
  public PatternColocationPlanner(ColocationPlanner warmStart) {
    this.warmStart = Optional.of(warmStart);
  }

  @Override
  public String name() {
    return "exact";
  }

  @Override
  public ColocationResult plan(ColocationProblem original, Duration timeLimit) {
    // its columns run whole models only: with a pipelined service its bound would not be a bound
    for (var s : original.services()) {
      if (!s.partitions().isEmpty()) {
        return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND, name() + ": service " + s.id() + " offers pipeline partitions " + s.partitions()
            + "; this planner's configurations run whole models only, so it cannot claim a bound (use the heuristic)");
      }
    }
    ColocationProblem problem = original.memoized();
    long start = System.nanoTime();
    long deadline = start + timeLimit.toNanos();
    // the budget: the warm start (if any) a tenth, column generation up to 60 %, the dive up to 75 %,
    // and the integer solve the rest, so a plan is in hand before the limit
    long cgDeadline = start + timeLimit.toNanos() * 6 / 10;
    long diveDeadline = start + timeLimit.toNanos() * 3 / 4;
    OrToolsNatives.ensureLoaded();
    SegmentMenu menu = SegmentMenu.of(problem);
    ColocationPricing pricing = new ColocationPricing(problem, menu);
    int n = problem.services().size();
    List<ColocationColumn> columns = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (int k = 0; k < problem.pools().size(); k++) {
      if (problem.pools().get(k).count() == 0) {
        continue;
      }
      for (int i = 0; i < n; i++) {
        double[] unit = new double[n];
        unit[i] = 1;
        pricing.best(k, unit).filter(c -> keys.add(c.key())).ifPresent(columns::add);
      }
    }
    ColocationObjective objective = problem.objective();
    Map<Integer, Integer> seeded = warmStart.isPresent()
        ? seed(problem, pricing, columns, keys, warmStart.get().plan(problem, Duration.ofNanos(timeLimit.toNanos() / 10)))
        : Map.of();
    LpOutcome lp = columnGeneration(problem, pricing, columns, keys, Map.of(), cgDeadline);
    if (objective == ColocationObjective.MIN_GPUS && lp.converged && lp.slack > 1e-7) {
      LpOutcome scale = columnGeneration(problem.withObjective(ColocationObjective.MAX_SCALE), pricing, columns, keys, Map.of(), cgDeadline);
      if (scale.converged && scale.value < 1 - 1e-7) {
        return ColocationResult.noPlan(SolveStatus.INFEASIBLE, "exact: even the LP relaxation serves at most " + scale.value
            + " of the demand on the cluster's " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
            + " (column generation converged); maybe add GPUs or relax the SLOs");
      }
    }
    OptionalDouble bound = OptionalDouble.empty();
    if (lp.converged) {
      bound = OptionalDouble.of(objective == ColocationObjective.MIN_GPUS ? Math.ceil(lp.value - 1e-6) : lp.value);
    }
    Map<Integer, Integer> hint = !seeded.isEmpty() || objective != ColocationObjective.MIN_GPUS || lp.slack > 1e-7
        ? seeded : dive(problem, pricing, columns, keys, lp, diveDeadline);
    boolean complete = addAllColumnsIfSmall(problem, pricing, columns, keys);
    IntegerOutcome integer = integerSolve(problem, columns, hint, complete, deadline);
    if (complete && integer.infeasible && objective == ColocationObjective.MIN_GPUS) {
      return ColocationResult.noPlan(SolveStatus.INFEASIBLE, "exact: no plan over every undominated configuration ("
          + columns.size() + " columns) serves the demand on the cluster's "
          + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList() + "; maybe add GPUs or relax the SLOs");
    }
    if (complete && integer.optimal) {
      bound = OptionalDouble.of(integer.objective);
    }
    Optional<ColocationPlan> plan = integer.plan.or(() -> hint.isEmpty() ? Optional.empty() : Optional.of(planOf(problem, columns, hint)));
    if (plan.isEmpty()) {
      String why = "exact: SCIP found no integer plan over the " + columns.size() + " generated columns"
          + (lp.converged ? " (LP bound " + lp.value + ")" : " (column generation did not converge in time)");
      return new ColocationResult(System.nanoTime() >= deadline ? SolveStatus.NO_SOLUTION_IN_TIME : SolveStatus.NO_PLAN_FOUND,
          Optional.empty(), OptionalDouble.empty(), bound, why);
    }
    ColocationVerifier.requireValid(problem, plan.get(), name());
    double value = ColocationVerifier.objectiveValue(problem, plan.get());
    boolean optimal = (complete && integer.optimal) || bound.isPresent() && (objective == ColocationObjective.MIN_GPUS
        ? value <= bound.getAsDouble() + 1e-9
        : value >= bound.getAsDouble() * (1 - 1e-6));
    String reason = "exact: " + columns.size() + (complete ? " columns (every undominated configuration)" : " columns") + ", "
        + (pricing.searchesAllMpsPairs() ? "" : "MPS pairs not searched (too many), ") + lp.rounds + " pricing rounds, LP "
        + (lp.converged ? "converged at " + lp.value : "not converged (no bound)");
    return new ColocationResult(optimal ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, plan, OptionalDouble.of(value), bound, reason);
  }

  /** The plan of column counts {@code counts} (an integer start SCIP did not improve on in time). */
  private static ColocationPlan planOf(ColocationProblem problem, List<ColocationColumn> columns, Map<Integer, Integer> counts) {
    List<GpuConfiguration> gpus = new ArrayList<>();
    counts.forEach((c, n) -> {
      for (int j = 0; j < n; j++) {
        gpus.add(columns.get(c).configuration(problem.pools().get(columns.get(c).pool()).type().name()));
      }
    });
    ColocationPlan unscaled = new ColocationPlan(gpus, 0);
    return new ColocationPlan(gpus, problem.objective() == ColocationObjective.MIN_GPUS ? 1
        : problem.objective() == ColocationObjective.MAX_SCALE ? servedScale(problem, unscaled) : Math.min(1, servedScale(problem, unscaled)));
  }

  /** Adds the configurations of a warm start's plan as columns; returns its column counts (empty when it has no plan). */
  private static Map<Integer, Integer> seed(ColocationProblem problem, ColocationPricing pricing, List<ColocationColumn> columns, Set<String> keys,
      ColocationResult start) {
    if (start.plan().isEmpty() || !ColocationVerifier.check(problem, start.plan().get()).isEmpty()) {
      return Map.of();
    }
    Map<String, Integer> index = new java.util.HashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      index.put(columns.get(c).key(), c);
    }
    Map<Integer, Integer> counts = new java.util.HashMap<>();
    for (GpuConfiguration gpu : start.plan().get().gpus()) {
      ColocationColumn col = pricing.column(problem, gpu);
      Integer c = index.get(col.key());
      if (c == null) {
        columns.add(col);
        keys.add(col.key());
        c = columns.size() - 1;
        index.put(col.key(), c);
      }
      counts.merge(c, 1, Integer::sum);
    }
    return counts;
  }

  private record LpOutcome(boolean converged, double value, double slack, int rounds, double[] x) {}

  /**
   * A price-and-round dive for an integer start: fix every column's LP value rounded down, round
   * the most fractional one up, generate columns again for what is left, until the LP is integral.
   * Its columns join the pool, so the integer solve can do at least as well; empty when it fails.
   */
  private static Map<Integer, Integer> dive(ColocationProblem problem, ColocationPricing pricing, List<ColocationColumn> columns, Set<String> keys,
      LpOutcome root, long deadline) {
    Map<Integer, Integer> fixed = new java.util.HashMap<>();
    LpOutcome lp = root;
    while (System.nanoTime() < deadline) {
      int up = -1;
      double bestFraction = 0;
      for (int c = 0; c < lp.x.length; c++) {
        double v = lp.x[c];
        double f = v - Math.floor(v + 1e-9);
        if (f > 1e-6 && f > bestFraction) {
          bestFraction = f;
          up = c;
        }
        if (Math.floor(v + 1e-9) > fixed.getOrDefault(c, 0)) {
          fixed.put(c, (int) Math.floor(v + 1e-9));
        }
      }
      if (up < 0) {
        return fixed;
      }
      fixed.put(up, (int) Math.ceil(lp.x[up] - 1e-9));
      lp = columnGeneration(problem, pricing, columns, keys, fixed, deadline);
      if (lp.slack > 1e-7) {
        return Map.of();
      }
    }
    return Map.of();
  }

  /** Column generation on GLOP until no pool prices an improving column (or the deadline); {@code fixed}: lower bounds on columns. */
  private static LpOutcome columnGeneration(ColocationProblem problem, ColocationPricing pricing, List<ColocationColumn> columns, Set<String> keys,
      Map<Integer, Integer> fixed, long deadline) {
    int rounds = 0;
    while (true) {
      Master m = new Master(problem, columns, false);
      fixed.forEach((c, lb) -> m.x[c].setLb(lb));
      try {
        MPSolver.ResultStatus status = m.solver.solve();
        if (status != MPSolver.ResultStatus.OPTIMAL) {
          throw new IllegalStateException("GLOP ended with " + status + " on the co-location master LP, which is feasible and bounded by construction");
        }
        double value = m.solver.objective().value();
        if (System.nanoTime() >= deadline || rounds >= MAX_ROUNDS) {
          return new LpOutcome(false, value, m.slack(), rounds, m.values());
        }
        rounds++;
        boolean added = false;
        for (int k = 0; k < problem.pools().size(); k++) {
          if (problem.pools().get(k).count() == 0) {
            continue;
          }
          double[] p = m.prices();
          Optional<ColocationColumn> c = pricing.best(k, p);
          if (c.isPresent() && m.improves(c.get()) && keys.add(c.get().key())) {
            columns.add(c.get());
            added = true;
          }
        }
        if (!added) {
          return new LpOutcome(true, value, m.slack(), rounds, m.values());
        }
      } finally {
        m.solver.delete();
      }
    }
  }

  /** Configurations per pool up to which every undominated one becomes a column (tiny instances get a proof). */
  private static final int COMPLETE_LIMIT = 20_000;

  /** Adds every undominated configuration when every pool has few; true when it did. */
  private static boolean addAllColumnsIfSmall(ColocationProblem problem, ColocationPricing pricing, List<ColocationColumn> columns, Set<String> keys) {
    List<ColocationColumn> all = new ArrayList<>();
    for (int k = 0; k < problem.pools().size(); k++) {
      if (problem.pools().get(k).count() == 0) {
        continue;
      }
      Optional<List<ColocationColumn>> pool = pricing.allColumns(k, COMPLETE_LIMIT);
      if (pool.isEmpty()) {
        return false;
      }
      all.addAll(pool.get());
    }
    all.stream().filter(c -> keys.add(c.key())).forEach(columns::add);
    return true;
  }

  private record IntegerOutcome(Optional<ColocationPlan> plan, boolean optimal, boolean infeasible, double objective) {}

  /** The integer model over the columns on SCIP: the plan it finds, if any, and whether SCIP proved it optimal or the model infeasible. */
  private static IntegerOutcome integerSolve(ColocationProblem problem, List<ColocationColumn> columns, Map<Integer, Integer> hint, boolean exactGap,
      long deadline) {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      return new IntegerOutcome(Optional.empty(), false, false, Double.NaN);
    }
    Master m = new Master(problem, columns, true);
    com.google.ortools.linearsolver.MPSolverParameters parameters = new com.google.ortools.linearsolver.MPSolverParameters();
    try {
      m.solver.setTimeLimit(left);
      if (exactGap) {
        parameters.setDoubleParam(com.google.ortools.linearsolver.MPSolverParameters.DoubleParam.RELATIVE_MIP_GAP, 0);
      }
      if (!hint.isEmpty()) {
        double[] start = new double[columns.size()];
        hint.forEach((c, v) -> start[c] = v);
        m.solver.setHint(m.x, start);
      }
      MPSolver.ResultStatus status = m.solver.solve(parameters);
      if (status != MPSolver.ResultStatus.OPTIMAL && status != MPSolver.ResultStatus.FEASIBLE) {
        return new IntegerOutcome(Optional.empty(), false, status == MPSolver.ResultStatus.INFEASIBLE, Double.NaN);
      }
      List<GpuConfiguration> gpus = new ArrayList<>();
      for (int c = 0; c < columns.size(); c++) {
        long copies = Math.round(m.x[c].solutionValue());
        ColocationColumn col = columns.get(c);
        for (long j = 0; j < copies; j++) {
          gpus.add(col.configuration(problem.pools().get(col.pool()).type().name()));
        }
      }
      ColocationPlan unscaled = new ColocationPlan(gpus, 0);
      double scale = switch (problem.objective()) {
        case MIN_GPUS -> 1;
        case MAX_SCALE -> servedScale(problem, unscaled);
        case MAX_WEIGHTED_THROUGHPUT -> Math.min(1, servedScale(problem, unscaled));
      };
      return new IntegerOutcome(Optional.of(new ColocationPlan(gpus, scale)), status == MPSolver.ResultStatus.OPTIMAL, false, m.solver.objective().value());
    } finally {
      parameters.delete();
      m.solver.delete();
    }
  }

  /** The largest Z with every service's throughput ≥ Z × rate, as the verifier computes throughput. */
  private static double servedScale(ColocationProblem problem, ColocationPlan plan) {
    Map<String, Double> t = ColocationVerifier.throughputs(problem, plan);
    return problem.services().stream().mapToDouble(s -> t.get(s.id()) / s.rate()).min().orElseThrow();
  }

  /** The master problem over a list of columns, as an LP on GLOP or an integer program on SCIP. */
  private static final class Master {
    final MPSolver solver;
    final MPVariable[] x;
    final MPConstraint[] cover;
    final MPConstraint[] capacity;
    final MPVariable[] slack;
    final ColocationProblem problem;
    /** +1 when column throughput enters the cover rows with a positive sign, -1 when negative. */
    final double sign;
    final boolean minimise;

    Master(ColocationProblem problem, List<ColocationColumn> columns, boolean integer) {
      this.problem = problem;
      this.solver = integer ? ScipBackend.newSolver() : glop();
      if (integer) {
        solver.setNumThreads(1);
      }
      double inf = MPSolver.infinity();
      List<ColocationService> services = problem.services();
      int n = services.size();
      ColocationObjective objective = problem.objective();
      minimise = objective == ColocationObjective.MIN_GPUS;
      sign = objective == ColocationObjective.MAX_WEIGHTED_THROUGHPUT ? -1 : 1;
      MPObjective obj = solver.objective();
      cover = new MPConstraint[n];
      // the restricted LP needs the slack to stay feasible; the integer model must not have it
      slack = new MPVariable[objective == ColocationObjective.MIN_GPUS && !integer ? n : 0];
      MPVariable z = objective == ColocationObjective.MAX_SCALE ? solver.makeNumVar(0, inf, "Z") : null;
      double slackCost = 1 + problem.pools().stream().mapToDouble(p -> p.count()).sum();
      for (int i = 0; i < n; i++) {
        ColocationService s = services.get(i);
        switch (objective) {
          case MIN_GPUS -> {
            cover[i] = solver.makeConstraint(s.rate(), inf, "cover_" + i);
            if (!integer) {
              // a unit of slack serves the whole rate at the price of more GPUs than the cluster has
              slack[i] = solver.makeNumVar(0, 1, "slack_" + i);
              cover[i].setCoefficient(slack[i], s.rate());
              obj.setCoefficient(slack[i], slackCost);
            }
          }
          case MAX_SCALE -> {
            cover[i] = solver.makeConstraint(0, inf, "cover_" + i);
            cover[i].setCoefficient(z, -s.rate());
          }
          case MAX_WEIGHTED_THROUGHPUT -> {
            MPVariable served = solver.makeNumVar(0, s.rate(), "served_" + i);
            cover[i] = solver.makeConstraint(-inf, 0, "cover_" + i);
            cover[i].setCoefficient(served, 1);
            obj.setCoefficient(served, s.weight());
          }
        }
      }
      if (z != null) {
        obj.setCoefficient(z, 1);
      }
      capacity = new MPConstraint[problem.pools().size()];
      for (int k = 0; k < capacity.length; k++) {
        capacity[k] = solver.makeConstraint(-inf, problem.pools().get(k).count(), "gpus_" + k);
      }
      x = new MPVariable[columns.size()];
      for (int c = 0; c < columns.size(); c++) {
        ColocationColumn col = columns.get(c);
        x[c] = integer ? solver.makeIntVar(0, inf, "x_" + c) : solver.makeNumVar(0, inf, "x_" + c);
        for (int i = 0; i < n; i++) {
          if (col.throughput()[i] != 0) {
            cover[i].setCoefficient(x[c], sign * col.throughput()[i]);
          }
        }
        capacity[col.pool()].setCoefficient(x[c], 1);
        if (minimise) {
          obj.setCoefficient(x[c], 1);
        }
      }
      if (minimise) {
        obj.setMinimization();
      } else {
        obj.setMaximization();
      }
    }

    /** Pricing weights: the amount a column's throughput lowers (minimising) or raises (maximising) its reduced cost. */
    double[] prices() {
      double[] p = new double[cover.length];
      for (int i = 0; i < p.length; i++) {
        p[i] = (minimise ? 1 : -1) * sign * cover[i].dualValue();
      }
      return p;
    }

    /** True when {@code c}'s reduced cost {@code obj_c − Σ y·a} improves the LP. */
    boolean improves(ColocationColumn c) {
      double d = minimise ? 1 : 0;
      for (int i = 0; i < cover.length; i++) {
        d -= cover[i].dualValue() * sign * c.throughput()[i];
      }
      d -= capacity[c.pool()].dualValue();
      return minimise ? d < -REDUCED_COST_EPS : d > REDUCED_COST_EPS;
    }

    double[] values() {
      double[] v = new double[x.length];
      for (int c = 0; c < x.length; c++) {
        v[c] = x[c].solutionValue();
      }
      return v;
    }

    double slack() {
      double s = 0;
      for (MPVariable v : slack) {
        s += v.solutionValue();
      }
      return s;
    }

    private static MPSolver glop() {
      MPSolver s = MPSolver.createSolver("GLOP");
      if (s == null) {
        throw new IllegalStateException("OR-Tools could not create a GLOP solver (MPSolver.createSolver(\"GLOP\") returned null); "
            + "maybe the ortools-java native jar for this platform is missing");
      }
      return s;
    }
  }
}
