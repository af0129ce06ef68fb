package org.rampa.solver;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.strategy.SolveStatus;

/**
 * The exact co-location planner (docs/SHARING.md section 5). Its model is the pattern MILP (a column is
 * one legal configuration of one GPU with its per-service throughput) in aggregated form ({@link
 * ColocationSpace}): integer counts of GPUs per MIG layout type, integer counts of instances of
 * each profile given to each service (at most as many as the chosen layouts provide), GPUs given
 * whole to a service, GPUs running one of the undominated MPS pairs or triples, and for pipelined services
 * ({@link StagedChoices}) a 0/1 choice per partition of one vector of per-stage batch-time caps
 * with instance and whole-GPU counts per stage, the service served what its weakest stage serves
 * (a service may run whole and in stages at once, as the verifier allows). MIG instances are
 * isolated, so every solution of the aggregated model decodes into per-GPU configurations and
 * every configuration the planner searches is one of its solutions: the model is exact, not a
 * restriction to generated columns. Without pipelined services its LP relaxation equals the pattern
 * LP's (for a fixed layout the instance-assignment polytope is integral); with them it also relaxes
 * the 0/1 choices, so it stays a bound of the whole space. It is solved on GLOP for the reported LP bound; the
 * integer model is solved on SCIP (one thread, relative gap 0 for GPU counts, 10⁻⁶ for a scale or
 * weighted throughput), so OPTIMAL and INFEASIBLE are
 * SCIP's proofs over the whole searched space, and a run cut short by the limit is FEASIBLE with
 * SCIP's dual bound (never weaker than the LP's).
 *
 * <p>Searched: whole GPUs; MIG layouts with one service per instance (MPS processes inside an
 * instance included); NPU template layouts with one service per template (templates are hard
 * partitions, aggregated like MIG instances); two MPS tenants splitting a GPU as (s, 1 − s), s ∈ {0.2, 0.4, 0.5, 0.6, 0.8},
 * with α for exactly that pair (skipped, and said so, past 50 000 pair evaluations per pool); three
 * MPS tenants splitting it in thirds or as an order of (0.2, 0.2, 0.6) or (0.2, 0.4, 0.4), α for
 * exactly that triple (skipped apart, and said so, past 50 000 triple evaluations per pool); the
 * warm start's own MPS configurations; pipeline stages on whole GPUs, MIG instances and NPU
 * templates (up to 2 000 cap vectors per partition, else the partition is skipped and said so). Not
 * searched: four or more MPS tenants on one GPU; pipeline stages on MPS shares; time-sharing.
 */
public final class PatternColocationPlanner implements ColocationPlanner {

  /** Relative gap within which a largest-scale or weighted-throughput plan counts as optimal. */
  private static final double OPTIMALITY_TOLERANCE = 1e-6;

  private final Optional<ColocationPlanner> warmStart;

  /** The integer model alone, no integer start from outside. */
  public PatternColocationPlanner() {
    this.warmStart = Optional.empty();
  }

