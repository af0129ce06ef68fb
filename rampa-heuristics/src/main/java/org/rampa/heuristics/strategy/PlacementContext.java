package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.heuristics.split.PeriodSplitters;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.LayerMemory;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.PeriodSplitter;
import org.rampa.split.SplitProblem;
import org.rampa.split.SplitResult;
import org.rampa.split.SplitStage;
import org.rampa.strategy.PlacementProblem;

/**
 * Everything one placement decision computes once: the free GPUs and their costs, per-type layer
 * times, and the evaluation of candidate GPU groups (split, predict, check memory and the SLO).
 * Confined to one thread and one call.
 */
final class PlacementContext {

  final PlacementProblem problem;
  final ServiceRequest request;
  final Model model;
  final Cluster cluster;
  final PerformanceModel performance;
  final GpuCosts costs;
  final int batch;
  final List<FreeGpu> free;
  private final PeriodSplitter splitter = PeriodSplitters.exact();
  private final Map<String, List<Double>> layerTimesByKind = new HashMap<>();
  private final Map<String, double[]> layerSecondsByType = new HashMap<>();
  private final Map<String, List<Double>> cutTimesByLink = new HashMap<>();
  private LayerMemory layerMemory;
  private long candidatesEvaluated;
  private String lastRejection = "";

  PlacementContext(PlacementProblem problem) {
    this.problem = problem;
    this.request = problem.request();
    this.model = request.model();
    this.cluster = problem.state().cluster();
    this.performance = problem.performance();
    this.costs = problem.importance().evaluate(problem.state());
    this.batch = request.slo().batchSize();
    List<FreeGpu> list = new ArrayList<>();
    Capacity capacity = problem.state().capacity();
    List<Gpu> gpus = cluster.gpus();
    for (int i = 0; i < gpus.size(); i++) {
      Gpu g = gpus.get(i);
      if (capacity.contains(g.id())) {
        list.add(new FreeGpu(g, cluster.type(g.type()), costs.of(g.id()), i));
      }
    }
    this.free = List.copyOf(list);
  }

  long candidatesEvaluated() {
    return candidatesEvaluated;
  }

  String lastRejection() {
    return lastRejection;
  }

  /** t(l, type, b) for every layer. */
  double[] layerSeconds(GpuType type) {
    return layerSecondsByType.computeIfAbsent(type.name(), k -> {
      double[] t = new double[model.size()];
      for (int l = 0; l < t.length; l++) {
        t[l] = performance.layerSeconds(model.layer(l), type, batch);
      }
      return t;
    });
  }

  double modelSeconds(GpuType type) {
    double sum = 0;
    for (double t : layerSeconds(type)) {
      sum += t;
    }
    return sum;
  }

  /**
   * Splits the model over {@code groups} (each: replicas of one type, in pipeline order) by
   * {@code rule}, predicts, and returns the plan if it fits and meets the SLO. With
   * {@code allowUnusedGroups} the min-period split may leave groups out; they are then not part of
   * the plan and cost nothing.
   */
  Optional<Plan> evaluate(List<List<FreeGpu>> groups, SplitRule rule, boolean allowUnusedGroups, String strategy) {
    candidatesEvaluated++;
    List<int[]> ranges = split(groups, rule, allowUnusedGroups);
    if (ranges == null) {
      return Optional.empty();
    }
    List<StageAssignment> assignments = new ArrayList<>(ranges.size());
    double cost = 0;
    for (int[] range : ranges) {
      List<FreeGpu> group = groups.get(range[2]);
      List<String> ids = new ArrayList<>(group.size());
      for (FreeGpu g : group) {
        ids.add(g.id());
        cost += g.cost();
      }
      assignments.add(StageAssignment.whole(range[0], range[1], ids));
    }
    return check(assignments, cost, strategy);
  }

  /**
   * Predicts {@code assignments}; returns the plan when it fits the free memory and meets the SLO
   * (the cheap check; the verifying step checks the returned plan once, outside the search).
   */
  Optional<Plan> check(List<StageAssignment> assignments, double cost, String strategy) {
    PlanEstimate e = performance.estimate(request, assignments, cluster);
    for (int i = 0; i < assignments.size(); i++) {
      long need = e.stageMemoryBytes().get(i);
      for (String g : assignments.get(i).gpus()) {
        if (need > problem.state().freeMemoryBytes(g)) {
          lastRejection = "stage [" + assignments.get(i).from() + ", " + assignments.get(i).to() + ") needs " + need
              + " B, GPU " + g + " has " + problem.state().freeMemoryBytes(g) + " B free";
          return Optional.empty();
        }
      }
    }
    if (!SloPredicate.meetsThroughput(e.throughput(), request.slo())) {
      lastRejection = String.format("throughput %.4g req/s < required %.4g req/s", e.throughput(), request.slo().requiredThroughput());
      return Optional.empty();
    }
    if (!SloPredicate.meetsLatency(e.latencySeconds(), request.slo())) {
      lastRejection = String.format("latency %.4g s > bound %.4g s", e.latencySeconds(), request.slo().latencyBoundSeconds());
      return Optional.empty();
    }
    return Optional.of(performance.plan(request, assignments, cluster, cost, strategy));
  }

