package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import org.rampa.domain.GpuType;
import org.rampa.domain.Plan;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.support.TimeBudget;

/**
 * Greedy importance-weighted allocation ("greedy"), no solver. It considers GPU sets in increasing
 * order of their cost and returns the first (cheapest) one on which the min-period split meets the
 * SLO, so stages and replicas are added only when the SLO needs them:
 *
 * <ul>
 *   <li>homogeneous pipelines: {@code k} stages of {@code r} replicas of one GPU type, on the
 *       {@code k·r} cheapest free GPUs of that type;
 *   <li>the {@code m} cheapest free GPUs of any types, one stage each, for {@code m ≤ K_max}.
 * </ul>
 *
 * Candidates that provably miss the SLO (the whole model on one type is slower than the latency
 * bound, or perfect balancing over {@code k·r} GPUs still misses the throughput, or the weights do
 * not fit in {@code k} GPUs) are skipped before any split. Among GPUs of equal cost it prefers nodes
 * with more free GPUs of the type when transfers matter (fewer nodes, so consecutive stages share a
 * node link), and fuller nodes otherwise (less fragmentation); the chosen GPUs are ordered node by
 * node so that consecutive stages sit on one node whenever they can.
 *
 * <p>Options ({@code StrategyOptions.extra}): {@code maxReplicas} (default 64) replicas per stage,
 * {@code maxCandidates} (default 256) splits tried before giving up, and the sharing keys of
 * {@link org.rampa.strategy.SharingOptions}: with {@code sharing=on} the GPU sets are drawn from
 * the slots of {@link org.rampa.strategy.support.SharedSlotMenu} as well (MPS shares of free and partly
 * used GPUs, free MIG instances; one slot per GPU, the replicas of a stage of one placement shape),
 * a stage on a partly used GPU is timed with the slot's α, every set holding a share is verified
 * (interference rule included) before it is kept, and sets holding shares get their own
 * {@code maxCandidates} so the whole-GPU sets are all still tried.
 */
final class GreedyStrategy implements PlacementStrategy {

  static final String NAME = "greedy";

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The first {@code gpus} GPUs of {@code pool} in groups of {@code replicas}, costing
   * {@code costBound} at most; {@code shared} when the set may hold shares (counted apart, so that
   * sharing never crowds out the whole-GPU sets a search without it would try).
   */
  private record Candidate(double costBound, int gpus, List<FreeGpu> pool, int replicas, boolean shared) {
    List<List<FreeGpu>> groups() {
      return groupsOf(pool.subList(0, gpus), replicas);
    }
  }

  /**
   * Candidates by increasing cost bound, then size, then the order they were added (what a stable
   * sort gives): a heap, as the search mostly stops after the first few of thousands.
   */
  private static PriorityQueue<Integer> byCost(List<Candidate> candidates) {
    double[] cost = new double[candidates.size()];
    int[] gpus = new int[candidates.size()];
    List<Integer> indices = new ArrayList<>(candidates.size());
    for (int i = 0; i < cost.length; i++) {
      cost[i] = candidates.get(i).costBound();
      gpus[i] = candidates.get(i).gpus();
      indices.add(i);
    }
    PriorityQueue<Integer> heap = new PriorityQueue<>(Math.max(1, cost.length), (a, b) -> {
      int c = Double.compare(cost[a], cost[b]);
      if (c == 0) {
        c = Integer.compare(gpus[a], gpus[b]);
      }
      return c != 0 ? c : Integer.compare(a, b);
    });
    heap.addAll(indices);
    return heap;
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    return place(problem, true);
  }