  /**
   * Warm-started: the plan of {@code warmStart} (a heuristic's, checked by the verifier) is SCIP's
   * start, so the answer is never worse than that plan. The bound and the status do not depend on it.
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
    ColocationProblem problem = original.memoized();
    long deadline = System.nanoTime() + timeLimit.toNanos();
    OrToolsNatives.ensureLoaded();
    Optional<ColocationPlan> warm = warmStart.flatMap(w -> w.plan(problem, Duration.ofNanos(timeLimit.toNanos() / 10)).plan())
        .filter(p -> ColocationVerifier.check(problem, p).isEmpty());
    ColocationSpace space = new ColocationSpace(problem, SegmentMenu.of(problem));
    List<ColocationColumn> extra = new ArrayList<>();
    Optional<Map<String, Integer>> hint = warm.flatMap(p -> counts(space, p, extra));
    ColocationObjective objective = problem.objective();
    String searched = (space.searchesAllMpsPairs() ? "" : ", MPS pairs not searched (too many)")
        + (space.searchesAllMpsTriples() ? "" : ", MPS triples not searched (too many)")
        + (space.skippedPartitions().isEmpty() ? "" : ", pipeline partitions not searched (more than " + StagedChoices.CHOICES_PER_PARTITION_LIMIT
            + " cap vectors): " + space.skippedPartitions());

    OptionalDouble lp = relaxation(problem, space, extra);
    if (lp.isEmpty()) {
      OptionalDouble scale = relaxation(problem.withObjective(ColocationObjective.MAX_SCALE), space, extra);
      return ColocationResult.noPlan(SolveStatus.INFEASIBLE, "exact: even the LP relaxation serves at most " + scale.orElse(0)
          + " of the demand on the cluster's " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
          + searched + "; maybe add GPUs or relax the SLOs");
    }
    // the last 5 % of the limit decode and verify the plan (a 1000-GPU plan takes a few hundred ms under load)
    IntegerOutcome integer = integerSolve(problem, space, extra, hint, deadline - timeLimit.toNanos() / 20);
    if (integer.infeasible) {
      return ColocationResult.noPlan(SolveStatus.INFEASIBLE, "exact: SCIP proved that no plan over the searched configurations"
          + searched + " serves the demand on the cluster's " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
          + " (LP relaxation " + lp.getAsDouble() + "); maybe add GPUs or relax the SLOs");
    }
    boolean minimise = objective == ColocationObjective.MIN_GPUS;
    double dual = Double.isNaN(integer.bound) ? lp.getAsDouble()
        : minimise ? Math.max(lp.getAsDouble(), integer.bound) : Math.min(lp.getAsDouble(), integer.bound);
    OptionalDouble bound = OptionalDouble.of(minimise ? Math.ceil(dual - 1e-6) : dual);
    Optional<ColocationPlan> plan = integer.plan.or(() -> warm);
    String model = "exact: aggregated model over " + space.pools().stream().mapToInt(p -> p.layouts().size()).sum() + " layout types, "
        + space.pools().stream().mapToInt(p -> p.mpsPairs() == null ? 0 : p.mpsPairs().size()).sum() + " MPS pairs, "
        + space.pools().stream().mapToInt(p -> p.mpsTriples() == null ? 0 : p.mpsTriples().size()).sum() + " MPS triples, "
        + space.stagedChoices().size() + " staged choices of pipeline partitions" + searched
        + ", LP relaxation " + lp.getAsDouble();
    if (plan.isEmpty()) {
      return new ColocationResult(System.nanoTime() >= deadline ? SolveStatus.NO_SOLUTION_IN_TIME : SolveStatus.NO_PLAN_FOUND,
          Optional.empty(), OptionalDouble.empty(), bound, model + "; SCIP found no integer plan in time");
    }
    double value = ColocationVerifier.objectiveValue(problem, plan.get());
    boolean optimal = integer.optimal && integer.plan.isPresent()
        || (minimise ? value <= bound.getAsDouble() + 1e-9 : value >= bound.getAsDouble() * (1 - OPTIMALITY_TOLERANCE));
    if (optimal) {
      bound = OptionalDouble.of(minimise ? Math.min(bound.getAsDouble(), value) : Math.max(bound.getAsDouble(), value));
    }
    String reason = model + (integer.optimal ? ", SCIP proved the plan optimal"
        : Double.isNaN(integer.bound) ? ", SCIP found no plan by the limit" : ", SCIP stopped at the limit with dual bound " + integer.bound)
        + (integer.plan.isEmpty() ? " (the plan is the warm start's)" : "");
    return new ColocationResult(optimal ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, plan, OptionalDouble.of(value), bound, reason);
  }

  /** The LP relaxation's optimum on GLOP; empty when it is infeasible (fewest GPUs only: the other objectives always have x = 0). */
  private static OptionalDouble relaxation(ColocationProblem problem, ColocationSpace space, List<ColocationColumn> extra) {
    Model m = new Model(problem, space, extra, false);
    try {
      MPSolver.ResultStatus status = m.solver.solve();
      if (status == MPSolver.ResultStatus.INFEASIBLE) {
        return OptionalDouble.empty();
      }
      if (status != MPSolver.ResultStatus.OPTIMAL) {
        throw new IllegalStateException("GLOP ended with " + status + " on the co-location LP relaxation, which is bounded by the GPU counts");
      }
      return OptionalDouble.of(m.solver.objective().value());
    } finally {
      m.solver.delete();
    }
  }

  private record IntegerOutcome(Optional<ColocationPlan> plan, boolean optimal, boolean infeasible, double bound) {}

