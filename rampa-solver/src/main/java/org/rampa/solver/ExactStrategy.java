package org.rampa.solver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.support.NecessaryConditions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.support.TimeBudget;
import org.rampa.strategy.support.WarmStart;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.domain.share.Whole;
import org.rampa.verify.InterferenceGuard;
import org.rampa.strategy.StrategyOptions;
import org.rampa.solver.flow.IntervalFlowFormulation;
import org.rampa.solver.flow.SolutionDecoder;
import org.rampa.solver.flow.CostBound;
import org.rampa.solver.flow.OutOfTime;
import org.rampa.solver.backend.LinearProgram;
import org.rampa.solver.backend.MilpBackend;
import org.rampa.solver.backend.ScipBackend;
import org.rampa.solver.backend.CpSatBackend;
import org.rampa.solver.backend.SolveWatchdog;
import org.rampa.solver.backend.OrToolsNatives;

/**
 * The exact planner: the plan of least importance-weighted cost that meets the SLO on exclusively
 * used, completely free GPUs, or a proof that none exists. It solves the interval/flow MILP of
 * {@link IntervalFlowFormulation} (read its documentation for how co-location is modelled, nodes
 * whose intra link is slower than the network included) with SCIP or CP-SAT through OR-Tools.
 *
 * <p>Order of work: cheap pre-checks; the small optimistic relaxation (a plan that meets the SLO on
 * the links it really gets is optimal); the same stages packed onto shared nodes; a network-only
 * plan as incumbent; the full co-location model from that incumbent. Most requests end after the
 * relaxation (see rampa-solver/BENCHMARKS.md).
 *
 * <p>Answers: OPTIMAL (proven within a relative gap of 1e-6); FEASIBLE with the proven bound and
 * gap (time limit hit, a looser {@code relativeGap} asked for, or the co-location model not solved
 * in time); INFEASIBLE with a reason from cheap pre-checks (memory, throughput, latency floor, GPU
 * count, stage count) or from the solver's proof; NO_SOLUTION_IN_TIME when the time limit ends the
 * search before any plan. Between phases a plan is judged by {@link SloPredicate} on the links it
 * really gets; the one verifying step ({@code Strategies.verified}) checks what is returned.
 *
 * <p><b>Shared GPUs</b> (opt-in, {@code sharing=on}, {@link org.rampa.strategy.SharingOptions}): stages
 * may also take the shares of {@link SharedSlotMenu} (MPS levels of free GPUs, MPS room and free MIG
 * instances of partly used ones), each stage slowed by the largest α of its GPUs, every incumbent
 * on a touched GPU kept within its SLO (see {@link IntervalFlowFormulation}, "Sharing"). The answer
 * is then optimal over the menu, which is what is searched; the necessary conditions on whole GPUs
 * are skipped, and a plan is accepted between phases only when the admission guard admits it. The
 * relaxation, the network-only and the co-location model are handed to the solver without the
 * arcs that no plan of at most an incumbent's cost can use, and with that incumbent as MIP start
 * ({@link CostBound}): the optimum is unchanged.
 *
 * <p>Settings: {@link ExactOptions} (backend, solver parameters, model choice, LP export, sharing),
 * read from {@link StrategyOptions#extra()}; an unknown key is an error. The time limit covers the whole
 * call, measured on the problem's ticker: checks, model building (before each model and inside the
 * backend, whose own limit starts after the model is loaded), warm start and solving. OR-Tools'
 * native libraries load when the strategy is created, not in a call. The solver runs on one thread.
 *
 * <p>Instances are immutable and thread-safe; each call builds and frees its own solver.
 */
public final class ExactStrategy implements PlacementStrategy {

  /** Strategy name for SCIP. */
  public static final String NAME = "exact";
  /** Strategy name for CP-SAT. */
  public static final String CPSAT_NAME = "exact-cpsat";

  private static final double OPTIMALITY_GAP = 1e-6;

  private final String name;
  private final String backend;
  private final WarmStart warmStart;

  private ExactStrategy(String name, String backend, WarmStart warmStart) {
    // once per JVM (about 1.6 s): here, so that no call's time limit pays for it
    OrToolsNatives.ensureLoaded();
    this.name = name;
    this.backend = backend;
    this.warmStart = warmStart;
  }

  /** The MILP on SCIP. */
  public static ExactStrategy scip() {
    return new ExactStrategy(NAME, ScipBackend.NAME, null);
  }

