package org.rampa.heuristics.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import org.rampa.domain.Plan;
import org.rampa.domain.share.Whole;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.support.TimeBudget;
import org.rampa.strategy.support.WarmStart;

/**
 * One run of the label-setting search ("dp", see {@link LabelSettingStrategy}) over the pooled slot
 * menu ({@link SlotPools}), whole GPUs and shares alike: an arc {@code i → j} is "layers
 * {@code [i, j)} form one stage on r units of one shape", a label at a boundary what the path used.
 */
final class LabelSearch {

  /** Greedy on the same menu gives the search its first incumbent. */
  private static final WarmStart WARM_START = WarmStart.from(new GreedyStrategy());

  private final PlacementProblem problem;
  private final LabelSettingOptions options;
  private final TimeBudget budget;
  private final PlacementContext c;
  private final SlotPools pools;
  private final TransferMode mode;
  private final int layers;
  private final int batch;
  private final int maxStages;
  private final int maxLabels;
  private final int maxSpreadOptions;
  private final int maxReplicas;
  /** The largest busy time per batch the SLO predicate admits: for replica lower bounds only. */
  private final double maxBusy;
  private final double latencyBudget;
  /** Per shape: the time alone of layers [0, l) on a whole GPU of the shape's type; null for a share (its stage times are not sums). */
  private final double[][] prefixTime;
  /** Per boundary: the least time alone of the layers after it, over every shape. */
  private final double[] suffixMinTime;
  private final long maxCap;
  private final RelaxationBound bound;
  private final DominanceStore store;
  /** The bound's refusals for the label being expanded and the current stage end. */
  private final RefusedCosts refused = new RefusedCosts();
  /** Per group of look-alike nodes: how many the label being expanded touched (zero between expansions). */
  private final int[] touchedOfGroup;
  /** Per shape: GPUs of it the spread candidates of a path that touched nothing hold (at most maxReplicas nodes per group). */
  private final int[] untouchedFree;
  /** Per shape: its runs, cheapest node first. */
  private final SlotPools.Run[][] runsByCheapest;
  /** Per shape and group: the group's run of the shape, or null. */
  private final SlotPools.Run[][] runOfGroup;
  private final PriorityQueue<Label> queue = new PriorityQueue<>(
      Comparator.comparingDouble((Label l) -> l.priority).thenComparingInt(l -> -l.boundary));
  private double upperBound = Double.POSITIVE_INFINITY;
  private long created;
  private long expanded;
  private long spreadCut;
  private boolean truncated;
  /** Complete paths the final check rejected; the cost of the first is a lower bound on the rest. */
  private long finalCheckRejected;
  private double rejectedBound = Double.NaN;
  /** The least priority of a label left unexpanded when the search was truncated: no plan left to find costs less. */
  private double openBound = Double.NaN;

  LabelSearch(PlacementProblem problem, LabelSettingOptions options) {
    this(problem, options, true);
  }

  /**
   * With {@code pruned} false, the search without the Lagrangian latency bound and without
   * dominance across look-alike nodes (tests check that both find the same least cost).
   */
  LabelSearch(PlacementProblem problem, LabelSettingOptions options, boolean pruned) {
    this.problem = problem;
    this.budget = TimeBudget.start(problem);
    this.options = options;
    this.c = new PlacementContext(problem);
    this.pools = SlotPools.of(c, c.units(options.sharing()));
    this.mode = c.performance.transferMode();
    this.layers = c.model.size();
    this.batch = c.batch;
    this.maxStages = c.request.maxStages();
    this.maxLabels = options.maxLabels();
    this.maxSpreadOptions = options.maxSpreadOptions();
    this.maxReplicas = options.maxReplicas();
    this.maxBusy = SloPredicate.maxLoadSeconds(c.request.slo());
    this.latencyBudget = SloPredicate.latencyBudgetSeconds(c.request.slo());
    int shapes = pools.shapes.size();
    prefixTime = new double[shapes][];
    double[] fastest = new double[layers];
    Arrays.fill(fastest, Double.POSITIVE_INFINITY);
    long cap = 0;
    for (int s = 0; s < shapes; s++) {
      double[] times = c.layerSeconds(pools.shapeUnits.get(s));
      if (pools.isWhole(s)) {
        prefixTime[s] = new double[layers + 1];
        for (int l = 0; l < layers; l++) {
          prefixTime[s][l + 1] = prefixTime[s][l] + times[l];
        }
      }
      for (int l = 0; l < layers; l++) {
        fastest[l] = Math.min(fastest[l], times[l]);
      }
      cap = Math.max(cap, pools.maxCapOfShape[s]);
    }
    maxCap = cap;
    suffixMinTime = new double[layers + 1];
    for (int l = layers - 1; l >= 0; l--) {
      suffixMinTime[l] = suffixMinTime[l + 1] + fastest[l];
    }
    bound = new RelaxationBound(c, pools, prefixTime, maxBusy, maxStages, latencyBudget, pruned);
    store = new DominanceStore(pools, () -> upperBound, pruned);
    touchedOfGroup = new int[pools.nodeGroups.size()];
    untouchedFree = new int[shapes];
    runsByCheapest = new SlotPools.Run[shapes][];
    runOfGroup = new SlotPools.Run[shapes][pools.nodeGroups.size()];
    for (int s = 0; s < shapes; s++) {
      List<SlotPools.Run> runs = pools.shapeGroupRuns.get(s);
      for (SlotPools.Run run : runs) {
        untouchedFree[s] += Math.max(0, listed(run, 0)) * run.nodeFree();
        runOfGroup[s][run.group()] = run;
      }
      runsByCheapest[s] = runs.stream().sorted(Comparator.comparingDouble(SlotPools.Run::nodeCheapest)).toArray(SlotPools.Run[]::new);
    }
  }