  /**
   * As {@link #place(PlacementProblem)}; with {@code latencyFloor} false the search runs even where
   * {@link LatencyFloor} proves that it keeps no candidate (tests compare the two).
   */
  PlacementResult place(PlacementProblem problem, boolean latencyFloor) {
    TimeBudget budget = TimeBudget.start(problem);
    GreedyOptions options = GreedyOptions.of(problem.options());
    PlacementContext c = new PlacementContext(problem);
    boolean sharing = options.sharing().enabled();
    String obvious = Infeasibility.obviousReason(c, options.sharing());
    if (!obvious.isEmpty()) {
      return Results.infeasible(NAME, obvious, budget, Map.of("candidatesEvaluated", 0.0));
    }
    if (sharing && latencyFloor) {
      // before the menu: on a full cluster its slots and the refused sets were most of a refusal
      Optional<String> floor = LatencyFloor.refusal(c, options.sharing());
      if (floor.isPresent()) {
        return Results.noPlanFound(NAME, floor.get(), budget, Map.of("candidates", 0.0, "candidatesEvaluated", 0.0));
      }
    }
    int maxReplicas = options.maxReplicas();
    int maxCandidates = options.maxCandidates();
    int layers = c.model.size();
    int maxStages = Math.min(c.request.maxStages(), layers);
    // GPUs priced by type alone and no sharing: classes of interchangeable GPUs, units made only as far as candidates reach
    Optional<WholeGpuClasses> classes = sharing ? Optional.empty() : WholeGpuClasses.of(c);
    List<FreeGpu> units = classes.isPresent() ? null : c.units(options.sharing());
    Map<String, List<FreeGpu>> byShape = new LinkedHashMap<>();
    Comparator<FreeGpu> order;
    if (classes.isPresent()) {
      for (GpuType type : classes.get().types()) {
        byShape.put(type.name(), classes.get().ordered(type));
      }
      order = classes.get().order();
    } else {
      order = sortedByShape(c, units, sharing, byShape);
    }

    List<Candidate> candidates = new ArrayList<>();
    double latencyBudget = SloPredicate.latencyBudgetSeconds(c.request.slo());
    long weights = weightsOnly(c);
    List<FreeGpu> heads = new ArrayList<>();
    for (List<FreeGpu> gpus : byShape.values()) {
      // the cheapest maxStages of all whole units are among the cheapest maxStages of their shapes
      heads.addAll(gpus.subList(0, Math.min(maxStages, gpus.size())));
      FreeGpu first = gpus.get(0);
      // a share is never faster than its whole GPU, so the whole GPU's time bounds every shape of the
      // type from below, and a shape's own times are computed only when one of its sets is evaluated
      double modelSeconds = c.modelSeconds(first.type());
      if (modelSeconds > latencyBudget) {
        continue; // a request passes every layer on this type: no split can meet the latency bound
      }
      long memory = first.isWhole() ? first.type().memoryBytes() : gpus.stream().mapToLong(FreeGpu::memoryCapBytes).max().orElse(0);
      // no candidate takes more than maxStages·maxReplicas GPUs of a shape: only those are read
      int reach = (int) Math.min(gpus.size(), (long) maxStages * maxReplicas);
      double[] prefixCost = new double[reach + 1];
      for (int i = 0; i < reach; i++) {
        prefixCost[i + 1] = prefixCost[i] + WholeGpuClasses.costAt(gpus, i);
      }
      for (int k = 1; k <= maxStages; k++) {
        if (weights > k * memory) {
          continue; // the weights cannot fit in k GPUs of this shape
        }
        for (int r = 1; r <= maxReplicas && k * r <= gpus.size(); r++) {
          if (!SloPredicate.meetsPeriod(modelSeconds / (k * r), c.request.slo())) {
            continue; // even a perfect balance over k·r GPUs is too slow
          }
          candidates.add(new Candidate(prefixCost[k * r], k * r, gpus, r, !first.isWhole()));
        }
      }
    }
    addCheapest(candidates, sharing ? units.subList(0, c.free().size()) : heads, order, maxStages, false);
    if (sharing) {
      addCheapest(candidates, units, order, maxStages, true);
    }
    PriorityQueue<Integer> byCost = byCost(candidates);

    Plan best = null;
    int triedWhole = 0;
    int triedShared = 0;
    while (!byCost.isEmpty()) {
      Candidate cand = candidates.get(byCost.poll());
      if (best != null && cand.costBound() >= best.cost()) {
        break;
      }
      if (triedWhole >= maxCandidates && (!sharing || triedShared >= maxCandidates)) {
        break;
      }
      if (cand.shared() ? triedShared++ >= maxCandidates : triedWhole++ >= maxCandidates) {
        continue;
      }
      Optional<Plan> plan = c.evaluate(cand.groups(), SplitRule.MIN_PERIOD, true, NAME);
      if (plan.isPresent() && (best == null || plan.get().cost() < best.cost())) {
        best = plan.get();
      }
    }
    Map<String, Double> stats = Map.of(
        "candidates", (double) candidates.size(), "candidatesEvaluated", (double) c.candidatesEvaluated());
    if (best == null) {
      String searched = candidates.size() + " GPU sets by increasing cost"
          + (sharing ? " (" + (units.size() - c.free().size()) + " shared slots besides " + c.free().size() + " whole free GPUs)" : "");
      return Results.noPlanFound(NAME, Infeasibility.afterSearch(c, searched), budget, stats);
    }
    return Results.withPlan(NAME, SolveStatus.FEASIBLE, best, "cheapest GPU set on which the min-period split meets the SLO", budget, stats);
  }

