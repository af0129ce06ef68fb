package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.heuristics.split.PeriodSplitters;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.DeviceKind;
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
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.strategy.support.StageFloor;
import org.rampa.strategy.SharingOptions;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/**
 * Everything one placement decision computes once: the free GPUs and their costs, per-type layer
 * times, and the evaluation of candidate GPU groups (split, predict, check memory and the SLO).
 * Confined to one thread and one call; what depends on the model, batch, performance model and GPU
 * types alone is kept across placements ({@link LayerMemo}).
 */
final class PlacementContext {

  final PlacementProblem problem;
  final ServiceRequest request;
  final Model model;
  final Cluster cluster;
  final PerformanceModel performance;
  final GpuCosts costs;
  final int batch;
  /** Built on first use: greedy on type-priced GPUs reads the capacity's flags instead ({@link WholeGpuClasses}). */
  private List<FreeGpu> free;
  private final PeriodSplitter splitter = PeriodSplitters.exact();
  private final LayerMemo memo;
  private PlanVerifier verifier;
  private long candidatesEvaluated;
  /** Why the last candidate was rejected, formatted only when asked: most of thousands of candidates are rejected silently. */
  private Supplier<String> lastRejection = () -> "";

  PlacementContext(PlacementProblem problem) {
    this.problem = problem;
    this.request = problem.request();
    this.model = request.model();
    this.cluster = problem.state().cluster();
    this.performance = problem.performance();
    this.costs = problem.importance().evaluate(problem.state());
    this.batch = request.slo().batchSize();
    this.memo = LayerMemo.of(performance, model, batch, cluster);
  }

  /**
   * What placements of one model at one batch size under one performance model (an equal one: a
   * placement with sharing on builds its own), on clusters of the same GPU types (the very same type
   * objects), compute alike: layer times by GPU type and by
   * placement shape, a stage kind's per-replica times, cut times by link, cost tables and min-period splits. Each is a
   * function of those alone, so it is kept across placements: a mover places one request on many
   * states of one cluster (and on parts of it), and a scheduler places requests of one model again
   * and again; on a full 1000-GPU cluster building them anew was about a quarter of a placement. The
   * {@link #RECENT} memos are kept, the oldest dropped first; a memo's maps are emptied when they
   * grow past {@link #LIMIT} entries (α and memory caps take many values over a long run). Safe to share between threads.
   */
  static final class LayerMemo {
    static final int RECENT = 8;
    static final int LIMIT = 4096;
    private static final List<LayerMemo> MEMOS = new ArrayList<>();

    private final PerformanceModel performance;
    private final Model model;
    private final int batch;
    private final List<GpuType> types;
    final Map<String, double[]> layerSecondsByType = new ConcurrentHashMap<>();
    final Map<String, double[]> layerSecondsByShape = new ConcurrentHashMap<>();
    /** {@link StageFloor#stageSecondsAlone} by placement shape: every stage's time alone, for the latency floor. */
    final Map<String, double[][]> stageSecondsByShape = new ConcurrentHashMap<>();
    final Map<String, List<Double>> layerTimesByKind = new ConcurrentHashMap<>();
    final Map<Link, List<Double>> cutTimesByLink = new ConcurrentHashMap<>();
    final Map<TableKey, LayerCostTable> tables = new ConcurrentHashMap<>();
    private volatile LayerMemory layerMemory;

    /** The min-period splits of {@link PlacementContext#split}, by everything the splitter reads. */
    final Map<SplitKey, SplitResult> splits = new ConcurrentHashMap<>();

    /** A cost table's kinds (their names in order) and link. */
    record TableKey(String kinds, Link link) {}

    /** A split problem on the table of {@code table}: its devices, whether some may stay unused, transfers and memory caps. */
    record SplitKey(TableKey table, List<String> devices, boolean allowUnused, TransferMode transfers, List<Long> memoryCaps) {}

    private LayerMemo(PerformanceModel performance, Model model, int batch, List<GpuType> types) {
      this.performance = performance;
      this.model = model;
      this.batch = batch;
      this.types = types;
    }

    LayerMemory layerMemory() {
      LayerMemory m = layerMemory;
      if (m == null) {
        m = PerformanceModel.layerMemory(model, batch);
        layerMemory = m;
      }
      return m;
    }