  /** How many of a run's nodes the spread candidates list when the path touched {@code touched} of them: a stage uses at most maxReplicas. */
  private int listed(SlotPools.Run run, int touched) {
    return Math.min(pools.nodeGroups.get(run.group()).length - touched, maxReplicas);
  }

  /** The search's bound (tests check its lazily built parts against the whole). */
  RelaxationBound bound() {
    return bound;
  }

  /** The bound on the cost still to come after {@code stagesUsed} stages to {@code boundary} with at least {@code latency} spent. */
  private double costToGo(int boundary, int stagesUsed, double latency) {
    return bound.costToGo(boundary, stagesUsed, latency);
  }

  /**
   * {@code spent} plus the bound on the cost still to come when that can beat the incumbent;
   * otherwise a value that cannot, found with as little of the bound as needed (see {@link RelaxationBound#priority}).
   */
  private double priority(double spent, int boundary, int stagesUsed, double latency) {
    return bound.priority(spent, boundary, stagesUsed, latency, this::beatsIncumbent);
  }

  /**
   * True when a path whose cost is at least {@code lowerBound} may still be cheaper than the
   * incumbent. Ties (up to a relative 1e-12, the rounding of summing costs in another order)
   * cannot: the incumbent is as good.
   */
  private boolean beatsIncumbent(double lowerBound) {
    return upperBound == Double.POSITIVE_INFINITY || lowerBound < upperBound - 1e-12 * Math.abs(upperBound);
  }

  PlacementResult run() {
    // the one place that decides which necessary conditions apply (none with sharing on) decides here too
    String obvious = Infeasibility.obviousReason(c, options.sharing());
    if (!obvious.isEmpty()) {
      return Results.infeasible(LabelSettingStrategy.NAME, obvious, budget, stats());
    }
    if (pools.pools.isEmpty()) {
      return Results.infeasible(LabelSettingStrategy.NAME, "no GPU and no share of one is free: the menu is empty", budget, stats());
    }
    Optional<Plan> incumbent = Optional.empty();
    if (options.warmStart()) {
      incumbent = WARM_START.plan(problem, budget.remaining(), options.sharing());
      incumbent.ifPresent(p -> upperBound = p.cost());
    }
    queue.add(Label.root(priority(0, 0, 0, 0)));
    Plan found = null;
    while (!queue.isEmpty()) {
      Label label = queue.poll();
      if (label.dead) {
        continue;
      }
      if (label.boundary == layers) {
        Optional<Plan> plan = finalCheck(label);
        if (plan.isPresent()) {
          found = plan.get();
          break;
        }
        // the labels' sums and the performance model (or, on shares, the verifier's interference rule) disagree:
        // the model decides, and the search goes on to the next cheapest path
        if (finalCheckRejected++ == 0) {
          rejectedBound = label.cost;
        }
        continue;
      }
      if (created > maxLabels || budget.expired()) {
        truncated = true;
        // best-first: the least bound of every path not yet complete (the root's may be the plain one only)
        openBound = label.parent == null ? costToGo(0, 0, 0) : label.priority;
        break;
      }
      expanded++;
      expand(label);
    }
    // a rejected path may have dominated a label that would have passed: no proof of optimality then
    boolean exact = !truncated && spreadCut == 0 && finalCheckRejected == 0;
    if (found != null) {
      return withPlan(found, exact, exact ? "least-cost plan (label setting completed)" : truncationNote());
    }
    if (incumbent.isPresent()) {
      return withPlan(incumbentPlan(incumbent.get()), exact,
          exact ? "least-cost plan: no cheaper placement than the greedy incumbent exists" : truncationNote());
    }
    if (exact) {
      return Results.infeasible(LabelSettingStrategy.NAME, "no placement meets the SLO: "
          + Infeasibility.afterSearch(c, "complete label-setting search over " + pools.pools.size() + " pools"), budget, stats());
    }
    if (!truncated) {
      return Results.noPlanFound(LabelSettingStrategy.NAME, truncationNote(), budget, stats());
    }
    return PlacementResult.builder().status(SolveStatus.NO_SOLUTION_IN_TIME).strategy(LabelSettingStrategy.NAME).solveTime(budget.elapsed())
        .reason("no plan found before the search was truncated (" + truncationNote() + "); feasibility unknown")
        .statistics(stats()).build();
  }