  /** The same MILP on CP-SAT. */
  public static ExactStrategy cpSat() {
    return new ExactStrategy(CPSAT_NAME, CpSatBackend.NAME, null);
  }

  /**
   * This strategy, starting each solve from {@code heuristic}'s plan for the same problem (a MIP
   * start): a good first incumbent lets the solver prune early. With sharing on, the heuristic
   * plans with the same sharing options (its plan may hold shares). The heuristic's time counts
   * against the time limit; a heuristic plan the model cannot express is ignored.
   */
  public ExactStrategy withWarmStart(PlacementStrategy heuristic) {
    return new ExactStrategy(name, backend, WarmStart.from(Objects.requireNonNull(heuristic, "heuristic")));
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * Runs the cascade of {@link Cascade}'s phases: each either decides the call (an outcome) or
   * hands on to the next; the last always decides.
   */
  @Override
  public PlacementResult place(PlacementProblem problem) {
    Cascade cascade = new Cascade(problem);
    for (Supplier<Optional<PlacementResult>> phase : List.<Supplier<Optional<PlacementResult>>>of(
        cascade::checks, cascade::relaxation, cascade::networkOnly)) {
      Optional<PlacementResult> outcome = phase.get();
      if (outcome.isPresent()) {
        return outcome.get();
      }
    }
    return cascade.colocation();
  }

  /**
   * One call's phases and what they pass on: cheap checks and the relaxed model; the relaxation
   * (optimal when its plan gets the links it was charged, or when packing its stages onto shared
   * nodes does); a network-only plan as incumbent; the exact co-location model.
   */
  private final class Cascade {
    final PlacementProblem problem;
    final TimeBudget budget;
    final AttemptGate gate;
    final StrategyOptions options;
    final ExactOptions settings;
    final MilpBackend solver;
    final ServiceRequest request;
    final ClusterState state;
    final PerformanceModel performance;
    final Map<String, Double> stats = new LinkedHashMap<>();
    GpuCosts costs;
    IntervalFlowFormulation relaxed;
    Optional<Plan> heuristicPlan = Optional.empty();
    double bound = Double.NaN;
    /** The network-only plan, when it met the SLO: an incumbent for the co-location model. */
    Plan incumbent;
    /** The shared-GPU menu when sharing is on, else null (whole free GPUs only, as always). */
    SharedSlotMenu menu;

    Cascade(PlacementProblem problem) {
      this.problem = problem;
      this.budget = TimeBudget.start(problem);
      this.gate = new AttemptGate(budget);
      this.options = problem.options();
      this.settings = ExactOptions.of(options, name, backend);
      this.solver = backend(settings.backend());
      this.request = problem.request();
      this.state = problem.state();
      this.performance = problem.performance();
    }

    /** One phase's solve, unless the gate says too little time is left for it. */
    private Attempt attempt(Supplier<IntervalFlowFormulation> build, Function<IntervalFlowFormulation, Optional<double[]>> hint,
        String label) {
      if (!gate.allowsAnother()) {
        Attempt skipped = new Attempt();
        stats.put(label + "SkippedMillisLeft", budget.remaining().toNanos() / 1e6);
        skipped.terminal = notStarted(options, label, budget, gate.lastAttempt(), stats);
        return skipped;
      }
      return gate.time(() -> ExactStrategy.this.attempt(build, hint, problem, costs, solver, settings.solverParameters(),
          budget, stats, label));
    }

    private IntervalFlowFormulation formulation(IntervalFlowFormulation.Charging charging) {
      return new IntervalFlowFormulation(request, state, costs, performance, charging, budget::expired, menu,
          problem.interference());
    }

    /** The memory of the largest completely free GPU, 0 when none is free. */
    private long largestWholeFreeBytes() {
      return state.capacity().gpus().stream().mapToLong(g -> state.cluster().type(g.type()).memoryBytes()).max().orElse(0);
    }

    /** Sharing: the co-location model proves only while no incumbent's rows were summed (see SharedRows). */
    private boolean provenUnderSharing(IntervalFlowFormulation f) {
      return menu == null || !f.inexact();
    }

    /** Necessary conditions, the relaxed model and its structural check, LP export, warm start. */
    Optional<PlacementResult> checks() {
      Optional<String> precheck = NecessaryConditions.firstFailure(problem, settings.sharing());
      if (precheck.isPresent()) {
        return Optional.of(PlacementResult.infeasible(name, precheck.get(), budget.elapsed()));
      }
      costs = problem.importance().evaluate(state);
      if (settings.sharing().enabled()) {
        menu = SharedSlotMenu.of(problem, settings.sharing(), costs);
        stats.put("sharedSlots", (double) menu.slots().size());
      }
      try {
        relaxed = formulation(IntervalFlowFormulation.Charging.OPTIMISTIC);
      } catch (OutOfTime e) {
        return Optional.of(timeUp(options, "relaxed", budget, stats));
      }
      stats.put("arcs", (double) relaxed.arcCount());
      stats.put("variables", (double) relaxed.model.variableCount());
      stats.put("constraints", (double) relaxed.model.rows().size());
      Optional<String> structural = structuralReason(relaxed, request, menu == null ? null : new Shares(menu, largestWholeFreeBytes()));
      if (structural.isPresent()) {
        return Optional.of(PlacementResult.infeasible(name, structural.get(), budget.elapsed()));
      }
      if (settings.exportLp().isPresent()) {
        writeLp(new IntervalFlowFormulation(request, state, costs, performance, IntervalFlowFormulation.Charging.NETWORK,
            () -> false, menu, problem.interference()).model, settings.exportLp().get());
      }
      if (warmStart != null) {
        // with sharing, the heuristic searches the same shared slots, so that its plan can be a shared start
        heuristicPlan = menu != null ? warmStart.plan(problem, budget.remaining(), settings.sharing())
            : warmStart.plan(problem, budget.remaining());
      }
      return Optional.empty();
    }

    /** The relaxation: decides when its plan, or its stages packed onto shared nodes, meets the SLO. */
    Optional<PlacementResult> relaxation() {
      if (!settings.relaxFirst()) {
        return Optional.empty();
      }
      Optional<double[]> hint = heuristicPlan.flatMap(relaxed::hint);
      if (warmStart != null) {
        stats.put("warmStartUsed", hint.isPresent() ? 1.0 : 0.0);
      }
      Attempt first = attempt(() -> relaxed, f -> hint, "relaxed");
      if (first.terminal != null) {
        return Optional.of(first.terminal);
      }
      if (first.holds) {
        return Optional.of(result(first.plan, first.solution.outcome() == MilpBackend.Outcome.OPTIMAL && !relaxed.inexact(),
            first.solution.bestBound(), "", budget, stats));
      }
      bound = first.solution.bestBound();
      if (menu != null) {
        return Optional.empty(); // packing re-maps whole GPUs only
      }
      // Same stages, packed onto shared nodes: if that gets the intra-node links the relaxation
      // charged, at no extra cost, it is as good as the relaxation's optimum.
      List<StageAssignment> packedStages = new SolutionDecoder(relaxed).decodePacked(first.solution.values());
      Plan packed = performance.plan(request, packedStages, state.cluster(), costOf(packedStages, costs), name);
      // memory holds by construction (the same stages on GPUs of the same types), so the SLO decides
      boolean packedHolds = meetsSlo(problem, packedStages);
      stats.put("packedRetry", packedHolds ? 1.0 : 0.0);
      if (packedHolds && packed.cost() <= first.plan.cost() + 1e-9 * Math.max(1, first.plan.cost())) {
        return Optional.of(result(packed, first.solution.outcome() == MilpBackend.Outcome.OPTIMAL, bound, "", budget, stats));
      }
      return Optional.empty();
    }

    /**
     * The cheapest plan relies on intra-node transfers it does not get. First a plan that ignores
     * co-location (every cut on the network): small to solve, an incumbent for the exact model.
     */
    Optional<PlacementResult> networkOnly() {
      if (!settings.relaxFirst()) {
        return Optional.empty();
      }
      Attempt fallback = attempt(() -> formulation(IntervalFlowFormulation.Charging.NETWORK_ONLY),
          f -> heuristicPlan.flatMap(f::hint), "networkOnly");
      if (fallback.terminal != null && fallback.terminal.status() == SolveStatus.NO_SOLUTION_IN_TIME) {
        return Optional.of(fallback.terminal);
      }
      if (fallback.terminal == null && fallback.holds) {
        incumbent = fallback.plan;
        if (fallback.solution.outcome() == MilpBackend.Outcome.OPTIMAL && !fallback.formulation.inexact()
            && relativeGap(incumbent.cost(), bound) <= OPTIMALITY_GAP) {
          return Optional.of(result(incumbent, true, bound, "", budget, stats));
        }
      }
      return Optional.empty();
    }

    /** Co-location modelled exactly: the last phase, it always decides. */
    PlacementResult colocation() {
      Attempt second = attempt(() -> {
        IntervalFlowFormulation exact = formulation(IntervalFlowFormulation.Charging.NETWORK);
        stats.put("exactArcs", (double) exact.arcCount());
        stats.put("exactSlots", (double) exact.slotCount());
        return exact;
      }, exact -> {
        Optional<double[]> exactHint = incumbent != null ? exact.hint(incumbent) : heuristicPlan.flatMap(exact::hint);
        if (!settings.relaxFirst() && warmStart != null) {
          stats.put("warmStartUsed", exactHint.isPresent() ? 1.0 : 0.0);
        }
        return exactHint;
      }, "exact");
      if (second.terminal != null) {
        if (incumbent != null && second.terminal.status() == SolveStatus.NO_SOLUTION_IN_TIME) {
          return result(incumbent, false, bound, "the co-location model was not solved within the time limit; "
              + "this plan ignores co-location (every cut on the network) and is within the reported gap of the optimum",
              budget, stats);
        }
        return second.terminal;
      }
      if (!second.holds && menu != null) {
        return incumbent != null ? result(incumbent, false, bound, "", budget, stats)
            : PlacementResult.builder().status(SolveStatus.NO_PLAN_FOUND).strategy(name).reason(
                "with sharing, the co-location model's plan misses an SLO when judged with every co-runner (a bug)")
                .solveTime(budget.elapsed()).statistics(stats).build();
      }
      if (!second.holds) {
        throw new IllegalStateException("the exact co-location model produced a plan that misses the SLO on the links "
            + "it really gets, a bug: " + second.plan);
      }
      bound = Double.isNaN(bound) ? second.solution.bestBound() : Math.max(bound, second.solution.bestBound());
      if (incumbent != null && second.solution.outcome() != MilpBackend.Outcome.OPTIMAL
          && incumbent.cost() < second.plan.cost()) {
        return result(incumbent, false, bound, "", budget, stats);
      }
      return result(second.plan, second.solution.outcome() == MilpBackend.Outcome.OPTIMAL
          && provenUnderSharing(second.formulation), bound, "", budget, stats);
    }
  }

  /** One solve: a terminal result (infeasible, out of time), or a plan and whether it meets the SLO. */
  private static final class Attempt {
    IntervalFlowFormulation formulation;
    PlacementResult terminal;
    MilpBackend.Solution solution;
    Plan plan;
    boolean holds;
  }

  /**
   * Builds a model (unless the time is up already) and solves it within what is left of the budget;
   * the backend's limit starts after it has loaded the model, so building counts against it too.
   */
  private Attempt attempt(Supplier<IntervalFlowFormulation> build, Function<IntervalFlowFormulation, Optional<double[]>> hint,
      PlacementProblem problem, GpuCosts costs, MilpBackend solver, String solverParameters, TimeBudget budget,
      Map<String, Double> stats, String label) {
    Attempt a = new Attempt();
    StrategyOptions options = problem.options();
    CostBound.Reduced reduced = null;
    try {
      if (!budget.expired()) {
        a.formulation = build.get();
        reduced = CostBound.of(a.formulation, hint.apply(a.formulation));
        if (reduced.model != a.formulation.model) {
          stats.put(label + "ArcsSolved", (double) reduced.arcsKept);
        }
        stats.put(label + "SolveStartMillis", budget.elapsed().toNanos() / 1e6); // since the call began
      }
    } catch (OutOfTime e) {
      a.formulation = null;
    }
    if (a.formulation == null || budget.expired()) {
      a.terminal = timeUp(options, label, budget, stats);
      return a;
    }
    IntervalFlowFormulation f = a.formulation;
    Duration startedAt = budget.elapsed();
    Duration given = budget.remaining();
    MilpBackend.Solution solved = solver.solve(reduced.model, new MilpBackend.Settings(budget, options.relativeGap(), options.seed(),
        reduced.hint, solverParameters));
    a.solution = new MilpBackend.Solution(solved.outcome(), reduced.expand(solved.values()), solved.objective(), solved.bestBound(),
        solved.statistics());
    a.solution.statistics().forEach((k, v) -> stats.merge(k, v, Double::sum));
    switch (a.solution.outcome()) {
      case INFEASIBLE -> a.terminal = f.inexact()
          ? PlacementResult.builder().status(SolveStatus.NO_PLAN_FOUND).strategy(name).reason("the " + label + " model found no plan; "
              + "some incumbent's latency rows were summed rather than enumerated (too many choices), so this is no proof")
              .solveTime(budget.elapsed()).statistics(stats).build()
          : PlacementResult.infeasible(name, solverReason(problem.request(), problem.state()), budget.elapsed());
      case UNKNOWN -> {
        Duration at = budget.elapsed();
        a.terminal = noSolution(String.format(Locale.ROOT, "no plan found within the time limit of %s: the solver stopped the %s "
            + "model (%d stage candidates) without a plan %.3f s into the call, having been given the %.3f s left when it started at %.3f s; "
            + "feasibility is unknown. Maybe raise the time limit", options.timeLimit(), label, f.arcCount(), seconds(at),
            seconds(given), seconds(startedAt)), at, stats);
      }
      default -> {
        List<StageAssignment> stages = new SolutionDecoder(f).decode(a.solution.values());
        a.plan = problem.performance().plan(problem.request(), stages, problem.state().cluster(), costOf(stages, costs, f), name);
        a.holds = meetsSlo(problem, stages) && (!f.sharing()
            || new InterferenceGuard(problem.performance(), problem.interference()).refusals(problem.state(), problem.request(), a.plan)
                .isEmpty());
      }
    }
    return a;
  }

  /** The limit ran out while the phase's model was being built, or before it could be; the reason's time is the result's solve time. */
  private PlacementResult timeUp(StrategyOptions options, String label, TimeBudget budget, Map<String, Double> stats) {
    Duration at = budget.elapsed();
    return noSolution(String.format(Locale.ROOT, "the time limit of %s ran out before the %s model was solved (%.3f s into the call, while "
        + "building it); feasibility is unknown. Maybe raise the time limit", options.timeLimit(), label, seconds(at)), at, stats);
  }

  /**
   * The gate did not start the phase: what was left of the limit was less than the previous phase
   * took. The reason's two times add up to the limit, and the first is the result's solve time.
   */
  private PlacementResult notStarted(StrategyOptions options, String label, TimeBudget budget, Duration previous, Map<String, Double> stats) {
    Duration at = budget.elapsed();
    Duration left = options.timeLimit().minus(at);
    return noSolution(String.format(Locale.ROOT, "the time limit of %s would run out during the %s model, so it was not started: %.3f s into "
        + "the call, %.3f s were left, less than the previous phase took (%.3f s); feasibility is unknown. Maybe raise the time limit",
        options.timeLimit(), label, seconds(at), seconds(left.isNegative() ? Duration.ZERO : left), seconds(previous)), at, stats);
  }

  private static double seconds(Duration d) {
    return d.toNanos() * 1e-9;
  }

  private PlacementResult result(Plan plan, boolean proven, double bound, String note, TimeBudget budget,
      Map<String, Double> stats) {
    double cost = plan.cost();
    double gap = Double.isNaN(bound) ? Double.NaN : relativeGap(cost, bound);
    boolean optimal = proven && !Double.isNaN(gap) && gap <= OPTIMALITY_GAP;
    var result = PlacementResult.builder()
        .status(optimal ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE)
        .strategy(name)
        .plan(plan)
        .reason(note)
        .solveTime(budget.elapsed())
        .statistics(stats);
    if (!Double.isNaN(bound)) {
      result.bound(Math.min(bound, cost)).gap(optimal ? 0 : gap);
    }
    return result.build();
  }

  private static double relativeGap(double cost, double bound) {
    double diff = Math.max(0, cost - bound);
    return diff <= 1e-9 * Math.max(1, Math.abs(cost)) ? 0 : diff / Math.max(Math.abs(cost), 1e-12);
  }

  /**
   * Whether decoded stages meet the SLO on the links they really get, by the one SLO predicate. The
   * rest of what the verifier checks holds by construction: every arc fits memory on its GPU type,
   * and the decoder takes free GPUs, each once, of the arc's type.
   */
  private static boolean meetsSlo(PlacementProblem problem, List<StageAssignment> stages) {
    return SloPredicate.meets(problem.performance().estimate(problem.request(), stages, problem.state().cluster()),
        problem.request().slo());
  }

  /** The cost of the whole GPUs the formulation places stages on. */
  private static double costOf(List<StageAssignment> stages, GpuCosts costs) {
    return costOf(stages, costs, null);
  }

  /** The cost of what the stages hold: whole GPUs at their cost, shares as {@code f}'s menu prices them. */
  private static double costOf(List<StageAssignment> stages, GpuCosts costs, IntervalFlowFormulation f) {
    double cost = 0;
    for (StageAssignment s : stages) {
      for (String gpu : s.gpus()) {
        cost += s.placement() instanceof Whole ? costs.of(gpu) : f.sharedCost(gpu, s.placement());
      }
    }
    return cost;
  }

  /** With sharing: the shares offered, and the largest whole free GPU's memory, so that a reason speaks of what exists. */
  private record Shares(SharedSlotMenu menu, long largestWholeFreeBytes) {
    /** The most memory one stage replica can have: a whole free GPU or the roomiest share. */
    long largestBytes() {
      return Math.max(largestWholeFreeBytes, menu.slots().stream().mapToLong(SharedSlotMenu.Slot::memoryCapBytes).max().orElse(0));
    }

    String where() {
      List<String> shapes = menu.slots().stream().map(SharedSlotMenu.Slot::shape).distinct().limit(6).toList();
      return String.format("on the free GPUs and the %d shares offered on partly used and free GPUs (%s%s)", menu.slots().size(),
          String.join(", ", shapes), menu.slots().stream().map(SharedSlotMenu.Slot::shape).distinct().count() > shapes.size() ? ", ..." : "");
    }
  }

  /**
   * Memory and period alone already rule out every plan (no solver needed to say so). With sharing
   * ({@code shares} not null) the reason names the shares, and says when memory is not the limit.
   */
  private static Optional<String> structuralReason(IntervalFlowFormulation f, ServiceRequest request, Shares shares) {
    int[] furthest = new int[1];
    int fewest = f.fewestStages(furthest);
    int layers = request.model().size();
    double period = request.slo().batchSize() / request.slo().requiredThroughput();
    String where = shares == null ? "on the free GPUs" : shares.where();
    if (fewest < 0) {
      return Optional.of(String.format("no sequence of stages covers the model's %d layers: stages that fit in memory "
          + "and keep the period at %.4g s (throughput %.4g req/s) %s, replicas included, reach layer %d "
          + "at most, and no such stage can start there", layers, period, request.slo().requiredThroughput(), where, furthest[0]));
    }
    if (fewest > request.maxStages()) {
      if (shares != null) {
        long whole = f.performance().stageMemoryBytes(request.model(), 0, layers, request.slo().batchSize());
        if (whole <= shares.largestBytes()) {
          return Optional.of(String.format("no free GPU or share is fast enough: the model's %.2f GB fit in the %.2f GB of the roomiest "
              + "free GPU or share, so memory is not the limit, but stages that keep the period at %.4g s (throughput %.4g req/s) "
              + "within the latency bound of %.4g s %s cover the model in no fewer than %d, and maxStages is %d", whole / 1e9,
              shares.largestBytes() / 1e9, period, request.slo().requiredThroughput(), request.slo().latencyBoundSeconds(), where, fewest,
              request.maxStages()));
        }
      }
      return Optional.of(String.format("the model needs at least %d stages to fit memory and keep the period at %.4g s "
          + "(throughput %.4g req/s) %s, but maxStages is %d", fewest, period,
          request.slo().requiredThroughput(), where, request.maxStages()));
    }
    return Optional.empty();
  }

  private static String solverReason(ServiceRequest request, ClusterState state) {
    return String.format("no combination of at most %d stages on the %d free GPUs meets both throughput >= %.4g req/s "
        + "and latency <= %.4g s (each is attainable on its own by the cheap checks; together, with GPU counts and "
        + "transfers, they are not)", request.maxStages(), state.capacity().count(), request.slo().requiredThroughput(),
        request.slo().latencyBoundSeconds());
  }

  private PlacementResult noSolution(String reason, Duration solveTime, Map<String, Double> stats) {
    return PlacementResult.builder().status(SolveStatus.NO_SOLUTION_IN_TIME).strategy(name).reason(reason)
        .solveTime(solveTime).statistics(stats).build();
  }

  private static MilpBackend backend(String name) {
    return switch (name) {
      case ScipBackend.NAME -> new ScipBackend(SolveWatchdog.shared());
      case CpSatBackend.NAME -> new CpSatBackend(SolveWatchdog.shared());
      default -> throw new IllegalStateException("ExactOptions admitted backend " + name);
    };
  }

  private static void writeLp(LinearProgram model, String path) {
    try {
      Files.writeString(Path.of(path), ScipBackend.exportLp(model), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("options.extra.exportLp = " + path + ": cannot write the model there", e);
    }
  }

}