    static LayerMemo of(PerformanceModel performance, Model model, int batch, Cluster cluster) {
      synchronized (MEMOS) {
        for (LayerMemo m : MEMOS) {
          if (m.performance.equals(performance) && m.model == model && m.batch == batch && sameObjects(m.types, cluster.gpuTypes())) {
            if (m.tables.size() + m.splits.size() + m.layerTimesByKind.size() + m.layerSecondsByShape.size() + m.stageSecondsByShape.size() > LIMIT) {
              m.stageSecondsByShape.clear();
              m.tables.clear();
              m.splits.clear();
              m.layerTimesByKind.clear();
              m.layerSecondsByShape.clear();
            }
            return m;
          }
        }
        LayerMemo m = new LayerMemo(performance, model, batch, List.copyOf(cluster.gpuTypes()));
        if (MEMOS.size() == RECENT) {
          MEMOS.remove(0);
        }
        MEMOS.add(m);
        return m;
      }
    }

    private static boolean sameObjects(List<GpuType> a, List<GpuType> b) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (a.get(i) != b.get(i)) {
          return false;
        }
      }
      return true;
    }
  }

  /** The GPUs a new stage may take whole, one unit each, in cluster order. */
  List<FreeGpu> free() {
    if (free != null) {
      return free;
    }
    Capacity capacity = problem.state().capacity();
    List<Gpu> gpus = cluster.gpus();
    FreeGpu[] list = new FreeGpu[capacity.count()];
    int n = 0;
    GpuType type = null;
    // one pass over flags, prices by GPU rather than by id, and the type looked up when it changes:
    // a large cluster has thousands of free GPUs and this runs for every decision
    for (int i = 0; i < gpus.size(); i++) {
      if (capacity.containsAt(i)) {
        Gpu g = gpus.get(i);
        if (type == null || !type.name().equals(g.type())) {
          type = cluster.type(g.type());
        }
        // nobody holds any part of a GPU a new stage may take whole: all of its memory is free
        list[n] = FreeGpu.whole(g, type, costs.ofGpu(g), i, type.memoryBytes(), n);
        n++;
      }
    }
    free = List.of(list);
    return free;
  }

  /**
   * What stage replicas may take under {@code sharing}: {@link #free} when it is off; when on, the
   * free GPUs whole (the same units, first, in the same order) followed by every other slot of the
   * {@link SharedSlotMenu}, one unit per GPU and slot.
   */
  List<FreeGpu> units(SharingOptions sharing) {
    if (!sharing.enabled()) {
      return free();
    }
    Map<String, FreeGpu> freeById = new HashMap<>();
    for (FreeGpu g : free()) {
      freeById.put(g.id(), g);
    }
    List<FreeGpu> units = new ArrayList<>(free());
    for (SharedSlotMenu.Slot slot : SharedSlotMenu.of(problem, sharing, costs).slots()) {
      if (slot.placement() instanceof Whole) {
        continue; // already there, as the free GPUs
      }
      String shape = slot.shape();
      for (int i = 0; i < slot.gpus().size(); i++) {
        String id = slot.gpus().get(i);
        FreeGpu whole = freeById.get(id);
        // the cluster's own index, rather than a map of all its GPUs built anew for every placement
        int clusterIndex = whole != null ? whole.clusterIndex() : cluster.indexOf(id);
        units.add(new FreeGpu(cluster.gpus().get(clusterIndex), slot.type(), slot.costs().get(i), clusterIndex, slot.placement(), shape,
            slot.alpha(), slot.memoryCapBytes(), units.size()));
      }
    }
    return List.copyOf(units);
  }

  private static Supplier<String> rejection(String reason) {
    return () -> reason;
  }

  long candidatesEvaluated() {
    return candidatesEvaluated;
  }

  String lastRejection() {
    return lastRejection.get();
  }

  /** t(l, type, b) for every layer. */
  double[] layerSeconds(GpuType type) {
    return memo.layerSecondsByType.computeIfAbsent(type.name(), k -> {
      double[] t = new double[model.size()];
      for (int l = 0; l < t.length; l++) {
        t[l] = performance.layerSeconds(model.layer(l), type, batch);
      }
      return t;
    });
  }

  /** Per layer, the time alone on {@code unit}'s type and placement (the whole-GPU times for a whole GPU). */
  double[] layerSeconds(FreeGpu unit) {
    if (unit.isWhole()) {
      return layerSeconds(unit.type());
    }
    return memo.layerSecondsByShape.computeIfAbsent(unit.shape(), k -> {
      DeviceKind kind = DeviceKind.of(unit.type(), unit.placement());
      double[] t = new double[model.size()];
      for (int l = 0; l < t.length; l++) {
        t[l] = performance.cursor(model, batch, l, List.of(kind)).add().seconds(0);
      }
      return t;
    });
  }

  /** Every stage's time alone on {@code kind} (of placement shape {@code shape}), memoized: see {@link StageFloor#stageSecondsAlone}. */
  double[][] stageSecondsAlone(String shape, DeviceKind kind) {
    return memo.stageSecondsByShape.computeIfAbsent(shape, k -> StageFloor.stageSecondsAlone(performance, model, batch, kind));
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
    return evaluateRanges(groups, ranges, strategy);
  }

  /**
   * As {@link #evaluate} for a split already made: {@code ranges} are {from, to, group index} in
   * pipeline order.
   */
  Optional<Plan> evaluateRanges(List<List<FreeGpu>> groups, List<int[]> ranges, String strategy) {
    List<StageAssignment> assignments = new ArrayList<>(ranges.size());
    List<Double> slowdowns = new ArrayList<>(ranges.size());
    List<Long> caps = new ArrayList<>(ranges.size());
    boolean shared = false;
    double cost = 0;
    for (int[] range : ranges) {
      List<FreeGpu> group = groups.get(range[2]);
      List<String> ids = new ArrayList<>(group.size());
      for (FreeGpu g : group) {
        ids.add(g.id());
        cost += g.cost();
      }
      FreeGpu first = group.get(0);
      if (first.isWhole()) {
        assignments.add(StageAssignment.whole(range[0], range[1], ids));
      } else {
        shared = true;
        long memory = performance.stageMemoryBytes(model, range[0], range[1], batch);
        // a reserving placement's reservation is its slot's cap; the stage reserves its own memory within it
        Placement p = SharedSlotMenu.withReservation(first.placement(), Math.min(memory, first.memoryCapBytes()));
        assignments.add(new StageAssignment(range[0], range[1], ids, p));
      }
      slowdowns.add(alpha(group));
      caps.add(memoryCap(group));
    }
    return shared ? checkShared(assignments, cost, strategy, slowdowns, caps) : check(assignments, cost, strategy);
  }

  /**
   * As {@link #check} for a plan holding shares: predicts with each stage slowed by its α, checks
   * each stage's memory against its slots' caps and the SLO, and then (as the plan changes its
   * neighbours' times) runs the verifier, interference rule included, so a share the incumbents
   * cannot take is a rejected candidate here and never a rejected plan at the verifying step.
   */
  private Optional<Plan> checkShared(List<StageAssignment> assignments, double cost, String strategy, List<Double> slowdowns, List<Long> caps) {
    PlanEstimate e = performance.estimate(request, assignments, cluster, slowdowns);
    for (int i = 0; i < assignments.size(); i++) {
      if (e.stageMemoryBytes().get(i) > caps.get(i)) {
        lastRejection = rejection("stage [" + assignments.get(i).from() + ", " + assignments.get(i).to() + ") needs " + e.stageMemoryBytes().get(i)
            + " B, its slots hold " + caps.get(i) + " B");
        return Optional.empty();
      }
    }
    if (!SloPredicate.meets(e, request.slo())) {
      lastRejection = () -> String.format("with co-runners: throughput %.4g req/s (needs %.4g), latency %.4g s (bound %.4g s)",
          e.throughput(), request.slo().requiredThroughput(), e.latencySeconds(), request.slo().latencyBoundSeconds());
      return Optional.empty();
    }
    Plan plan = performance.plan(request, assignments, cluster, cost, strategy);
    if (verifier == null) {
      verifier = new PlanVerifier(performance, problem.interference());
    }
    Verification v = verifier.verify(request, plan, problem.state());
    if (!v.ok()) {
      lastRejection = rejection("the verifier refuses it: " + v.violations().get(0).message());
      return Optional.empty();
    }
    return Optional.of(plan);
  }

  private static double alpha(List<FreeGpu> group) {
    double alpha = 1;
    for (FreeGpu g : group) {
      alpha = Math.max(alpha, g.alpha());
    }
    return alpha;
  }

  private static long memoryCap(List<FreeGpu> group) {
    long cap = Long.MAX_VALUE;
    for (FreeGpu g : group) {
      cap = Math.min(cap, g.memoryCapBytes());
    }
    return cap;
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
          lastRejection = rejection("stage [" + assignments.get(i).from() + ", " + assignments.get(i).to() + ") needs " + need
              + " B, GPU " + g + " has " + problem.state().freeMemoryBytes(g) + " B free");
          return Optional.empty();
        }
      }
    }
    if (!SloPredicate.meetsThroughput(e.throughput(), request.slo())) {
      lastRejection = () -> String.format("throughput %.4g req/s < required %.4g req/s", e.throughput(), request.slo().requiredThroughput());
      return Optional.empty();
    }
    if (!SloPredicate.meetsLatency(e.latencySeconds(), request.slo())) {
      lastRejection = () -> String.format("latency %.4g s > bound %.4g s", e.latencySeconds(), request.slo().latencyBoundSeconds());
      return Optional.empty();
    }
    return Optional.of(performance.plan(request, assignments, cluster, cost, strategy));
  }

  /** A split's stages as {from, to, group index}, or null (with the reason kept) when it is infeasible. */
  private List<int[]> stageRanges(SplitResult r) {
    if (!r.feasible()) {
      lastRejection = rejection(r.reason());
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
        lastRejection = rejection(k + " stages for " + layers + " layers");
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
          FreeGpu first = group.get(0);
          double alpha = alpha(group);
          String kind = first.shape() + "x" + group.size() + (alpha == 1 ? "" : "@" + alpha);
          kinds.computeIfAbsent(kind, x -> kindTimes(first, alpha, group.size()));
          devices.add(kind);
        }
        Link link = linkFor(groups);
        LayerMemo.TableKey key = new LayerMemo.TableKey(String.join("\u0000", kinds.keySet()), link);
        LayerCostTable table = memo.tables.computeIfAbsent(key, x -> newTable(kinds, link));
        List<Long> caps = memoryCaps(groups);
        // candidates of equal kinds, link and caps recur within a decision and across a mover's placements: split once
        SplitResult r = memo.splits.computeIfAbsent(new LayerMemo.SplitKey(key, devices, allowUnusedGroups, performance.transferMode(), caps),
            x -> splitter.split(new SplitProblem(table, devices, allowUnusedGroups, performance.transferMode(), caps)));
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
      caps.add(memoryCap(group));
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
    return memo.layerTimesByKind.computeIfAbsent(type.name() + "x" + replicas, k -> perReplica(layerSeconds(type), 1, replicas));
  }

  /** As {@link #kindTimes(GpuType, int)} on {@code unit}'s placement, each layer slowed by {@code alpha}. */
  private List<Double> kindTimes(FreeGpu unit, double alpha, int replicas) {
    if (unit.isWhole() && alpha == 1) {
      return kindTimes(unit.type(), replicas);
    }
    return memo.layerTimesByKind.computeIfAbsent(unit.shape() + "x" + replicas + "@" + alpha,
        k -> perReplica(layerSeconds(unit), alpha, replicas));
  }

  private static List<Double> perReplica(double[] t, double alpha, int replicas) {
    List<Double> list = new ArrayList<>(t.length);
    for (double x : t) {
      list.add(alpha == 1 ? x / replicas : x * alpha / replicas);
    }
    return List.copyOf(list);
  }

  private LayerCostTable table(Map<String, List<Double>> kinds, Link link) {
    // the same kinds on the same link recur across a decision's candidates (k stages of r replicas
    // of one type): the table's validating copy of every layer time is built once for them
    return memo.tables.computeIfAbsent(new LayerMemo.TableKey(String.join("\u0000", kinds.keySet()), link), k -> newTable(kinds, link));
  }

  private LayerCostTable newTable(Map<String, List<Double>> kinds, Link link) {
    int layers = model.size();
    List<Double> cuts = memo.cutTimesByLink.computeIfAbsent(link, x -> {
      List<Double> list = new ArrayList<>(layers + 1);
      for (int c = 0; c <= layers; c++) {
        list.add(c == 0 || c == layers ? 0.0 : performance.transferSeconds(model, c, batch, link));
      }
      return List.copyOf(list);
    });
    return new LayerCostTable("s", kinds, cuts, memo.layerMemory().additiveBytes(), memo.layerMemory().peakBytes(), List.of());
  }
}