  /** Greedy's plan as dp's: re-checked on whole GPUs (a shared plan passed the verifier in greedy already). */
  private Plan incumbentPlan(Plan plan) {
    if (plan.stages().stream().allMatch(s -> s.placement() instanceof Whole)) {
      return c.check(PerformanceModel.assignmentsOf(plan), plan.cost(), LabelSettingStrategy.NAME).orElseThrow();
    }
    return plan;
  }

  private String truncationNote() {
    List<String> why = new ArrayList<>();
    if (truncated) {
      why.add("label cap " + maxLabels + " or time limit " + problem.options().timeLimit() + " reached");
    }
    if (spreadCut > 0) {
      why.add(spreadCut + " stage(s) had more ways to spread replicas over nodes than maxSpreadOptions " + maxSpreadOptions);
    }
    if (finalCheckRejected > 0) {
      why.add(finalCheckRejected + " path(s) the labels admitted missed an SLO (the newcomer's or, on shares, an incumbent's) "
          + "in the final check");
    }
    return "search not exhaustive: " + String.join("; ", why);
  }

  private PlacementResult withPlan(Plan plan, boolean exact, String note) {
    var b = PlacementResult.builder().status(exact ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE).plan(plan).reason(note)
        .strategy(LabelSettingStrategy.NAME).solveTime(budget.elapsed()).statistics(stats());
    if (exact) {
      b.bound(plan.cost()).gap(0);
    } else if (!truncated && spreadCut == 0) {
      // best-first: every path left in the queue costs at least the first rejected one
      double lower = Math.min(rejectedBound, plan.cost());
      b.bound(lower).gap(plan.cost() > 0 ? (plan.cost() - lower) / plan.cost() : 0);
    }
    return b.build();
  }

  private Map<String, Double> stats() {
    Map<String, Double> stats = new java.util.HashMap<>(Map.of("labelsCreated", (double) created, "labelsExpanded", (double) expanded,
        "labelsDominated", (double) store.dominated(), "pools", (double) pools.pools.size(), "nodeGroups", (double) pools.nodeGroups.size(),
        "shapes", (double) pools.shapes.size(), "truncated", truncated ? 1.0 : 0.0, "spreadOptionsCut", (double) spreadCut,
        "finalCheckRejected", (double) finalCheckRejected));
    // no table is built for this statistic: the root's bound from those the search needed
    stats.put("rootBound", bound.rootBoundSoFar());
    stats.put("latencyTables", (double) bound.latencyTablesUsed());
    if (truncated) {
      stats.put("openBound", openBound);
    }
    return stats;
  }

