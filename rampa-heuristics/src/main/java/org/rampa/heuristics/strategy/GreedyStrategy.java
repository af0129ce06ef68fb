package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
import org.rampa.strategy.TimeBudget;

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
 * the slots of {@link org.rampa.strategy.SharedSlotMenu} as well (MPS shares of free and partly
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

  /** A node's order of first appearance among the units, and its units per placement shape (a node has few shapes). */
  private static final class NodeTally {
    final int order;
    private String[] shapes = new String[2];
    private int[] counts = new int[2];
    private int size;

    NodeTally(int order) {
      this.order = order;
    }

    void add(String shape) {
      for (int i = 0; i < size; i++) {
        if (shapes[i].equals(shape)) {
          counts[i]++;
          return;
        }
      }
      if (size == shapes.length) {
        shapes = java.util.Arrays.copyOf(shapes, 2 * size);
        counts = java.util.Arrays.copyOf(counts, 2 * size);
      }
      shapes[size] = shape;
      counts[size++] = 1;
    }

    int count(String shape) {
      for (int i = 0; i < size; i++) {
        if (shapes[i].equals(shape)) {
          return counts[i];
        }
      }
      return 0;
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
    TimeBudget budget = TimeBudget.start(problem);
    GreedyOptions options = GreedyOptions.of(problem.options());
    PlacementContext c = new PlacementContext(problem);
    boolean sharing = options.sharing().enabled();
    // the necessary conditions count whole free GPUs only: with sharing they prove nothing
    String obvious = sharing ? "" : Infeasibility.obviousReason(c);
    if (!obvious.isEmpty()) {
      return Results.infeasible(NAME, obvious, budget, Map.of("candidatesEvaluated", 0.0));
    }
    List<FreeGpu> units = c.units(options.sharing());
    int maxReplicas = options.maxReplicas();
    int maxCandidates = options.maxCandidates();
    boolean transfersMatter = transfersMatter(c, units);
    // sort keys computed once: cost, then (co-location or best fit) the node's free GPUs of the shape;
    // one lookup per unit by node id (a record key per unit was a tenth of a decision on 10 000 GPUs)
    Map<String, NodeTally> byNode = new HashMap<>();
    NodeTally[] tallyOf = new NodeTally[units.size()];
    for (FreeGpu g : units) {
      NodeTally t = byNode.get(g.node());
      if (t == null) {
        t = new NodeTally(byNode.size());
        byNode.put(g.node(), t);
      }
      t.add(g.shape());
      tallyOf[g.unit()] = t;
    }
    int[] nodeRank = new int[units.size()];
    int[] nodeOrder = new int[units.size()];
    for (FreeGpu g : units) {
      NodeTally t = tallyOf[g.unit()];
      int free = t.count(g.shape());
      nodeRank[g.unit()] = transfersMatter ? -free : free;
      nodeOrder[g.unit()] = t.order;
    }
    // equal cost: GPUs of one node together (fuller or emptier nodes first), then cluster order; one
    // comparator rather than a chain of key extractors, as units are sorted by the thousand per decision
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

    List<Candidate> candidates = new ArrayList<>();
    Map<String, List<FreeGpu>> byShape = new LinkedHashMap<>();
    for (FreeGpu g : units) {
      byShape.computeIfAbsent(g.shape(), k -> new ArrayList<>()).add(g);
    }
    int layers = c.model.size();
    int maxStages = Math.min(c.request.maxStages(), layers);
    double latencyBudget = SloPredicate.latencyBudgetSeconds(c.request.slo());
    long weights = weightsOnly(c);
    for (List<FreeGpu> gpus : byShape.values()) {
      gpus.sort(order);
      FreeGpu first = gpus.get(0);
      // a share is never faster than its whole GPU, so the whole GPU's time bounds every shape of the
      // type from below, and a shape's own times are computed only when one of its sets is evaluated
      double modelSeconds = c.modelSeconds(first.type());
      if (modelSeconds > latencyBudget) {
        continue; // a request passes every layer on this type: no split can meet the latency bound
      }
      long memory = first.isWhole() ? first.type().memoryBytes() : gpus.stream().mapToLong(FreeGpu::memoryCapBytes).max().orElse(0);
      double[] prefixCost = new double[gpus.size() + 1];
      for (int i = 0; i < gpus.size(); i++) {
        prefixCost[i + 1] = prefixCost[i] + gpus.get(i).cost();
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
    addCheapest(candidates, c.free.size() == units.size() ? units : units.subList(0, c.free.size()), order, maxStages, false);
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
          + (sharing ? " (" + (units.size() - c.free.size()) + " shared slots besides " + c.free.size() + " whole free GPUs)" : "");
      return Results.noPlanFound(NAME, Infeasibility.afterSearch(c, searched), budget, stats);
    }
    return Results.withPlan(NAME, SolveStatus.FEASIBLE, best, "cheapest GPU set on which the min-period split meets the SLO", budget, stats);
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
   * takes more than 1 % of the model's compute on the slowest free GPU type.
   */
  private static boolean transfersMatter(PlacementContext c, List<FreeGpu> units) {
    if (c.performance.transferMode() == TransferMode.NONE || c.model.size() < 2) {
      return false;
    }
    long largestCut = 0;
    for (int cut = 1; cut < c.model.size(); cut++) {
      largestCut = Math.max(largestCut, c.model.cutBytesPerSample(cut));
    }
    double transfer = c.cluster.network().transferSeconds((double) c.batch * largestCut);
    double compute = 0;
    java.util.Set<String> seen = new java.util.HashSet<>();
    GpuType last = null;
    for (FreeGpu g : units) {
      // per type, not per unit: modelSeconds is the same for every GPU of a type (which come in runs)
      if (g.type() != last) {
        last = g.type();
        if (seen.add(last.name())) {
          compute = Math.max(compute, c.modelSeconds(last));
        }
      }
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