  /**
   * Groups {@code units} by shape into {@code byShape} (shapes in order of their first unit) and
   * sorts each group into greedy's order, which it returns: cost, then (co-location or best fit)
   * the node's free units of the shape, then the node's order of first appearance, then cluster order.
   */
  private static Comparator<FreeGpu> sortedByShape(PlacementContext c, List<FreeGpu> units, boolean sharing,
      Map<String, List<FreeGpu>> byShape) {
    List<GpuType> types = new ArrayList<>();
    java.util.Set<String> typeNames = new java.util.HashSet<>();
    GpuType lastType = null;
    List<FreeGpu> lastShape = null;
    for (FreeGpu g : units) {
      // units of a shape come in runs (whole GPUs of a type in cluster order): look the shape up when it changes
      if (lastShape == null || !lastShape.get(0).shape().equals(g.shape())) {
        lastShape = byShape.computeIfAbsent(g.shape(), k -> new ArrayList<>());
      }
      lastShape.add(g);
      // per type, not per unit: GPUs of a type come in runs
      if (g.type() != lastType) {
        lastType = g.type();
        if (typeNames.add(lastType.name())) {
          types.add(lastType);
        }
      }
    }
    boolean transfersMatter = transfersMatter(c, types);
    // sort keys computed once: counted in arrays by node position, not hashed per unit
    int[] nodeRank = new int[units.size()];
    int[] nodeOrder = new int[units.size()];
    int[] nodeOf = c.cluster.nodePositions();
    int[] orderOfNode = new int[c.cluster.nodes().size()];
    java.util.Arrays.fill(orderOfNode, -1);
    int nodesSeen = 0;
    for (FreeGpu g : units) {
      int node = nodeOf[g.clusterIndex()];
      if (orderOfNode[node] < 0) {
        orderOfNode[node] = nodesSeen++;
      }
      nodeOrder[g.unit()] = orderOfNode[node];
    }
    int[] freeOnNode = new int[orderOfNode.length];
    for (List<FreeGpu> gpus : byShape.values()) {
      for (FreeGpu g : gpus) {
        freeOnNode[nodeOf[g.clusterIndex()]]++;
      }
      for (FreeGpu g : gpus) {
        int free = freeOnNode[nodeOf[g.clusterIndex()]];
        nodeRank[g.unit()] = transfersMatter ? -free : free;
      }
      for (FreeGpu g : gpus) {
        freeOnNode[nodeOf[g.clusterIndex()]] = 0;
      }
    }
    // one comparator rather than a chain of key extractors, as units are sorted by the thousand per decision
    Comparator<FreeGpu> order = (a, b) -> {
      int by = Double.compare(a.cost(), b.cost());
      if (by == 0) {
        by = Integer.compare(nodeRank[a.unit()], nodeRank[b.unit()]);
      }
      if (by == 0) {
        by = Integer.compare(nodeOrder[a.unit()], nodeOrder[b.unit()]);
      }
      return by != 0 ? by : Integer.compare(a.clusterIndex(), b.clusterIndex());
    };
    // whole GPUs only: each GPU is one unit, so the order is total and a sort by primitive keys gives it exactly
    int[] unitAtCluster = sharing ? null : new int[c.cluster.gpus().size()];
    for (List<FreeGpu> gpus : byShape.values()) {
      if (unitAtCluster == null || !sortByKeys(gpus, nodeRank, nodeOrder, unitAtCluster, units)) {
        gpus.sort(order);
      }
    }
    return order;
  }

  /** Bits of each part of a {@link #sortByKeys} key: 17 + 12 + 17 + 17 = 63, so keys stay positive. */
  private static final int INDEX_BITS = 17;
  private static final int RANK_BITS = 12;

  /**
   * Sorts {@code gpus}, whole units of one shape (one per GPU), into the order of {@code place}'s
   * comparator (cost, node rank, node order, cluster index) by sorting packed primitive keys: the
   * cost's rank among the distinct costs, then the other parts. Returns false, touching nothing,
   * when a part does not fit its bits. A comparator sort of thousands of units was a fifth of a
   * decision on 10 000 GPUs.
   */
  private static boolean sortByKeys(List<FreeGpu> gpus, int[] nodeRank, int[] nodeOrder, int[] unitAtCluster, List<FreeGpu> units) {
    int n = gpus.size();
    double[] distinct = new double[n];
    for (int i = 0; i < n; i++) {
      distinct[i] = gpus.get(i).cost();
    }
    java.util.Arrays.sort(distinct); // the order of Double.compare, as the comparator's
    int d = 0;
    for (int i = 0; i < n; i++) {
      if (d == 0 || Double.compare(distinct[d - 1], distinct[i]) != 0) {
        distinct[d++] = distinct[i];
      }
    }
    long[] keys = new long[n];
    int rankBias = 1 << (RANK_BITS - 1);
    for (int i = 0; i < n; i++) {
      FreeGpu g = gpus.get(i);
      long costRank = d == 1 ? 0 : java.util.Arrays.binarySearch(distinct, 0, d, g.cost());
      int rank = nodeRank[g.unit()] + rankBias;
      int node = nodeOrder[g.unit()];
      int index = g.clusterIndex();
      if (costRank >= 1 << INDEX_BITS || rank < 0 || rank >= 1 << RANK_BITS || node >= 1 << INDEX_BITS || index >= 1 << INDEX_BITS) {
        return false;
      }
      keys[i] = costRank << (RANK_BITS + 2 * INDEX_BITS) | (long) rank << (2 * INDEX_BITS) | (long) node << INDEX_BITS | index;
      unitAtCluster[index] = g.unit();
    }
    java.util.Arrays.sort(keys);
    for (int i = 0; i < n; i++) {
      gpus.set(i, units.get(unitAtCluster[(int) (keys[i] & ((1 << INDEX_BITS) - 1))]));
    }
    return true;
  }