  /** The integer model on SCIP until {@code deadline}: its plan, if any, whether SCIP proved it optimal or the model infeasible, and its dual bound. */
  private static IntegerOutcome integerSolve(ColocationProblem problem, ColocationSpace space, List<ColocationColumn> extra,
      Optional<Map<String, Integer>> hint, long deadline) {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      return new IntegerOutcome(Optional.empty(), false, false, Double.NaN);
    }
    Model m = new Model(problem, space, extra, true);
    MPSolverParameters parameters = new MPSolverParameters();
    try {
      m.solver.setNumThreads(1);
      m.solver.setTimeLimit(left);
      // GPU counts are integral, so SCIP can close the gap exactly; a scale or weighted throughput is
      // continuous, so it stops at the tolerance at which the planner calls a plan optimal
      parameters.setDoubleParam(MPSolverParameters.DoubleParam.RELATIVE_MIP_GAP,
          problem.objective() == ColocationObjective.MIN_GPUS ? 0 : OPTIMALITY_TOLERANCE);
      hint.ifPresent(h -> {
        MPVariable[] vars = m.integers.toArray(MPVariable[]::new);
        double[] values = new double[vars.length];
        for (int v = 0; v < vars.length; v++) {
          values[v] = h.getOrDefault(vars[v].name(), 0);
        }
        m.solver.setHint(vars, values);
      });
      MPSolver.ResultStatus status = m.solver.solve(parameters);
      if (status != MPSolver.ResultStatus.OPTIMAL && status != MPSolver.ResultStatus.FEASIBLE) {
        return new IntegerOutcome(Optional.empty(), false, status == MPSolver.ResultStatus.INFEASIBLE, Double.NaN);
      }
      return new IntegerOutcome(Optional.of(m.decode()), status == MPSolver.ResultStatus.OPTIMAL, false, m.solver.objective().bestBound());
    } finally {
      parameters.delete();
      m.solver.delete();
    }
  }

  /**
   * The integer model's values for a verified plan (variable name → count), so SCIP starts from it;
   * its MPS configurations that are not among the enumerated pairs and triples join {@code extra} as columns.
   * Empty when some GPU of the plan is not in the searched space (it then only does not start SCIP).
   */
  private static Optional<Map<String, Integer>> counts(ColocationSpace space, ColocationPlan plan, List<ColocationColumn> extra) {
    if (plan.gpus().stream().flatMap(g -> g.segments().stream()).anyMatch(s -> s.stage() != null)) {
      return Optional.empty(); // a plan running pipeline stages: not mapped onto the staged choices
    }
    Map<String, Integer> out = new HashMap<>();
    for (GpuConfiguration gpu : plan.gpus()) {
      ColocationSpace.Pool pool = space.pools().stream().filter(p -> p.pool().type().name().equals(gpu.gpuType())).findFirst().orElseThrow();
      int k = pool.index();
      List<Segment> segs = gpu.segments();
      if (segs.size() == 1 && segs.get(0).placement() instanceof Whole) {
        int i = space.index(segs.get(0).service());
        if (pool.whole()[i] == null) {
          return Optional.empty();
        }
        out.merge(Model.whole(k, i), 1, Integer::sum);
      } else if (segs.stream().anyMatch(s -> s.placement() instanceof MpsShare)) {
        ColocationColumn col = space.column(gpu);
        String name = null;
        List<ColocationColumn> sets = pool.mpsColumns();
        for (int c = 0; c < sets.size() && name == null; c++) {
          name = sets.get(c).key().equals(col.key()) ? Model.mps(k, c) : null;
        }
        for (int c = 0; c < extra.size() && name == null; c++) {
          name = extra.get(c).key().equals(col.key()) ? Model.extra(c) : null;
        }
        if (name == null) {
          extra.add(col);
          name = Model.extra(extra.size() - 1);
        }
        out.merge(name, 1, Integer::sum);
      } else {
        int[] need = new int[pool.profiles().size()];
        for (Segment s : segs) {
          int p = pool.profileIndex(ColocationSpace.partName(s.placement()));
          int i = space.index(s.service());
          if (p < 0 || pool.best()[p][i] == null) {
            return Optional.empty();
          }
          need[p]++;
          out.merge(Model.instances(k, p, i), 1, Integer::sum);
        }
        int type = -1;
        for (int t = 0; t < pool.layouts().size() && type < 0; t++) {
          boolean fits = true;
          for (int p = 0; p < need.length; p++) {
            fits &= pool.layouts().get(t).counts()[p] >= need[p];
          }
          type = fits ? t : -1;
        }
        if (type < 0) {
          return Optional.empty();
        }
        out.merge(Model.layout(k, type), 1, Integer::sum);
      }
    }
    return Optional.of(out);
  }

  /** The largest Z with every service's throughput ≥ Z × rate, as the verifier computes throughput. */
  private static double servedScale(ColocationProblem problem, ColocationPlan plan) {
    Map<String, Double> t = ColocationVerifier.throughputs(problem, plan);
    return problem.services().stream().mapToDouble(s -> t.get(s.id()) / s.rate()).min().orElseThrow();
  }

  /** The aggregated model, as an LP on GLOP or an integer program on SCIP. */
  private static final class Model {
    final MPSolver solver;
    final ColocationProblem problem;
    final ColocationSpace space;
    final List<ColocationColumn> extra;
    /** The model's integer variables (counts), in creation order. */
    final List<MPVariable> integers = new ArrayList<>();
    final Map<String, MPVariable> byName = new HashMap<>();

    static String layout(int k, int t) {
      return "layout_" + k + "_" + t;
    }

    static String instances(int k, int p, int i) {
      return "instances_" + k + "_" + p + "_" + i;
    }

    static String whole(int k, int i) {
      return "whole_" + k + "_" + i;
    }

    static String mps(int k, int c) {
      return "mps_" + k + "_" + c;
    }

    static String extra(int c) {
      return "extra_" + c;
    }

    static String staged(int c) {
      return "staged_" + c;
    }

    static String stageInstances(int k, int p, int c, int stage) {
      return "stageInstances_" + k + "_" + p + "_" + c + "_" + stage;
    }

    static String stageWhole(int k, int c, int stage) {
      return "stageWhole_" + k + "_" + c + "_" + stage;
    }

    Model(ColocationProblem problem, ColocationSpace space, List<ColocationColumn> extra, boolean integer) {
      this.problem = problem;
      this.space = space;
      this.extra = extra;
      this.solver = integer ? ScipBackend.newSolver() : glop();
      double inf = MPSolver.infinity();
      List<ColocationService> services = problem.services();
      int n = services.size();
      ColocationObjective objective = problem.objective();
      MPObjective obj = solver.objective();
      MPConstraint[] cover = new MPConstraint[n];
      MPVariable z = objective == ColocationObjective.MAX_SCALE ? solver.makeNumVar(0, inf, "Z") : null;
      for (int i = 0; i < n; i++) {
        ColocationService s = services.get(i);
        switch (objective) {
          case MIN_GPUS -> cover[i] = solver.makeConstraint(s.rate(), inf, "cover_" + i);
          case MAX_SCALE -> {
            cover[i] = solver.makeConstraint(0, inf, "cover_" + i);
            cover[i].setCoefficient(z, -s.rate());
          }
          case MAX_WEIGHTED_THROUGHPUT -> {
            MPVariable served = solver.makeNumVar(0, s.rate(), "served_" + i);
            cover[i] = solver.makeConstraint(0, inf, "cover_" + i);
            cover[i].setCoefficient(served, -1);
            obj.setCoefficient(served, s.weight());
          }
        }
      }
      if (z != null) {
        obj.setCoefficient(z, 1);
      }
      boolean minimise = objective == ColocationObjective.MIN_GPUS;
      MPConstraint[][] stageCover = stagedChoices(cover, integer);
      for (ColocationSpace.Pool pool : space.pools()) {
        int k = pool.index();
        MPConstraint capacity = solver.makeConstraint(-inf, pool.pool().count(), "gpus_" + k);
        List<MPVariable> gpus = new ArrayList<>();
        MPConstraint[] room = new MPConstraint[pool.profiles().size()];
        for (int p = 0; p < room.length; p++) {
          room[p] = solver.makeConstraint(-inf, 0, "room_" + k + "_" + p);
          for (int i = 0; i < n; i++) {
            if (pool.best()[p][i] != null) {
              MPVariable w = count(instances(k, p, i), integer);
              room[p].setCoefficient(w, 1);
              cover[i].setCoefficient(w, pool.best()[p][i].throughput());
            }
          }
        }
        for (int t = 0; t < pool.layouts().size(); t++) {
          MPVariable x = count(layout(k, t), integer);
          for (int p = 0; p < room.length; p++) {
            room[p].setCoefficient(x, -pool.layouts().get(t).counts()[p]);
          }
          gpus.add(x);
        }
        for (int i = 0; i < n; i++) {
          if (pool.whole()[i] != null) {
            MPVariable x = count(whole(k, i), integer);
            cover[i].setCoefficient(x, pool.whole()[i].throughput());
            gpus.add(x);
          }
        }
        stagedParts(pool, room, stageCover, gpus, integer);
        List<ColocationColumn> sets = pool.mpsColumns();
        for (int c = 0; c < sets.size(); c++) {
          gpus.add(column(mps(k, c), sets.get(c), cover, integer));
        }
        for (int c = 0; c < extra.size(); c++) {
          if (extra.get(c).pool() == k) {
            gpus.add(column(extra(c), extra.get(c), cover, integer));
          }
        }
        for (MPVariable x : gpus) {
          capacity.setCoefficient(x, 1);
          if (minimise) {
            obj.setCoefficient(x, 1);
          }
        }
      }
      if (minimise) {
        obj.setMinimization();
      } else {
        obj.setMaximization();
      }
    }

    /**
     * Per staged choice c: a 0/1 variable (at most one choice per partition of a service), what it
     * serves (u_c, counted in the service's cover, at most its bound times the 0/1 variable) and per
     * stage a row "the stage's throughput ≥ u_c" (returned, [choice][stage]). The bound is the rate
     * where serving more than the rate cannot help (fewest GPUs, weighted throughput), else the
     * choice's capacity on the whole cluster, so no plan is cut off and the LP relaxation stays a
     * relaxation of the whole space.
     */
    private MPConstraint[][] stagedChoices(MPConstraint[] cover, boolean integer) {
      List<StagedChoices.Choice> choices = space.stagedChoices();
      MPConstraint[][] stageCover = new MPConstraint[choices.size()][];
      Map<String, MPConstraint> onePerPartition = new HashMap<>();
      for (int c = 0; c < choices.size(); c++) {
        StagedChoices.Choice choice = choices.get(c);
        ColocationService s = problem.services().get(choice.service());
        MPVariable chosen = integer ? solver.makeIntVar(0, 1, staged(c)) : solver.makeNumVar(0, 1, staged(c));
        integers.add(chosen);
        byName.put(staged(c), chosen);
        onePerPartition.computeIfAbsent(choice.service() + "_" + choice.partition(), key -> solver.makeConstraint(-MPSolver.infinity(), 1, "partition_" + key))
            .setCoefficient(chosen, 1);
        MPVariable served = solver.makeNumVar(0, MPSolver.infinity(), "stagedServed_" + c);
        cover[choice.service()].setCoefficient(served, 1);
        MPConstraint link = solver.makeConstraint(-MPSolver.infinity(), 0, "stagedLink_" + c);
        link.setCoefficient(served, 1);
        link.setCoefficient(chosen, -(problem.objective() == ColocationObjective.MAX_SCALE ? choice.capacity() : s.rate()));
        stageCover[c] = new MPConstraint[choice.stages()];
        for (int k = 0; k < choice.stages(); k++) {
          stageCover[c][k] = solver.makeConstraint(0, MPSolver.infinity(), "stageCover_" + c + "_" + k);
          stageCover[c][k].setCoefficient(served, -1);
        }
      }
      return stageCover;
    }

    /** The staged choices' instance counts on {@code pool}'s profiles (within {@code room}) and whole GPUs (added to {@code gpus}). */
    private void stagedParts(ColocationSpace.Pool pool, MPConstraint[] room, MPConstraint[][] stageCover, List<MPVariable> gpus, boolean integer) {
      int k = pool.index();
      List<StagedChoices.Choice> choices = space.stagedChoices();
      for (int c = 0; c < choices.size(); c++) {
        StagedChoices.Choice choice = choices.get(c);
        for (int st = 0; st < choice.stages(); st++) {
          for (int p = 0; p < room.length; p++) {
            SegmentOption o = choice.mig()[k][st][p];
            if (o != null) {
              MPVariable w = count(stageInstances(k, p, c, st), integer);
              room[p].setCoefficient(w, 1);
              stageCover[c][st].setCoefficient(w, o.throughput());
            }
          }
          SegmentOption o = choice.whole()[k][st];
          if (o != null) {
            MPVariable x = count(stageWhole(k, c, st), integer);
            stageCover[c][st].setCoefficient(x, o.throughput());
            gpus.add(x);
          }
        }
      }
    }

    private MPVariable count(String name, boolean integer) {
      MPVariable x = integer ? solver.makeIntVar(0, MPSolver.infinity(), name) : solver.makeNumVar(0, MPSolver.infinity(), name);
      integers.add(x);
      byName.put(name, x);
      return x;
    }

    private MPVariable column(String name, ColocationColumn col, MPConstraint[] cover, boolean integer) {
      MPVariable x = count(name, integer);
      for (int i = 0; i < cover.length; i++) {
        if (col.throughput()[i] != 0) {
          cover[i].setCoefficient(x, col.throughput()[i]);
        }
      }
      return x;
    }

    private long value(String name) {
      MPVariable x = byName.get(name);
      return x == null ? 0 : Math.round(x.solutionValue());
    }

    /**
     * The plan of the solved integer model: per layout type as many GPUs as counted, their
     * instances of each profile handed out to the services in the counted numbers (the rest stay
     * empty, and a GPU left with none is not used); whole GPUs; MPS configurations.
     */
    ColocationPlan decode() {
      List<GpuConfiguration> out = new ArrayList<>();
      for (ColocationSpace.Pool pool : space.pools()) {
        int k = pool.index();
        String type = pool.pool().type().name();
        List<List<Segment>> migGpus = new ArrayList<>();
        List<List<int[]>> slots = new ArrayList<>();
        pool.profiles().forEach(p -> slots.add(new ArrayList<>()));
        for (int t = 0; t < pool.layouts().size(); t++) {
          for (long j = value(layout(k, t)); j > 0; j--) {
            int g = migGpus.size();
            migGpus.add(new ArrayList<>());
            for (Placement s : pool.layouts().get(t).layout()) {
              int p = pool.profileIndex(ColocationSpace.partName(s));
              if (p >= 0) {
                slots.get(p).add(new int[] {g, ColocationSpace.start(s)});
              }
            }
          }
        }
        List<StagedChoices.Choice> choices = space.stagedChoices();
        for (int p = 0; p < pool.profiles().size(); p++) {
          int next = 0;
          for (int i = 0; i < problem.services().size(); i++) {
            for (long j = value(instances(k, p, i)); j > 0; j--) {
              int[] slot = slots.get(p).get(next++);
              migGpus.get(slot[0]).add(pool.best()[p][i].at(slot[1]));
            }
          }
          // a staged choice not chosen may still hold instances (they serve nothing): they stay empty, as its segments would break the chosen caps
          for (int c = 0; c < choices.size(); c++) {
            for (int st = 0; st < choices.get(c).stages() && value(staged(c)) == 1; st++) {
              for (long j = value(stageInstances(k, p, c, st)); j > 0; j--) {
                int[] slot = slots.get(p).get(next++);
                migGpus.get(slot[0]).add(choices.get(c).mig()[k][st][p].at(slot[1]));
              }
            }
          }
        }
        migGpus.stream().filter(g -> !g.isEmpty()).forEach(g -> out.add(new GpuConfiguration(type, g)));
        for (int i = 0; i < problem.services().size(); i++) {
          for (long j = value(whole(k, i)); j > 0; j--) {
            out.add(new GpuConfiguration(type, List.of(pool.whole()[i].at(0))));
          }
        }
        for (int c = 0; c < choices.size(); c++) {
          for (int st = 0; st < choices.get(c).stages() && value(staged(c)) == 1; st++) {
            for (long j = value(stageWhole(k, c, st)); j > 0; j--) {
              out.add(new GpuConfiguration(type, List.of(choices.get(c).whole()[k][st].at(0))));
            }
          }
        }
        List<ColocationColumn> sets = pool.mpsColumns();
        for (int c = 0; c < sets.size(); c++) {
          for (long j = value(mps(k, c)); j > 0; j--) {
            out.add(sets.get(c).configuration(type));
          }
        }
        for (int c = 0; c < extra.size(); c++) {
          for (long j = extra.get(c).pool() == k ? value(extra(c)) : 0; j > 0; j--) {
            out.add(extra.get(c).configuration(type));
          }
        }
      }
      ColocationPlan unscaled = new ColocationPlan(out, 0);
      double scale = switch (problem.objective()) {
        case MIN_GPUS -> 1;
        case MAX_SCALE -> servedScale(problem, unscaled);
        case MAX_WEIGHTED_THROUGHPUT -> Math.min(1, servedScale(problem, unscaled));
      };
      return new ColocationPlan(out, scale);
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