  private void expand(Label label) {
    int i = label.boundary;
    int shapes = pools.shapes.size();
    StageCursor stage = c.performance.cursor(c.model, batch, i, List.of());
    // a share's stage time is not a sum over its layers: one cursor per share shape
    StageCursor[] shareCursors = new StageCursor[shapes];
    for (int s = 0; s < shapes; s++) {
      if (!pools.isWhole(s)) {
        shareCursors[s] = c.performance.cursor(c.model, batch, i, List.of(pools.kind(s)));
      }
    }
    int[] touchedList = touchedNodes(label);
    boolean[] touched = new boolean[pools.nodeIds.size()];
    for (int n : touchedList) {
      touched[n] = true;
    }
    // spread stages list touched nodes group by group, as the untouched ones
    int[] touchedByGroup = Arrays.stream(touchedList).boxed()
        .sorted(Comparator.comparingInt((Integer n) -> pools.groupOf[n]).thenComparingInt(n -> n)).mapToInt(Integer::intValue).toArray();
    for (int n : touchedList) {
      touchedOfGroup[pools.groupOf[n]]++;
    }
    double[] cheapestNext = new double[shapes];
    int[] maxReplicasOfShape = new int[shapes];
    for (int s = 0; s < shapes; s++) {
      // over the spread candidates (spreadCandidates), without listing them: untouched alike nodes count as many as it lists
      double cheapest = Double.POSITIVE_INFINITY;
      int free = 0;
      for (int n : touchedByGroup) {
        for (SlotPools.Pool q : pools.poolsOfNode.get(n)) {
          int used = label.used(q.index);
          if (q.offers(s) && used < q.size()) {
            cheapest = Math.min(cheapest, q.cost(s, used, 1));
            free += q.size() - used;
          }
        }
      }
      // the untouched nodes' share from the totals of a path that touched nothing, corrected for the groups this one touched
      free += untouchedFree[s];
      for (int t = 0; t < touchedByGroup.length; t++) {
        int g = pools.groupOf[touchedByGroup[t]];
        SlotPools.Run run = runOfGroup[s][g];
        if (run != null && (t == 0 || pools.groupOf[touchedByGroup[t - 1]] != g)) {
          free += (Math.max(0, listed(run, touchedOfGroup[g])) - Math.max(0, listed(run, 0))) * run.nodeFree();
        }
      }
      for (SlotPools.Run run : runsByCheapest[s]) {
        if (listed(run, touchedOfGroup[run.group()]) > 0) {
          cheapest = Math.min(cheapest, run.nodeCheapest());
          break;
        }
      }
      cheapestNext[s] = cheapest;
      maxReplicasOfShape[s] = Math.max(1, Math.min(free, maxReplicas));
    }
    for (int n : touchedList) {
      touchedOfGroup[pools.groupOf[n]] = 0;
    }
    // the candidates themselves only for shapes whose stages pass the checks below
    List<List<SlotPools.Pool>> spreadPools = new ArrayList<>(Collections.nCopies(shapes, null));
    NodeOffers[] nodeOffers = new NodeOffers[shapes];
    double network = i == 0 ? 0 : c.performance.transferSeconds(c.model, i, batch, c.cluster.network());
    boolean[] done = new boolean[shapes];
    for (int j = i + 1; j <= layers; j++) {
      refused.clear();
      long memory = stage.add().memoryBytes();
      if (memory > maxCap) {
        break;
      }
      for (int s = 0; s < shapes; s++) {
        if (shareCursors[s] != null && !done[s]) {
          shareCursors[s].add();
        }
      }
      if (label.stages + 1 == maxStages && j < layers) {
        continue;
      }
      boolean anyShape = false;
      for (int s = 0; s < shapes; s++) {
        if (done[s] || memory > pools.maxCapOfShape[s]) {
          continue;
        }
        double alone = prefixTime[s] != null ? prefixTime[s][j] - prefixTime[s][i] : shareCursors[s].seconds(0);
        // α >= 1 only slows a stage: its time alone bounds latency and period from below, and both only grow with j
        if (label.latency + alone + suffixMinTime[j] > latencyBudget || !meetsPeriod(alone / maxReplicasOfShape[s])) {
          done[s] = true;
          continue;
        }
        anyShape = true;
        if (!beatsIncumbent(priority(label.cost + cheapestNext[s], j, label.stages + 1, label.latency + alone))) {
          continue;
        }
        if (nodeOffers[s] == null) {
          nodeOffers[s] = nodeOffers(label, s, touchedList, touched, network);
        }
        singleNodeOptions(label, j, s, memory, alone, nodeOffers[s]);
        if (spreadPools.get(s) == null) {
          spreadPools.set(s, spreadCandidates(label, s, touched, touchedByGroup));
        }
        spreadOptions(label, j, s, memory, alone, network, spreadPools.get(s), cheapestNext[s], touched);
      }
      if (!anyShape) {
        break;
      }
    }
  }

  /** The nodes the path took GPUs on, ascending. */
  private int[] touchedNodes(Label label) {
    int[] nodes = new int[label.pools.length];
    for (int k = 0; k < nodes.length; k++) {
      nodes[k] = pools.pools.get(label.pools[k]).node;
    }
    Arrays.sort(nodes);
    int distinct = 0;
    for (int k = 0; k < nodes.length; k++) {
      if (k == 0 || nodes[k] != nodes[k - 1]) {
        nodes[distinct++] = nodes[k];
      }
    }
    return Arrays.copyOf(nodes, distinct);
  }