  /** A split's stages as {from, to, group index}, or null (with the reason kept) when it is infeasible. */
  private List<int[]> stageRanges(SplitResult r) {
    if (!r.feasible()) {
      lastRejection = r.reason();
      return null;
    }
    List<int[]> ranges = new ArrayList<>(r.stages().size());
    for (SplitStage s : r.stages()) {
      ranges.add(new int[] {s.from(), s.to(), s.device()});
    }
    return ranges;
  }

  /** Ranges as {from, to, group index}, or null when the rule finds no split that fits. */
  private List<int[]> split(List<List<FreeGpu>> groups, SplitRule rule, boolean allowUnusedGroups) {
    int layers = model.size();
    int k = groups.size();
    if (rule != SplitRule.MIN_PERIOD || !allowUnusedGroups) {
      if (k > layers) {
        lastRejection = k + " stages for " + layers + " layers";
        return null;
      }
    }
    switch (rule) {
      case EVEN_LAYERS: {
        List<int[]> ranges = new ArrayList<>(k);
        int from = 0;
        for (int j = 0; j < k; j++) {
          int to = (int) ((long) layers * (j + 1) / k);
          ranges.add(new int[] {from, to, j});
          from = to;
        }
        return ranges;
      }
      case COMPUTE_BALANCED: {
        GpuType reference = groups.get(0).get(0).type();
        LayerCostTable table = table(Map.of(reference.name(), kindTimes(reference, 1)), cluster.network());
        SplitResult r = splitter.split(SplitProblem.onDevices(table, java.util.Collections.nCopies(k, reference.name()), TransferMode.NONE)
            .withMemoryCaps(memoryCaps(groups)));
        return stageRanges(r);
      }
      case MIN_PERIOD: {
        Map<String, List<Double>> kinds = new LinkedHashMap<>();
        List<String> devices = new ArrayList<>(k);
        for (List<FreeGpu> group : groups) {
          GpuType type = group.get(0).type();
          String kind = type.name() + "x" + group.size();
          kinds.computeIfAbsent(kind, x -> kindTimes(type, group.size()));
          devices.add(kind);
        }
        LayerCostTable table = table(kinds, linkFor(groups));
        SplitResult r = splitter.split(
            new SplitProblem(table, devices, allowUnusedGroups, performance.transferMode(), memoryCaps(groups)));
        return stageRanges(r);
      }
      default:
        throw new IllegalStateException("unknown split rule " + rule);
    }
  }

  /** Per group, the least free memory among its GPUs. */
  private List<Long> memoryCaps(List<List<FreeGpu>> groups) {
    List<Long> caps = new ArrayList<>(groups.size());
    for (List<FreeGpu> group : groups) {
      long cap = Long.MAX_VALUE;
      for (FreeGpu g : group) {
        cap = Math.min(cap, problem.state().freeMemoryBytes(g.id()));
      }
      caps.add(cap);
    }
    return caps;
  }

  /**
   * The link the split charges at every cut: the node's own link when all groups share one node,
   * else the network. The final prediction uses the real link of each cut.
   */
  private Link linkFor(List<List<FreeGpu>> groups) {
    String node = groups.get(0).get(0).node();
    for (List<FreeGpu> group : groups) {
      for (FreeGpu g : group) {
        if (!g.node().equals(node)) {
          return cluster.network();
        }
      }
    }
    return cluster.node(node).intraLink();
  }

  /** Layer times of a stage with {@code replicas} replicas of {@code type}: its busy time per batch. */
  private List<Double> kindTimes(GpuType type, int replicas) {
    return layerTimesByKind.computeIfAbsent(type.name() + "x" + replicas, k -> {
      double[] t = layerSeconds(type);
      List<Double> list = new ArrayList<>(t.length);
      for (double x : t) {
        list.add(x / replicas);
      }
      return List.copyOf(list);
    });
  }

  private LayerCostTable table(Map<String, List<Double>> kinds, Link link) {
    int layers = model.size();
    List<Double> cuts = cutTimesByLink.computeIfAbsent(link.name(), x -> {
      List<Double> list = new ArrayList<>(layers + 1);
      for (int c = 0; c <= layers; c++) {
        list.add(c == 0 || c == layers ? 0.0 : performance.transferSeconds(model, c, batch, link));
      }
      return List.copyOf(list);
    });
    if (layerMemory == null) {
      layerMemory = PerformanceModel.layerMemory(model, batch);
    }
    return new LayerCostTable("s", kinds, cuts, layerMemory.additiveBytes(), layerMemory.peakBytes(), List.of());
  }
}
