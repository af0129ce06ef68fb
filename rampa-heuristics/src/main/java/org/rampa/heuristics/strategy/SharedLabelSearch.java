package org.rampa.heuristics.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import org.rampa.domain.Plan;
import org.rampa.perf.DeviceKind;
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
 * The label-setting search ("dp") over the shared-slot menu, when sharing is on: the same shortest
 * path over layer boundaries as {@link LabelSettingStrategy}, where an arc is "layers {@code [i, j)}
 * with one placement shape on a set of menu units" (whole free GPUs, MPS shares of free GPUs, MPS
 * room and free MIG instances of partly used GPUs; one unit per GPU over the whole path).
 *
 * <p><b>State.</b> GPUs are pooled by node, type and menu offer (every shape's cost, α and memory
 * cap): GPUs of a pool are interchangeable, so a label records how many it took from each pool
 * (one unit per GPU, whatever shape), the node of the last stage when it sits on one node (else
 * spread), the stage count, cost, latency and, under serial transfers, the pending busy time.
 *
 * <p><b>Stages.</b> For each shape, every distribution of replicas over the pools offering it whose
 * memory cap holds the stage, up to {@code maxSpreadOptions} per stage (beyond: the search is not
 * exhaustive, and says so); look-alike untouched nodes (same link, same pools) are used in one
 * order only, each with no more GPUs than the one before (the others are permutations); a distribution that stays valid without one of its GPUs on the same
 * node status is dominated and skipped. The stage's time is its time alone on the shape times the
 * largest α among its pools; transfers as {@code PerformanceModel.linkBetween} charges them.
 *
 * <p><b>What it leaves to the final check.</b> The incumbents' SLOs: each complete path is judged by
 * the verifier with its interference rule; a path it rejects makes the search inexhaustive (a
 * rejected path may have dominated one that passes). No cost-to-go estimate is used (the
 * whole-GPU relaxation is not a bound on shares): best-first on cost alone, with the greedy
 * strategy's shared plan as the first incumbent.
 *
 * <p><b>Status.</b> OPTIMAL only when the search completed with nothing cut and nothing rejected;
 * INFEASIBLE when it completed so and found nothing; otherwise FEASIBLE, NO_PLAN_FOUND or
 * NO_SOLUTION_IN_TIME as {@link LabelSettingStrategy} says them.
 */
final class SharedLabelSearch {

  /** GPUs of one node and type with one menu offer. */
  private static final class Pool {
    final int index;
    final int node;
    final List<FreeGpu> gpus = new ArrayList<>();
    /** Per shape index: the unit of the pool's first GPU offering it, or null. */
    final FreeGpu[] offer;

    Pool(int index, int node, int shapes) {
      this.index = index;
      this.node = node;
      this.offer = new FreeGpu[shapes];
    }
  }

  private final PlacementProblem problem;
  private final LabelSettingOptions options;
  private final TimeBudget budget;
  private final PlacementContext c;
  private final TransferMode mode;
  private final int layers;
  private final int batch;
  private final double maxBusy;
  private final double latencyBudget;
  private final List<String> shapes = new ArrayList<>();
  private final List<DeviceKind> kinds = new ArrayList<>();
  private final List<Pool> pools = new ArrayList<>();
  private final List<String> nodeIds = new ArrayList<>();
  /** Per node: its group of look-alike nodes (same link, same pools but for the node). */
  private int[] nodeGroup;
  /** Per pool: the only pool of its node with GPUs of its type (so twin nodes map pool to pool). */
  private boolean[] onlyPool;
  private final double[] suffixMinTime;
  private final DominanceStore store = new DominanceStore();
  private final PriorityQueue<Label> queue = new PriorityQueue<>(
      Comparator.comparingDouble((Label l) -> l.priority).thenComparingInt(l -> -l.boundary));
  private double upperBound = Double.POSITIVE_INFINITY;
  private long created;
  private long expanded;
  private long spreadCut;
  private boolean truncated;
  private long finalCheckRejected;
  /** Some node's intra link is slower than the network at some cut: spreading a stage may then speed it up. */
  private final boolean slowNodes;