  /**
   * Pools offering shape s with GPUs left: touched nodes first, then untouched ones group by group
   * (each in node order). Of a group's untouched nodes only the first {@code maxReplicas} can
   * matter: a stage uses at most that many nodes, and the group's nodes are interchangeable.
   */
  private List<SlotPools.Pool> spreadCandidates(Label label, int s, boolean[] touched, int[] touchedByGroup) {
    List<SlotPools.Pool> candidates = new ArrayList<>();
    for (int n : touchedByGroup) {
      for (SlotPools.Pool q : pools.poolsOfNode.get(n)) {
        if (q.offers(s) && label.used(q.index) < q.size()) {
          candidates.add(q);
        }
      }
    }
    for (SlotPools.Run run : pools.shapeGroupRuns.get(s)) {
      int nodesTaken = 0;
      int lastNode = -1;
      for (SlotPools.Pool p : run.pools()) {
        if (touched[p.node]) {
          continue;
        }
        if (p.node != lastNode) {
          if (nodesTaken == maxReplicas) {
            break;
          }
          nodesTaken++;
          lastNode = p.node;
        }
        candidates.add(p);
      }
    }
    return candidates;
  }

  /**
   * A label's pools with GPUs left that offer shape s on the nodes a new single-node stage may use,
   * with what a stage on each takes as given. The nodes: every node the path touched (ascending),
   * then the first untouched node of each group of look-alike nodes that offers the shape (the others
   * are interchangeable with it), each node's pools in order. None of it depends on where the stage
   * ends, so it is gathered once per label and shape, not once per stage end (at 1 000 GPUs that walk
   * over every node's pools was a third of a decision).
   *
   * <p>Pools that give a stage the same α and incoming transfer time make one kind: their stages
   * differ only in cost, so the bound judges them alike (see {@link #singleNodeOptions}).
   */
  private static final class NodeOffers {
    final SlotPools.Pool[] pools;
    final int[] used;
    final int[] remaining;
    final long[] memoryCap;
    /** The least memory cap of the pools. */
    final long minMemoryCap;
    /** Per pool: the least cost of a stage on it, over its replica counts. */
    final double[] leastCost;
    /** Per pool: its kind. */
    final int[] kind;
    /** Per kind: α, incoming transfer time, and the least cost of a stage on any of its pools. */
    final double[] kindAlpha;
    final double[] kindIn;
    final double[] kindLeastCost;

    NodeOffers(SlotPools.Pool[] pools, int[] used, int s, double[] in) {
      int n = pools.length;
      this.pools = pools;
      this.used = used;
      this.remaining = new int[n];
      this.memoryCap = new long[n];
      this.leastCost = new double[n];
      this.kind = new int[n];
      double[] alpha = new double[n];
      double[] kindIn = new double[n];
      double[] kindLeast = new double[n];
      long minCap = Long.MAX_VALUE;
      int kinds = 0;
      for (int k = 0; k < n; k++) {
        SlotPools.Pool pool = pools[k];
        remaining[k] = pool.size() - used[k];
        memoryCap[k] = pool.offer[s].memoryCapBytes();
        minCap = Math.min(minCap, memoryCap[k]);
        double least = Double.POSITIVE_INFINITY;
        for (int r = 1; r <= remaining[k]; r++) {
          least = Math.min(least, pool.cost(s, used[k], r));
        }
        leastCost[k] = least;
        double a = pool.offer[s].alpha();
        int q = 0;
        while (q < kinds && !(alpha[q] == a && kindIn[q] == in[k])) {
          q++;
        }
        if (q == kinds) {
          alpha[q] = a;
          kindIn[q] = in[k];
          kindLeast[q] = least;
          kinds++;
        }
        kindLeast[q] = Math.min(kindLeast[q], least);
        kind[k] = q;
      }
      this.minMemoryCap = minCap;
      this.kindAlpha = Arrays.copyOf(alpha, kinds);
      this.kindIn = Arrays.copyOf(kindIn, kinds);
      this.kindLeastCost = Arrays.copyOf(kindLeast, kinds);
    }
  }