  /**
   * The {@code m} cheapest of {@code units}, one stage each, for {@code m ≤ maxStages}; a GPU
   * offering several units counts once, at its cheapest (one slot per GPU).
   */
  private static void addCheapest(List<Candidate> candidates, List<FreeGpu> units, Comparator<FreeGpu> order, int maxStages,
      boolean shared) {
    // the first maxStages of the sorted units (of a GPU, its first unit only), selected in one pass:
    // sorting thousands of units for at most maxStages of them was a tenth of a shared decision
    List<FreeGpu> all = new ArrayList<>(maxStages + 1);
    for (FreeGpu g : units) {
      if (all.size() == maxStages && order.compare(g, all.get(maxStages - 1)) >= 0) {
        continue; // neither this unit nor any later unit of its GPU that is worse can enter
      }
      if (shared) {
        int same = indexOfGpu(all, g.id());
        if (same >= 0) {
          if (order.compare(g, all.get(same)) >= 0) {
            continue; // its GPU is in with a unit at least as good, which a stable sort keeps first
          }
          all.remove(same);
        }
      }
      int at = all.size();
      while (at > 0 && order.compare(g, all.get(at - 1)) < 0) {
        at--;
      }
      all.add(at, g);
      if (all.size() > maxStages) {
        all.remove(maxStages);
      }
    }
    double prefix = 0;
    for (int m = 1; m <= Math.min(maxStages, all.size()); m++) {
      prefix += all.get(m - 1).cost();
      candidates.add(new Candidate(prefix, m, all, 1, shared));
    }
  }

  private static int indexOfGpu(List<FreeGpu> units, String gpu) {
    for (int i = 0; i < units.size(); i++) {
      if (units.get(i).id().equals(gpu)) {
        return i;
      }
    }
    return -1;
  }

  private static long weightsOnly(PlacementContext c) {
    long sum = 0;
    for (int l = 0; l < c.model.size(); l++) {
      sum += c.model.layer(l).weightBytes();
    }
    return sum;
  }

  /**
   * Transfers matter when they are charged at all and shipping the largest cut over the network
   * takes more than 1 % of the model's compute on the slowest of {@code freeTypes} (the types of the
   * free units).
   */
  static boolean transfersMatter(PlacementContext c, List<GpuType> freeTypes) {
    if (c.performance.transferMode() == TransferMode.NONE || c.model.size() < 2) {
      return false;
    }
    long largestCut = 0;
    for (int cut = 1; cut < c.model.size(); cut++) {
      largestCut = Math.max(largestCut, c.model.cutBytesPerSample(cut));
    }
    double transfer = c.cluster.network().transferSeconds((double) c.batch * largestCut);
    double compute = 0;
    for (GpuType type : freeTypes) {
      compute = Math.max(compute, c.modelSeconds(type));
    }
    return transfer > 0.01 * compute;
  }

  /**
   * Orders {@code gpus} node by node (nodes in order of their first GPU) and cuts them into groups
   * of {@code r}, so consecutive stages share nodes. Groups of mixed types (only possible with
   * {@code r = 1}) are fine: one GPU is one type.
   */
  static List<List<FreeGpu>> groupsOf(List<FreeGpu> gpus, int r) {
    Map<String, List<FreeGpu>> byNode = new LinkedHashMap<>();
    for (FreeGpu g : gpus) {
      byNode.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(g);
    }
    List<FreeGpu> ordered = new ArrayList<>(gpus.size());
    byNode.values().forEach(ordered::addAll);
    List<List<FreeGpu>> groups = new ArrayList<>();
    for (int i = 0; i + r <= ordered.size(); i += r) {
      groups.add(List.copyOf(ordered.subList(i, i + r)));
    }
    return groups;
  }
}