  /** Greedy on the same shared slots gives the search its first incumbent. */
  private static final WarmStart WARM_START = WarmStart.from(new GreedyStrategy());

  SharedLabelSearch(PlacementProblem problem, LabelSettingOptions options) {
    this.problem = problem;
    this.options = options;
    this.budget = TimeBudget.start(problem);
    this.c = new PlacementContext(problem);
    this.mode = c.performance.transferMode();
    this.layers = c.model.size();
    this.batch = c.batch;
    this.maxBusy = SloPredicate.maxLoadSeconds(c.request.slo());
    this.latencyBudget = SloPredicate.latencyBudgetSeconds(c.request.slo());
    List<FreeGpu> units = c.units(options.sharing());
    Map<String, List<FreeGpu>> byGpu = new LinkedHashMap<>();
    for (FreeGpu u : units) {
      if (!shapes.contains(u.shape())) {
        shapes.add(u.shape());
        kinds.add(DeviceKind.of(u.type(), u.placement()));
      }
      byGpu.computeIfAbsent(u.id(), k -> new ArrayList<>()).add(u);
    }
    Map<String, Pool> bySignature = new LinkedHashMap<>();
    for (List<FreeGpu> offers : byGpu.values()) {
      FreeGpu first = offers.get(0);
      StringBuilder sig = new StringBuilder(first.node()).append('|').append(first.typeName());
      for (FreeGpu u : offers) {
        sig.append('|').append(u.shape()).append(':').append(Double.doubleToLongBits(u.cost())).append(':')
            .append(Double.doubleToLongBits(u.alpha())).append(':').append(u.memoryCapBytes());
      }
      Pool pool = bySignature.computeIfAbsent(sig.toString(), k -> {
        int node = nodeIds.indexOf(first.node());
        if (node < 0) {
          nodeIds.add(first.node());
          node = nodeIds.size() - 1;
        }
        Pool p = new Pool(pools.size(), node, shapes.size());
        for (FreeGpu u : offers) {
          p.offer[shapes.indexOf(u.shape())] = u;
        }
        pools.add(p);
        return p;
      });
      pool.gpus.add(first);
    }
    Map<String, Integer> groups = new LinkedHashMap<>();
    List<List<String>> nodeSignatures = new ArrayList<>();
    nodeIds.forEach(n -> nodeSignatures.add(new ArrayList<>()));
    bySignature.forEach((sig, pool) -> nodeSignatures.get(pool.node).add(sig.substring(sig.indexOf('|')) + "x" + pool.gpus.size()));
    nodeGroup = new int[nodeIds.size()];
    for (int n = 0; n < nodeIds.size(); n++) {
      List<String> sig = nodeSignatures.get(n);
      java.util.Collections.sort(sig);
      String key = c.cluster.node(nodeIds.get(n)).intraLink() + "|" + sig;
      nodeGroup[n] = groups.computeIfAbsent(key, k -> groups.size());
    }
    onlyPool = new boolean[pools.size()];
    for (Pool p : pools) {
      onlyPool[p.index] = pools.stream().noneMatch(q -> q != p && q.node == p.node && q.gpus.get(0).typeName().equals(p.gpus.get(0).typeName()));
    }
    boolean slow = false;
    for (String n : nodeIds) {
      for (int cut = 1; cut < layers && !slow; cut++) {
        slow = c.performance.transferSeconds(c.model, cut, batch, c.cluster.node(n).intraLink())
            > c.performance.transferSeconds(c.model, cut, batch, c.cluster.network());
      }
    }
    this.slowNodes = slow;
    // the other layers' least time: per layer, the fastest shape (a partial stage's share time is a sum over its layers)
    suffixMinTime = new double[layers + 1];
    double[] fastest = new double[layers];
    java.util.Arrays.fill(fastest, Double.POSITIVE_INFINITY);
    for (FreeGpu u : units) {
      double[] t = c.layerSeconds(u);
      for (int l = 0; l < layers; l++) {
        fastest[l] = Math.min(fastest[l], t[l]);
      }
    }
    for (int l = layers - 1; l >= 0; l--) {
      suffixMinTime[l] = suffixMinTime[l + 1] + fastest[l];
    }
  }