  private NodeOffers nodeOffers(Label label, int s, int[] touchedList, boolean[] touched, double network) {
    List<SlotPools.Run> runs = pools.shapeGroupRuns.get(s);
    int[] nodes = Arrays.copyOf(touchedList, touchedList.length + runs.size());
    int count = touchedList.length;
    for (SlotPools.Run run : runs) {
      for (int n : pools.nodeGroups.get(run.group())) {
        if (!touched[n]) {
          nodes[count++] = n;
          break;
        }
      }
    }
    int capacity = 0;
    for (int x = 0; x < count; x++) {
      capacity += pools.poolsOfNode.get(nodes[x]).size();
    }
    SlotPools.Pool[] offering = new SlotPools.Pool[capacity];
    int[] used = new int[capacity];
    double[] in = new double[capacity];
    int k = 0;
    for (int x = 0; x < count; x++) {
      int n = nodes[x];
      double transfer = label.boundary == 0 ? 0 : label.prevNode == n
          ? c.performance.transferSeconds(c.model, label.boundary, batch, pools.nodeLinks.get(n)) : network;
      for (SlotPools.Pool pool : pools.poolsOfNode.get(n)) {
        // an untouched node's pools are whole: no search for what the path took there
        int u = touched[n] ? label.used(pool.index) : 0;
        if (pool.offers(s) && u < pool.size()) {
          offering[k] = pool;
          used[k] = u;
          in[k] = transfer;
          k++;
        }
      }
    }
    return new NodeOffers(Arrays.copyOf(offering, k), Arrays.copyOf(used, k), s, Arrays.copyOf(in, k));
  }

  /**
   * Stages on one pool of one node: the fewest replicas that pass (more only under serial transfers,
   * where they shorten a later wait).
   *
   * <p>On a large cluster nearly every such stage is refused by the bound, one by one. The bound's
   * verdict depends on the path's cost and latency only and is monotone in cost, and a kind's stages
   * all have one latency; so when every pool can hold the stage and one replica passes the checks
   * before the bound, the kind's cheapest stage is judged first: if the bound refuses it, it refuses
   * every stage of the kind. The search asks the bound about that stage anyway (it is the cheapest it
   * would reach), so what it reports is unchanged, and so is the order in which stages are offered.
   */
  private void singleNodeOptions(Label label, int j, int s, long memory, double alone, NodeOffers offers) {
    int kinds = offers.kindAlpha.length;
    // per kind: its stages' latency and the least path cost known to be refused at it (what RefusedCosts holds, kept at hand)
    double[] latency = new double[kinds];
    double[] refusedFrom = new double[kinds];
    for (int q = 0; q < kinds; q++) {
      latency[q] = latencyAfter(label, offers.kindIn[q], alone * offers.kindAlpha[q]);
      refusedFrom[q] = refused.leastRefused(latency[q]);
    }
    if (memory <= offers.minMemoryCap) {
      int refusedKinds = 0;
      for (int q = 0; q < kinds; q++) {
        if (passesStageChecks(label, j, alone * offers.kindAlpha[q], offers.kindIn[q], 1)) {
          double least = label.cost + offers.kindLeastCost[q];
          if (least >= refusedFrom[q] || !beatsIncumbent(priority(least, j, label.stages + 1, latency[q]))) {
            refused.refused(latency[q], least);
            refusedFrom[q] = Math.min(refusedFrom[q], least);
            refusedKinds++;
          }
        }
      }
      if (refusedKinds == kinds) {
        return;
      }
    }
    SlotPools.Pool[] offering = offers.pools;
    for (int k = 0; k < offering.length; k++) {
      int q = offers.kind[k];
      // a refused cost is refused before its (pool, count) pairs are even built
      if (memory > offers.memoryCap[k] || label.cost + offers.leastCost[k] >= refusedFrom[q]) {
        continue;
      }
      SlotPools.Pool pool = offering[k];
      int used = offers.used[k];
      double compute = alone * offers.kindAlpha[q];
      for (int r = 1; r <= offers.remaining[k]; r++) {
        boolean added = offer(label, j, s, compute, offers.kindIn[q], r, pool.node, new int[] {pool.index, r}, pool.cost(s, used, r));
        if (added && mode != TransferMode.SERIAL) {
          break; // more replicas on the same pool are dominated by this option
        }
      }
      refusedFrom[q] = Math.min(refusedFrom[q], refused.leastRefused(latency[q]));
    }
  }

  private void spreadOptions(Label label, int j, int s, long memory, double alone, double network, List<SlotPools.Pool> all,
      double cheapestNext, boolean[] touched) {
    List<SlotPools.Pool> candidates = all;
    if (memory > pools.minCapOfShape[s]) {
      candidates = all.stream().filter(p -> memory <= p.offer[s].memoryCapBytes()).toList();
    }
    if (candidates.size() < 2) {
      return;
    }
    int minReplicas = Math.max(2, (int) Math.ceil(alone / maxBusy - 1e-9));
    // every further GPU costs at least cheapestNext: beyond maxTotal the stage cannot beat the incumbent
    int maxTotal = maxReplicas;
    if (cheapestNext > 0 && upperBound < Double.POSITIVE_INFINITY) {
      double room = upperBound - label.cost - costToGo(j, label.stages + 1, label.latency + alone);
      maxTotal = (int) Math.min(maxTotal, Math.floor(room / cheapestNext + 1e-9));
    }
    if (maxTotal < minReplicas) {
      return;
    }
    int[] counts = new int[candidates.size()];
    int[] left = {maxSpreadOptions};
    enumerateSpread(label, j, s, alone, network, candidates, touched, 0, counts, 0, 0, minReplicas, maxTotal, left);
    if (left[0] < 0) {
      spreadCut++;
    }
  }

  /**
   * Every distribution of {@code minReplicas..maxTotal} replicas over two or more pools offering
   * one shape, choosing pools in list order. Untouched look-alike nodes are interchangeable, so
   * within such a group a node is used only if the node before it in the group is, and with no more
   * GPUs (one representative per symmetric class). Stops, flagging the truncation, after
   * {@code left} options.
   */
  private void enumerateSpread(Label label, int j, int s, double alone, double network, List<SlotPools.Pool> candidates,
      boolean[] touched, int start, int[] counts, int total, int poolsUsed, int minReplicas, int maxTotal, int[] left) {
    for (int x = start; x < candidates.size() && left[0] >= 0; x++) {
      SlotPools.Pool p = candidates.get(x);
      int cap = Math.min(p.size() - label.used(p.index), maxTotal - total);
      if (x > 0 && twins(candidates.get(x - 1), p, s, touched)) {
        if (counts[x - 1] == 0) {
          continue; // its twin before it is unused: this choice is a permutation of one already made
        }
        cap = Math.min(cap, counts[x - 1]);
      }
      for (int n = 1; n <= cap && left[0] >= 0; n++) {
        counts[x] = n;
        int newTotal = total + n;
        if (poolsUsed + 1 >= 2 && newTotal >= minReplicas) {
          if (--left[0] < 0) {
            break;
          }
          offerSpread(label, j, s, alone, network, candidates, counts, x, newTotal, poolsUsed + 1);
        }
        if (newTotal < maxTotal) {
          enumerateSpread(label, j, s, alone, network, candidates, touched, x + 1, counts, newTotal, poolsUsed + 1, minReplicas, maxTotal,
              left);
        }
      }
      counts[x] = 0;
    }
  }

  /**
   * Two candidate pools on distinct untouched look-alike nodes, each the node's only pool offering
   * the shape: interchangeable, so only one order of using them is tried.
   */
  private boolean twins(SlotPools.Pool before, SlotPools.Pool p, int s, boolean[] touched) {
    return before.node != p.node && !touched[before.node] && !touched[p.node] && pools.groupOf[before.node] == pools.groupOf[p.node]
        && before.onlyOfShapeOnNode[s] && p.onlyOfShapeOnNode[s];
  }

  private void offerSpread(Label label, int j, int s, double alone, double network, List<SlotPools.Pool> candidates, int[] counts,
      int last, int total, int poolsUsed) {
    int[] take = new int[2 * poolsUsed];
    double cost = 0;
    double alpha = 1;
    int node = -1;
    boolean single = true;
    int k = 0;
    for (int x = 0; x <= last; x++) {
      if (counts[x] > 0) {
        SlotPools.Pool p = candidates.get(x);
        take[k++] = p.index;
        take[k++] = counts[x];
        cost += p.cost(s, label.used(p.index), counts[x]);
        alpha = Math.max(alpha, p.offer[s].alpha());
        single &= node < 0 || node == p.node;
        node = p.node;
      }
    }
    // pools of one node (a node's free and partly used GPUs) make a single-node stage, as linkBetween charges it
    double in = network;
    if (single && label.boundary > 0 && label.prevNode == node) {
      in = c.performance.transferSeconds(c.model, label.boundary, batch, pools.nodeLinks.get(node));
    }
    offer(label, j, s, alone * alpha, in, total, single ? node : Label.SPREAD, take, cost);
  }