  PlacementResult run() {
    if (pools.isEmpty()) {
      return Results.infeasible(LabelSettingStrategy.NAME, "no GPU and no share of one is free: the menu is empty", budget, stats());
    }
    Optional<Plan> incumbent = Optional.empty();
    if (options.warmStart()) {
      incumbent = WARM_START.plan(problem, budget.remaining(), options.sharing());
      incumbent.ifPresent(p -> upperBound = p.cost());
    }
    queue.add(new Label(0, new int[pools.size()], Label.START, 0, 0, 0, 0, 0, null, 0, new int[0]));
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
        finalCheckRejected++;
        continue;
      }
      if (created > options.maxLabels() || budget.expired()) {
        truncated = true;
        break;
      }
      expanded++;
      expand(label);
    }
    boolean exact = !truncated && spreadCut == 0 && finalCheckRejected == 0;
    String note = exact ? "least-cost plan on the shared-slot menu (label setting completed)" : truncationNote();
    SolveStatus status = exact ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
    if (found != null && (incumbent.isEmpty() || found.cost() <= incumbent.get().cost())) {
      return Results.withPlan(LabelSettingStrategy.NAME, status, found, note, budget, stats());
    }
    if (incumbent.isPresent()) {
      return Results.withPlan(LabelSettingStrategy.NAME, status, incumbent.get(),
          exact ? "least-cost plan on the shared-slot menu: nothing cheaper than the greedy incumbent exists" : note, budget, stats());
    }
    if (exact) {
      return Results.infeasible(LabelSettingStrategy.NAME, "no placement on the shared-slot menu meets the SLO with every incumbent's "
          + "(complete label-setting search over " + pools.size() + " pools)", budget, stats());
    }
    if (!truncated) {
      return Results.noPlanFound(LabelSettingStrategy.NAME, truncationNote(), budget, stats());
    }
    return PlacementResult.builder().status(SolveStatus.NO_SOLUTION_IN_TIME).strategy(LabelSettingStrategy.NAME)
        .solveTime(budget.elapsed()).reason("no plan found before the search was truncated (" + truncationNote() + "); feasibility unknown")
        .statistics(stats()).build();
  }

  private String truncationNote() {
    List<String> why = new ArrayList<>();
    if (truncated) {
      why.add("label cap " + options.maxLabels() + " or time limit " + problem.options().timeLimit() + " reached");
    }
    if (spreadCut > 0) {
      why.add(spreadCut + " stage(s) had more ways to take replicas than maxSpreadOptions " + options.maxSpreadOptions());
    }
    if (finalCheckRejected > 0) {
      why.add(finalCheckRejected + " path(s) missed an SLO (the newcomer's or an incumbent's) in the verifier's final check");
    }
    return "search not exhaustive: " + String.join("; ", why);
  }

  private Map<String, Double> stats() {
    return Map.of("labelsCreated", (double) created, "labelsExpanded", (double) expanded, "labelsDominated", (double) store.dominated(),
        "pools", (double) pools.size(), "shapes", (double) shapes.size(), "truncated", truncated ? 1.0 : 0.0,
        "spreadOptionsCut", (double) spreadCut, "finalCheckRejected", (double) finalCheckRejected);
  }

  private void expand(Label label) {
    int i = label.boundary;
    List<StageCursor> cursors = new ArrayList<>();
    for (DeviceKind kind : kinds) {
      cursors.add(c.performance.cursor(c.model, batch, i, List.of(kind)));
    }
    boolean[] done = new boolean[shapes.size()];
    double network = i == 0 ? 0 : c.performance.transferSeconds(c.model, i, batch, c.cluster.network());
    for (int j = i + 1; j <= layers; j++) {
      boolean any = false;
      for (int s = 0; s < shapes.size(); s++) {
        if (done[s]) {
          continue;
        }
        StageCursor stage = cursors.get(s).add();
        if (label.stages + 1 == c.request.maxStages() && j < layers) {
          any = true;
          continue;
        }
        long memory = stage.memoryBytes();
        double alone = stage.seconds(0);
        List<Pool> candidates = new ArrayList<>();
        int available = 0;
        for (Pool p : pools) {
          FreeGpu u = p.offer[s];
          if (u != null && p.gpus.size() > label.used[p.index] && memory <= u.memoryCapBytes()) {
            candidates.add(p);
            available += p.gpus.size() - label.used[p.index];
          }
        }
        boolean[] touched = touched(label);
        candidates.sort(Comparator.comparingInt((Pool p) -> touched[p.node] ? 0 : 1).thenComparingInt(p -> nodeGroup[p.node])
            .thenComparingInt(p -> p.node));
        if (candidates.isEmpty() || label.latency + alone + suffixMinTime[j] > latencyBudget
            || !SloPredicate.meetsPeriod(alone / Math.min(available, options.maxReplicas()), c.request.slo())) {
          done[s] = true; // memory, compute and the period only get worse with j (α >= 1)
          continue;
        }
        any = true;
        int[] counts = new int[candidates.size()];
        int[] left = {options.maxSpreadOptions()};
        enumerate(label, j, s, memory, alone, network, candidates, counts, 0, 0, left, touched);
        if (left[0] < 0) {
          spreadCut++;
        }
      }
      if (!any) {
        break;
      }
    }
  }

  /** Every distribution of replicas over {@code candidates} (in list order), up to {@code left} of them. */
  private void enumerate(Label label, int j, int s, long memory, double alone, double network, List<Pool> candidates, int[] counts,
      int start, int total, int[] left, boolean[] touched) {
    for (int x = start; x < candidates.size() && left[0] >= 0; x++) {
      Pool p = candidates.get(x);
      int cap = Math.min(p.gpus.size() - label.used[p.index], options.maxReplicas() - total);
      if (x > 0 && twins(candidates.get(x - 1), p, touched)) {
        // look-alike untouched nodes: use them in order, each with no more GPUs than the one before
        if (counts[x - 1] == 0) {
          continue;
        }
        cap = Math.min(cap, counts[x - 1]);
      }
      for (int n = 1; n <= cap && left[0] >= 0; n++) {
        counts[x] = n;
        if (offerDistribution(label, j, s, memory, alone, network, candidates, counts, total + n, left)) {
          // more GPUs on top of a valid stage only add cost (dominated) unless transfers are serial
          if (mode != TransferMode.SERIAL && !slowNodes) {
            break;
          }
        }
        if (total + n < options.maxReplicas()) {
          enumerate(label, j, s, memory, alone, network, candidates, counts, x + 1, total + n, left, touched);
        }
      }
      counts[x] = 0;
    }
  }

  /** The nodes the path has taken GPUs on. */
  private boolean[] touched(Label label) {
    boolean[] touched = new boolean[nodeIds.size()];
    for (Pool p : pools) {
      touched[p.node] |= label.used[p.index] > 0;
    }
    return touched;
  }

  /**
   * Two candidate pools on distinct untouched look-alike nodes, each the node's only pool offering
   * the shape: interchangeable, so only one order of using them is tried.
   */
  private boolean twins(Pool before, Pool p, boolean[] touched) {
    return before.node != p.node && !touched[before.node] && !touched[p.node] && nodeGroup[before.node] == nodeGroup[p.node]
        && onlyPool[before.index] && onlyPool[p.index];
  }

  /** Offers the stage the distribution describes; true when its period holds (whether or not a label was kept). */
  private boolean offerDistribution(Label label, int j, int s, long memory, double alone, double network, List<Pool> candidates,
      int[] counts, int total, int[] left) {
    double alpha = 1;
    double cost = 0;
    int node = -1;
    boolean single = true;
    int parts = 0;
    for (int x = 0; x < candidates.size(); x++) {
      if (counts[x] > 0) {
        Pool p = candidates.get(x);
        FreeGpu u = p.offer[s];
        alpha = Math.max(alpha, u.alpha());
        cost += u.cost() * counts[x];
        single &= node < 0 || node == p.node;
        node = p.node;
        parts++;
      }
    }
    double compute = alone * alpha;
    if (!SloPredicate.meetsPeriod(compute / total, c.request.slo())) {
      return false;
    }
    if (--left[0] < 0) {
      return true;
    }
    if (!beatsIncumbent(label.cost + cost)) {
      return true;
    }
    int stageNode = single ? node : Label.SPREAD;
    double in = label.boundary == 0 ? 0 : single && label.prevNode == node
        ? c.performance.transferSeconds(c.model, label.boundary, batch, c.cluster.node(nodeIds.get(node)).intraLink()) : network;
    int[] take = new int[2 * parts];
    int k = 0;
    for (int x = 0; x < candidates.size(); x++) {
      if (counts[x] > 0) {
        take[k++] = candidates.get(x).index;
        take[k++] = counts[x];
      }
    }
    offer(label, j, s, compute, in, total, stageNode, take, cost, alpha);
    return true;
  }

  private boolean beatsIncumbent(double lowerBound) {
    return upperBound == Double.POSITIVE_INFINITY || lowerBound < upperBound - 1e-12 * Math.abs(upperBound);
  }

  private void offer(Label label, int j, int s, double compute, double in, int replicas, int node, int[] take, double stageCost,
      @SuppressWarnings("unused") double alpha) {
    double busy = compute / replicas;
    double pending = 0;
    switch (mode) {
      case NONE -> {
        if (!SloPredicate.meetsPeriod(busy, c.request.slo())) {
          return;
        }
      }
      case OVERLAPPED -> {
        if (!SloPredicate.meetsPeriod(busy, c.request.slo()) || !SloPredicate.meetsPeriod(in, c.request.slo())) {
          return;
        }
      }
      case SERIAL -> {
        pending = busy + in;
        if (!SloPredicate.meetsPeriod(pending, c.request.slo()) || !SloPredicate.meetsPeriod(label.pendingBusy + in, c.request.slo())) {
          return;
        }
      }
      default -> throw new IllegalStateException("unknown transfer mode " + mode);
    }
    double latency = label.latency + in + compute;
    if (latency + suffixMinTime[j] > latencyBudget) {
      return;
    }
    double cost = label.cost + stageCost;
    int[] used = label.used.clone();
    for (int k = 0; k < take.length; k += 2) {
      used[take[k]] += take[k + 1];
    }
    Label next = new Label(j, used, j == layers ? Label.SPREAD : node, label.stages + 1, cost, latency,
        mode == TransferMode.SERIAL ? pending : 0, cost, label, label.boundary, take);
    next.shape = s;
    if (store.admit(next)) {
      queue.add(next);
      created++;
    }
  }

  /** The path's stages on concrete GPUs, judged with their α and then by the verifier (incumbents included). */
  private Optional<Plan> finalCheck(Label last) {
    Deque<Label> chain = new ArrayDeque<>();
    for (Label l = last; l.parent != null; l = l.parent) {
      chain.push(l);
    }
    int[] consumed = new int[pools.size()];
    List<List<FreeGpu>> groups = new ArrayList<>();
    List<int[]> ranges = new ArrayList<>();
    for (Label l : chain) {
      List<FreeGpu> group = new ArrayList<>();
      for (int k = 0; k < l.take.length; k += 2) {
        Pool p = pools.get(l.take[k]);
        for (int x = 0; x < l.take[k + 1]; x++) {
          FreeGpu gpu = p.gpus.get(consumed[p.index]++);
          group.add(gpu.isWhole() && p.offer[l.shape].isWhole() ? gpu : unitOf(gpu, p.offer[l.shape]));
        }
      }
      groups.add(group);
      ranges.add(new int[] {l.from, l.boundary, groups.size() - 1});
    }
    return c.evaluateRanges(groups, ranges, LabelSettingStrategy.NAME);
  }

  /** {@code gpu}'s unit for the shape {@code offer} is (pools hold GPUs with the same offers). */
  private static FreeGpu unitOf(FreeGpu gpu, FreeGpu offer) {
    return new FreeGpu(gpu.gpu(), offer.type(), offer.cost(), gpu.clusterIndex(), offer.placement(), offer.shape(), offer.alpha(),
        offer.memoryCapBytes(), offer.unit());
  }
}