  /** A stage (or, overlapped, a transfer) busy {@code load} per batch keeps the throughput, by the one SLO predicate. */
  private boolean meetsPeriod(double load) {
    return SloPredicate.meetsPeriod(load, c.request.slo());
  }

  /** The latency of {@code label}'s path followed by a stage receiving for {@code in} and computing for {@code compute}. */
  private static double latencyAfter(Label label, double in, double compute) {
    return label.latency + in + compute;
  }

  /**
   * The checks of a stage before the bound, by the one SLO predicate: its busy time per batch (and,
   * overlapped, its incoming transfer; serial, both after each other and the previous stage's
   * pending busy time plus the transfer) keep the throughput, and the latency so far plus the least
   * time alone of the layers after it fits the budget.
   */
  private boolean passesStageChecks(Label label, int j, double compute, double in, int replicas) {
    double busy = compute / replicas;
    boolean period = switch (mode) {
      case NONE -> meetsPeriod(busy);
      case OVERLAPPED -> meetsPeriod(busy) && meetsPeriod(in);
      case SERIAL -> meetsPeriod(busy + in) && meetsPeriod(label.pendingBusy + in);
    };
    return period && !(latencyAfter(label, in, compute) + suffixMinTime[j] > latencyBudget);
  }

  /** Creates the label of "layers [label.boundary, j) on these units" if it can still lead to a plan; true if created. */
  private boolean offer(Label label, int j, int s, double compute, double in, int replicas, int node, int[] take, double stageCost) {
    if (!passesStageChecks(label, j, compute, in, replicas)) {
      return false;
    }
    double latency = latencyAfter(label, in, compute);
    double cost = label.cost + stageCost;
    if (refused.refuses(latency, cost)) {
      return false;
    }
    double priority = priority(cost, j, label.stages + 1, latency);
    if (!beatsIncumbent(priority)) {
      refused.refused(latency, cost);
      return false;
    }
    int prevNode = j == layers ? Label.SPREAD : node;
    double pending = mode == TransferMode.SERIAL ? compute / replicas + in : 0;
    Label next = label.extend(j, prevNode, cost, latency, pending, priority, take);
    next.shape = s;
    if (!store.admit(next)) {
      return false;
    }
    queue.add(next);
    created++;
    return true;
  }

  /**
   * The path's stages on concrete GPUs (cheapest first in each pool): on whole GPUs checked by the
   * performance model at the labels' cost; with shares judged with their α and then by the verifier,
   * incumbents included.
   */
  private Optional<Plan> finalCheck(Label last) {
    Deque<Label> chain = new ArrayDeque<>();
    for (Label l = last; l.parent != null; l = l.parent) {
      chain.push(l);
    }
    int[] consumed = new int[pools.pools.size()];
    List<List<FreeGpu>> groups = new ArrayList<>();
    List<int[]> ranges = new ArrayList<>();
    boolean whole = true;
    for (Label l : chain) {
      List<FreeGpu> group = new ArrayList<>();
      for (int k = 0; k < l.take.length; k += 2) {
        SlotPools.Pool p = pools.pools.get(l.take[k]);
        FreeGpu offer = p.offer[l.shape];
        for (int x = 0; x < l.take[k + 1]; x++) {
          FreeGpu gpu = p.gpus.get(consumed[p.index]++);
          // a pool of one shape lists each GPU's own unit; a pool of several, the first (the others cost the same)
          group.add(gpu.shape().equals(offer.shape()) ? gpu : unitOf(gpu, offer));
        }
      }
      whole &= pools.isWhole(l.shape);
      ranges.add(new int[] {l.from, l.boundary, groups.size()});
      groups.add(group);
    }
    if (!whole) {
      return c.evaluateRanges(groups, ranges, LabelSettingStrategy.NAME);
    }
    List<StageAssignment> stages = new ArrayList<>(groups.size());
    for (int[] range : ranges) {
      stages.add(StageAssignment.whole(range[0], range[1], groups.get(range[2]).stream().map(FreeGpu::id).toList()));
    }
    return c.check(stages, last.cost, LabelSettingStrategy.NAME);
  }

  /** {@code gpu}'s unit for the shape {@code offer} is (a pool of several shapes has one cost, α and cap per shape). */
  private static FreeGpu unitOf(FreeGpu gpu, FreeGpu offer) {
    return new FreeGpu(gpu.gpu(), offer.type(), offer.cost(), gpu.clusterIndex(), offer.placement(), offer.shape(), offer.alpha(),
        offer.memoryCapBytes(), offer.unit());
  }
}
