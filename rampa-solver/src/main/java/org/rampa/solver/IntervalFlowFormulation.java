package org.rampa.solver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.perf.WholeGpu;
import org.rampa.solver.LinearModel.Term;

/**
 * The interval/flow MILP of SPEC section 5 for one placement problem, and the translation of a
 * solution back to concrete GPUs.
 *
 * <h2>Variables</h2>
 *
 * <ul>
 *   <li>{@code x[a]} (binary) for each <em>arc</em> {@code a = (i, j, type, r, where)}: layers
 *       {@code [i, j)} form one stage on {@code r} free GPUs of {@code type}. A plan is a path of arcs
 *       from boundary {@code 0} to boundary {@code L}. Only arcs that fit in memory and meet the
 *       period {@code P = b / lambda} are generated, and for each (i, j, type, where) only the
 *       <em>least</em> replica count that meets the period: more replicas never shorten latency or
 *       transfers, and cost no less (costs are never negative), so they are dominated.
 *   <li>{@code where} is either the <em>network</em> (the stage's GPUs may lie anywhere) or a
 *       <em>slot</em>: one concrete node on which a run of consecutive stages sits together.
 *   <li>{@code z[j][slot]} (binary): the stages on both sides of cut {@code j} sit on that slot's node,
 *       so cut {@code j} uses the node's intra link instead of the network.
 *   <li>{@code w[g]} and {@code v[slot][g]} (integer): how many GPUs of cost group {@code g} (one GPU
 *       type at one cost) network stages and each slot take. Per-GPU costs may differ within a type
 *       (a fragmentation-aware importance, say), so replicas of one stage may mix costs: the model
 *       counts GPUs per type and lets the solver take the cheapest groups.
 * </ul>
 *
 * <h2>Rows</h2>
 *
 * One unit of flow from boundary 0, conservation at every inner boundary (a contiguous cover in
 * model order); at most {@code maxStages} arcs; {@code z[j][slot]} at most the slot's arcs ending
 * and starting at {@code j}; latency (compute of every stage plus the transfer after it, on the
 * link the cut gets, in microseconds) within the bound less the batching wait; per type, network
 * arcs' replicas equal the network GPU counts, and per slot and type, its arcs' replicas equal its
 * GPU counts; per cost group, network plus slot GPU counts within its free GPUs. The objective is
 * the cost of the GPU counts.
 *
 * <h2>Co-location: three chargings, exact overall</h2>
 *
 * A cut is intra-node only when every GPU of both neighbouring stages sits on one node
 * ({@link PerformanceModel#linkBetween}); otherwise it crosses the network. The formulation is built
 * with one of three {@link Charging}s:
 *
 * <ul>
 *   <li>{@link Charging#OPTIMISTIC}: no slots; every cut is charged the fastest link any free node
 *       (or the network) offers. Every real plan is a path here and pays at least these transfers,
 *       so this is a <em>relaxation</em>: its optimum is a lower bound, and INFEASIBLE is a proof.
 *       It has no co-location variables at all, so it stays small (the benchmarked 1000-GPU,
 *       80-block model has about 11k binaries and 86 rows).
 *   <li>{@link Charging#NETWORK}: the exact co-location model. Nodes with at least two free GPUs are
 *       grouped into classes of identical nodes (same intra link, same free GPUs by type and cost);
 *       each class gets {@code min(nodes in class, maxStages / 2)} <em>slots</em>, one per distinct
 *       node that could host a run of two or more stages (a plan has at most {@code maxStages / 2}
 *       such runs). A slot's capacity is its node's free GPUs, so every stage that uses an
 *       intra-node cut really sits on that one node. Slots of one class are ordered (slot {@code q}
 *       holds at least as many stages as slot {@code q+1}) to break symmetry. Every cut not marked
 *       intra-node is charged the network. Exact whenever no node's intra link is slower than the
 *       network (NVLink or PCIe against Ethernet): two network-charged stages that happen to share a
 *       node only transfer faster than charged. It is much larger (tens of slots times the arcs).
 *   <li>{@link Charging#CONSERVATIVE}: as NETWORK, but cuts not marked intra-node are charged the
 *       slowest link a free node could impose. Always sound, possibly pessimistic; only used when
 *       some node's intra link is slower than the network.
 * </ul>
 *
 * {@link ExactStrategy} solves OPTIMISTIC first and maps its path to concrete GPUs; when that plan
 * meets the SLO on the links it really gets (the common case), its cost equals the lower bound and
 * it is optimal. If not, the same stages are re-mapped with consecutive stages packed onto shared
 * nodes ({@link #decodePacked}); if that plan holds at the same cost, it is optimal too. Otherwise
 * it solves NETWORK_ONLY (every cut on the network, no slots: small), whose verified plan is an
 * incumbent, optimal if it reaches the relaxation's bound; then NETWORK, started from that
 * incumbent (exact; or, when some intra link is slower than the network, still a relaxation whose
 * verified plans are optimal); if NETWORK runs out of time, the incumbent is returned as FEASIBLE
 * with the relaxation's bound. Only if NETWORK's plan fails on a slow intra link does CONSERVATIVE
 * run, whose answer is reported as FEASIBLE with the proven bound.
 *
 * <h2>Arc pruning (all exact)</h2>
 *
 * Besides memory and the period, an arc is dropped when even the rest of the model on its fastest
 * free GPUs, with free transfers, would break the latency bound; and a network arc is dropped when
 * an arc over the same layers on a type that no plan can exhaust ({@code free >= maxStages x} its
 * largest replica count) is no slower and no dearer.
 *
 * <h2>Transfer modes</h2>
 *
 * OVERLAPPED: a cut whose transfer alone exceeds the period may only be intra-node; latency adds
 * the chosen link's transfer. SERIAL: a stage's load is {@code T/r + tau_in + tau_out}, so the least
 * replica count depends on which of its cuts are intra; one arc per distinct count is generated and
 * rows force the intra cuts it relies on. NONE: transfers are free, no slots are generated.
 */
final class IntervalFlowFormulation {

  private static final double MICROS = 1e6;
  /**
   * The latency row's right-hand side is the SLO predicate's budget less this fraction of it, so
   * that SCIP, whose feasibility tolerance {@link ScipBackend} sets to 1e-9 (relative), cannot carry
   * a solution past what {@link SloPredicate} admits; CP-SAT rounds the row conservatively anyway.
   * A hundred times below the predicate's own tolerance, it keeps every plan that meets the SLO
   * with equality (or up to 0.99 of the tolerance beyond it) in the model.
   */
  static final double SOLVER_MARGIN = 1e-8;

  /** Layers [from, to) on {@code replicas} GPUs of {@code type}; {@code slot} -1 = network. */
  static final class Arc {
    final int from;
    final int to;
    final int type;
    final int replicas;
    final int slot;
    final double computeSeconds;
    /** SERIAL only: the replica count relies on intra-node cuts on these sides. */
    final boolean needsIntraIn;
    final boolean needsIntraOut;
    final boolean needsSomeIntra;
    int variable;

    Arc(int from, int to, int type, int replicas, int slot, double computeSeconds,
        boolean needsIntraIn, boolean needsIntraOut, boolean needsSomeIntra) {
      this.from = from;
      this.to = to;
      this.type = type;
      this.replicas = replicas;
      this.slot = slot;
      this.computeSeconds = computeSeconds;
      this.needsIntraIn = needsIntraIn;
      this.needsIntraOut = needsIntraOut;
      this.needsSomeIntra = needsSomeIntra;
    }
  }

  /** The free GPUs of one type at one cost. */
  static final class CostGroup {
    final int type;
    final double cost;
    final List<Gpu> gpus = new ArrayList<>();
    int netVariable;

    CostGroup(int type, double cost) {
      this.type = type;
      this.cost = cost;
    }
  }

  /** One node (the {@code ordinal}-th of its class) that may host a run of co-located stages. */
  static final class Slot {
    final int index;
    final String node;
    final Link intraLink;
    final int[] freePerType;
    /** group index -> free GPUs of that group on this node. */
    final Map<Integer, Integer> freePerGroup;
    final Map<Integer, Integer> usageVariable = new LinkedHashMap<>();
    /** per cut j: the z variable, or -1 when intra-node brings nothing at j. */
    final int[] intraVariable;
    final double[] intraSeconds;

    Slot(int index, String node, Link intraLink, int[] freePerType, Map<Integer, Integer> freePerGroup, int cuts) {
      this.index = index;
      this.node = node;
      this.intraLink = intraLink;
      this.freePerType = freePerType;
      this.freePerGroup = freePerGroup;
      this.intraVariable = new int[cuts];
      this.intraSeconds = new double[cuts];
      Arrays.fill(intraVariable, -1);
    }
  }

  private final BooleanSupplier outOfTime;
  private final ServiceRequest request;
  private final Cluster cluster;
  private final PerformanceModel performance;
  private final TransferMode mode;
  private final int layers;
  private final int batch;

  final List<GpuType> types = new ArrayList<>();
  final int[] freePerType;
  final List<CostGroup> groups = new ArrayList<>();
  final List<Slot> slots = new ArrayList<>();
  final List<Arc> arcs = new ArrayList<>();
  /** tau charged for a network cut j (0 at j = 0 and j = L). */
  final double[] networkSeconds;
  /** true when some free node's intra link is slower than the network at some cut. */
  final boolean slowIntraLinks;
  final LinearModel model = new LinearModel();

  /** What a cut not marked intra-node is charged, and whether slots (co-location) are modelled. */
  enum Charging {
    /**
     * Every cut is charged the fastest link any free node offers, no slots: a relaxation (every
     * real plan costs at least as much transfer), small and fast to solve. Its optimum is a lower
     * bound; when its plan also meets the SLO on the links it really gets, it is optimal.
     */
    OPTIMISTIC,
    /**
     * Every cut is charged the network, no slots: a plan that ignores co-location. When no intra
     * link is slower than the network its plans are sound and its optimum an upper bound; small and
     * fast, it gives the co-location model a first incumbent.
     */
    NETWORK_ONLY,
    /** The network, with slots: exact when no intra link is slower than the network. */
    NETWORK,
    /** The slowest link a free node could impose, with slots: always sound, possibly pessimistic. */
    CONSERVATIVE
  }

  /** Thrown while building when the caller's time is up: a model too large to build in time. */
  static final class OutOfTime extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfTime() {
      super("the time limit ran out while the model was being built", null, false, false);
    }
  }

  IntervalFlowFormulation(ServiceRequest request, ClusterState state, GpuCosts costs, PerformanceModel performance,
      Charging charging) {
    this(request, state, costs, performance, charging, () -> false);
  }

  /**
   * Builds the model for {@code charging}, asking {@code outOfTime} between its parts and once per
   * first layer of the stage candidates, and giving up with {@link OutOfTime} when it says so.
   */
  IntervalFlowFormulation(ServiceRequest request, ClusterState state, GpuCosts costs, PerformanceModel performance,
      Charging charging, BooleanSupplier outOfTime) {
    this.outOfTime = outOfTime;
    this.request = request;
    this.cluster = state.cluster();
    this.performance = performance;
    this.mode = performance.transferMode();
    Model m = request.model();
    this.layers = m.size();
    this.batch = request.slo().batchSize();

    // Free GPUs by type and by (type, cost); nodes by their free GPUs.
    Map<String, Integer> typeIndex = new LinkedHashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      for (Gpu g : state.capacity().gpus()) {
        if (g.type().equals(t.name())) {
          typeIndex.put(t.name(), types.size());
          types.add(t);
          break;
        }
      }
    }
    freePerType = new int[types.size()];
    Map<List<Object>, Integer> groupIndex = new LinkedHashMap<>();
    Map<String, List<Integer>> freeGroupsByNode = new LinkedHashMap<>();
    for (Gpu g : state.capacity().gpus()) {
      int t = typeIndex.get(g.type());
      freePerType[t]++;
      double cost = costs.of(g.id());
      int gi = groupIndex.computeIfAbsent(List.of(t, cost), k -> {
        groups.add(new CostGroup(t, cost));
        return groups.size() - 1;
      });
      groups.get(gi).gpus.add(g);
      freeGroupsByNode.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(gi);
    }

    networkSeconds = new double[layers + 1];
    boolean slow = false;
    for (int j = 1; j < layers; j++) {
      double net = performance.transferSeconds(m, j, batch, cluster.network());
      double worst = net;
      double best = net;
      for (String node : freeGroupsByNode.keySet()) {
        double intra = performance.transferSeconds(m, j, batch, cluster.node(node).intraLink());
        slow |= intra > net;
        worst = Math.max(worst, intra);
        best = Math.min(best, intra);
      }
      networkSeconds[j] = switch (charging) {
        case OPTIMISTIC -> best;
        case NETWORK, NETWORK_ONLY -> net;
        case CONSERVATIVE -> worst;
      };
    }
    slowIntraLinks = slow;

    if (charging == Charging.NETWORK || charging == Charging.CONSERVATIVE) {
      buildSlots(m, freeGroupsByNode);
    }
    buildArcs(m);
    checkTime();
    buildModel();
  }

  /** The model's layer count: boundaries run from 0 to it. */
  int layers() {
    return layers;
  }

  private void checkTime() {
    if (outOfTime.getAsBoolean()) {
      throw new OutOfTime();
    }
  }

  private void buildSlots(Model m, Map<String, List<Integer>> freeGroupsByNode) {
    int perClass = request.maxStages() / 2;
    if (mode == TransferMode.NONE || perClass == 0) {
      return;
    }
    Map<List<Object>, List<String>> classes = new LinkedHashMap<>();
    for (Map.Entry<String, List<Integer>> e : freeGroupsByNode.entrySet()) {
      if (e.getValue().size() < 2) {
        continue;
      }
      List<Integer> signature = new ArrayList<>(e.getValue());
      Collections.sort(signature);
      Link link = cluster.node(e.getKey()).intraLink();
      classes.computeIfAbsent(List.of(link, signature), k -> new ArrayList<>()).add(e.getKey());
    }
    for (List<String> nodes : classes.values()) {
      Node first = cluster.node(nodes.get(0));
      double[] intra = new double[layers + 1];
      boolean helps = false;
      for (int j = 1; j < layers; j++) {
        intra[j] = performance.transferSeconds(m, j, batch, first.intraLink());
        helps |= intra[j] < networkSeconds[j];
      }
      if (!helps) {
        continue;
      }
      int[] perType = new int[types.size()];
      Map<Integer, Integer> perGroup = new LinkedHashMap<>();
      for (int g : freeGroupsByNode.get(first.id())) {
        perType[groups.get(g).type]++;
        perGroup.merge(g, 1, Integer::sum);
      }
      for (int q = 0; q < Math.min(nodes.size(), perClass); q++) {
        Slot s = new Slot(slots.size(), nodes.get(q), first.intraLink(), perType, perGroup, layers + 1);
        System.arraycopy(intra, 0, s.intraSeconds, 0, intra.length);
        slots.add(s);
      }
    }
  }

  /** Throughput holds when one stage is busy {@code load} seconds per batch, by the one SLO predicate. */
  private boolean meetsPeriod(double load) {
    return SloPredicate.meetsPeriod(load, request.slo());
  }

  /**
   * The least replica count r <= max with meetsPeriod(T/r + transfers), or -1. Binary search: the
   * load T/r + transfers falls monotonically with r, also in floating point.
   */
  private int leastReplicas(double compute, double transfers, int max) {
    if (max < 1 || !meetsPeriod(compute / max + transfers)) {
      return -1;
    }
    int lo = 1;
    int hi = max;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (meetsPeriod(compute / mid + transfers)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private void buildArcs(Model m) {
    // Latency lower bounds: every layer before i and from j on at its fastest free type, no transfers.
    double[] fastest = new double[layers];
    for (int l = 0; l < layers; l++) {
      fastest[l] = Double.POSITIVE_INFINITY;
      for (GpuType type : types) {
        if (performance.stageMemoryBytes(m, l, l + 1, batch) <= type.memoryBytes()) {
          fastest[l] = Math.min(fastest[l], performance.layerSeconds(m.layer(l), type, batch));
        }
      }
    }
    double[] before = new double[layers + 1];
    for (int l = 0; l < layers; l++) {
      before[l + 1] = before[l] + fastest[l];
    }
    double budget = SloPredicate.latencyBudgetSeconds(request.slo());
    for (int i = 0; i < layers; i++) {
      checkTime();
      for (int t = 0; t < types.size(); t++) {
        WholeGpu kind = new WholeGpu(types.get(t));
        StageCursor stage = performance.cursor(m, batch, i, List.of(kind));
        for (int j = i + 1; j <= layers; j++) {
          if (!stage.add().fitsOn(kind)) {
            break;
          }
          double compute = stage.seconds(0);
          if (leastReplicas(compute, 0, freePerType[t]) < 0) {
            break; // T grows with j: no longer stage from i fits either
          }
          if (before[i] + compute + (before[layers] - before[j]) > budget) {
            continue; // even with the rest on the fastest GPUs and free transfers, too slow
          }
          addArcs(i, j, t, compute);
        }
      }
    }
    removeDominatedNetworkArcs();
  }

  /**
   * Drops a network arc when another network arc over the same layers on a type whose free GPUs no
   * plan can exhaust ({@code free >= maxStages x its largest replica count}) is at most as slow and
   * at most as costly (its dearest GPUs against the other's cheapest). Swapping the one for the
   * other in any plan keeps every constraint (same cuts, so the same transfers; the GPU count of
   * the non-binding type stays within its free GPUs) and never raises the cost, so the optimum
   * survives. Ties keep the arc of the earlier type.
   */
  private void removeDominatedNetworkArcs() {
    int types = this.types.size();
    int[] largestReplicas = new int[types];
    double[] cheapest = new double[types];
    double[] dearest = new double[types];
    Arrays.fill(cheapest, Double.POSITIVE_INFINITY);
    for (Arc a : arcs) {
      largestReplicas[a.type] = Math.max(largestReplicas[a.type], a.replicas);
    }
    for (CostGroup g : groups) {
      cheapest[g.type] = Math.min(cheapest[g.type], g.cost);
      dearest[g.type] = Math.max(dearest[g.type], g.cost);
    }
    boolean[] plentiful = new boolean[types];
    boolean any = false;
    for (int t = 0; t < types; t++) {
      plentiful[t] = freePerType[t] >= (long) request.maxStages() * largestReplicas[t];
      any |= plentiful[t];
    }
    if (!any) {
      return;
    }
    Map<Long, List<Arc>> byLayers = new LinkedHashMap<>();
    for (Arc a : arcs) {
      if (a.slot < 0) {
        byLayers.computeIfAbsent((long) a.from * (layers + 1) + a.to, k -> new ArrayList<>()).add(a);
      }
    }
    java.util.Set<Arc> dominated = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (List<Arc> same : byLayers.values()) {
      for (Arc a : same) {
        for (Arc b : same) {
          if (a == b || !plentiful[b.type] || dominated.contains(b)) {
            continue;
          }
          double costA = a.replicas * cheapest[a.type];
          double costB = b.replicas * dearest[b.type];
          boolean noWorse = costB <= costA && b.computeSeconds <= a.computeSeconds;
          boolean better = costB < costA || b.computeSeconds < a.computeSeconds || b.type < a.type;
          if (noWorse && better) {
            dominated.add(a);
            break;
          }
        }
      }
    }
    arcs.removeIf(dominated::contains);
  }

  private double in(int i) {
    return i > 0 ? networkSeconds[i] : 0;
  }

  private double out(int j) {
    return j < layers ? networkSeconds[j] : 0;
  }

  private void addArcs(int i, int j, int t, double compute) {
    if (mode != TransferMode.SERIAL) {
      int r = leastReplicas(compute, 0, freePerType[t]);
      arcs.add(new Arc(i, j, t, r, -1, compute, false, false, false));
      for (Slot s : slots) {
        if (r <= s.freePerType[t]) {
          arcs.add(new Arc(i, j, t, r, s.index, compute, false, false, false));
        }
      }
      return;
    }
    int rNet = leastReplicas(compute, in(i) + out(j), freePerType[t]);
    if (rNet > 0) {
      arcs.add(new Arc(i, j, t, rNet, -1, compute, false, false, false));
    }
    for (Slot s : slots) {
      int cap = s.freePerType[t];
      if (cap == 0) {
        continue;
      }
      // r needed per (in intra?, out intra?); an intra side is only possible where it helps at all
      int[][] need = new int[2][2];
      for (int a = 0; a < 2; a++) {
        for (int b = 0; b < 2; b++) {
          boolean intraIn = a == 1;
          boolean intraOut = b == 1;
          if ((intraIn && !(i > 0 && s.intraSeconds[i] < networkSeconds[i]))
              || (intraOut && !(j < layers && s.intraSeconds[j] < networkSeconds[j]))) {
            need[a][b] = -1;
            continue;
          }
          double tin = intraIn ? s.intraSeconds[i] : in(i);
          double tout = intraOut ? s.intraSeconds[j] : out(j);
          need[a][b] = leastReplicas(compute, tin + tout, cap);
        }
      }
      List<Integer> counts = new ArrayList<>();
      for (int[] row : need) {
        for (int r : row) {
          if (r > 0 && !counts.contains(r)) {
            counts.add(r);
          }
        }
      }
      for (int r : counts) {
        boolean nn = need[0][0] > 0 && need[0][0] <= r;
        boolean nl = need[0][1] > 0 && need[0][1] <= r;
        boolean ln = need[1][0] > 0 && need[1][0] <= r;
        boolean intraIn = !nn && !nl;
        boolean intraOut = !nn && !ln;
        arcs.add(new Arc(i, j, t, r, s.index, compute, intraIn, intraOut, !nn && !(intraIn || intraOut)));
      }
    }
  }

  /**
   * The MILP over the arcs and slots: variables, then the path, co-location, period, serial-transfer,
   * latency, GPU-count and symmetry rows, in this order (row order is part of what the solver sees).
   */
  private void buildModel() {
    addVariables();
    List<List<Arc>> starting = new ArrayList<>();
    List<List<Arc>> ending = new ArrayList<>();
    for (int j = 0; j <= layers; j++) {
      starting.add(new ArrayList<>());
      ending.add(new ArrayList<>());
    }
    for (Arc a : arcs) {
      starting.get(a.from).add(a);
      ending.get(a.to).add(a);
    }
    addPathRows(starting, ending);
    addColocationRows(starting, ending);
    addPeriodCutRows(ending);
    addSerialIntraRows();
    addLatencyRow();
    addGpuCountRows();
    addSlotOrderRows();
  }

  /** One binary per arc, one per helpful intra-node cut of a slot, GPU counts per cost group and slot. */
  private void addVariables() {
    for (Arc a : arcs) {
      a.variable = model.addVariable("x_" + a.from + "_" + a.to + "_" + types.get(a.type).name() + "_r" + a.replicas
          + (a.slot < 0 ? "_net" : "_s" + a.slot), 0, 1);
    }
    for (Slot s : slots) {
      for (int j = 1; j < layers; j++) {
        boolean helps = s.intraSeconds[j] < networkSeconds[j];
        boolean allowed = mode != TransferMode.OVERLAPPED || meetsPeriod(s.intraSeconds[j]);
        if (helps && allowed) {
          s.intraVariable[j] = model.addVariable("z_" + j + "_s" + s.index, 0, 1);
        }
      }
    }
    for (int g = 0; g < groups.size(); g++) {
      CostGroup group = groups.get(g);
      group.netVariable = model.addVariable("w_g" + g, 0, group.gpus.size());
      model.setObjective(group.netVariable, group.cost);
    }
    for (Slot s : slots) {
      for (Map.Entry<Integer, Integer> e : s.freePerGroup.entrySet()) {
        int v = model.addVariable("v_s" + s.index + "_g" + e.getKey(), 0, e.getValue());
        s.usageVariable.put(e.getKey(), v);
        model.setObjective(v, groups.get(e.getKey()).cost);
      }
    }
  }

  /** A path from boundary 0 to boundary L through at most maxStages arcs. */
  private void addPathRows(List<List<Arc>> starting, List<List<Arc>> ending) {
    model.addRow("start", 1, 1, terms(starting.get(0), 1));
    for (int j = 1; j < layers; j++) {
      List<Term> flow = terms(ending.get(j), 1);
      flow.addAll(terms(starting.get(j), -1));
      model.addRow("flow_" + j, 0, 0, flow);
    }
    model.addRow("maxStages", Double.NEGATIVE_INFINITY, request.maxStages(), terms(arcs, 1));
  }

  /** Intra-node cuts: a cut counts as intra-node only when both neighbouring stages sit on the slot. */
  private void addColocationRows(List<List<Arc>> starting, List<List<Arc>> ending) {
    for (Slot s : slots) {
      for (int j = 1; j < layers; j++) {
        int z = s.intraVariable[j];
        if (z < 0) {
          continue;
        }
        for (boolean before : new boolean[] {true, false}) {
          List<Arc> side = before ? ending.get(j) : starting.get(j);
          List<Term> row = new ArrayList<>();
          row.add(new Term(z, 1));
          for (Arc a : side) {
            if (a.slot == s.index) {
              row.add(new Term(a.variable, -1));
            }
          }
          model.addRow((before ? "colocatedBefore_" : "colocatedAfter_") + j + "_s" + s.index,
              Double.NEGATIVE_INFINITY, 0, row);
        }
      }
    }
  }

  /** OVERLAPPED: a cut whose network transfer alone breaks the period must be intra-node. */
  private void addPeriodCutRows(List<List<Arc>> ending) {
    if (mode == TransferMode.OVERLAPPED) {
      for (int j = 1; j < layers; j++) {
        if (!meetsPeriod(networkSeconds[j])) {
          List<Term> row = terms(ending.get(j), 1);
          for (Slot s : slots) {
            if (s.intraVariable[j] >= 0) {
              row.add(new Term(s.intraVariable[j], -1));
            }
          }
          model.addRow("periodCut_" + j, Double.NEGATIVE_INFINITY, 0, row);
        }
      }
    }
  }

  /** SERIAL: arcs whose replica count relies on intra-node cuts get them. */
  private void addSerialIntraRows() {
    for (Arc a : arcs) {
      if (!(a.needsIntraIn || a.needsIntraOut || a.needsSomeIntra)) {
        continue;
      }
      Slot s = slots.get(a.slot);
      List<Term> some = new ArrayList<>(List.of(new Term(a.variable, 1)));
      if (a.needsIntraIn || a.needsSomeIntra) {
        List<Term> row = new ArrayList<>(List.of(new Term(a.variable, 1)));
        if (s.intraVariable[a.from] >= 0) {
          row.add(new Term(s.intraVariable[a.from], -1));
          some.add(new Term(s.intraVariable[a.from], -1));
        }
        if (a.needsIntraIn) {
          model.addRow("intraIn_" + a.variable, Double.NEGATIVE_INFINITY, 0, row);
        }
      }
      if (a.needsIntraOut || a.needsSomeIntra) {
        List<Term> row = new ArrayList<>(List.of(new Term(a.variable, 1)));
        if (s.intraVariable[a.to] >= 0) {
          row.add(new Term(s.intraVariable[a.to], -1));
          some.add(new Term(s.intraVariable[a.to], -1));
        }
        if (a.needsIntraOut) {
          model.addRow("intraOut_" + a.variable, Double.NEGATIVE_INFINITY, 0, row);
        }
      }
      if (a.needsSomeIntra) {
        model.addRow("intraSome_" + a.variable, Double.NEGATIVE_INFINITY, 0, some);
      }
    }
  }

  /**
   * Latency: compute of every stage plus the transfer after it, intra-node where marked, in
   * microseconds (SCIP's feasibility tolerance is relative for values above 1), within the SLO
   * predicate's budget less {@link #SOLVER_MARGIN}.
   */
  private void addLatencyRow() {
    List<Term> latency = new ArrayList<>();
    for (Arc a : arcs) {
      latency.add(new Term(a.variable, (a.computeSeconds + out(a.to)) * MICROS));
    }
    for (Slot s : slots) {
      for (int j = 1; j < layers; j++) {
        if (s.intraVariable[j] >= 0) {
          latency.add(new Term(s.intraVariable[j], (s.intraSeconds[j] - networkSeconds[j]) * MICROS));
        }
      }
    }
    double budget = SloPredicate.latencyBudgetSeconds(request.slo()) * (1 - SOLVER_MARGIN);
    model.addRow("latency_us", Double.NEGATIVE_INFINITY, budget * MICROS, latency);
  }

  /** GPU counts: network stages draw from every free GPU, slots from their node; no group over its size. */
  private void addGpuCountRows() {
    for (int t = 0; t < types.size(); t++) {
      List<Term> row = new ArrayList<>();
      for (CostGroup g : groups) {
        if (g.type == t) {
          row.add(new Term(g.netVariable, 1));
        }
      }
      for (Arc a : arcs) {
        if (a.slot < 0 && a.type == t) {
          row.add(new Term(a.variable, -a.replicas));
        }
      }
      model.addRow("netGpus_" + types.get(t).name(), 0, 0, row);
      for (Slot s : slots) {
        if (s.freePerType[t] == 0) {
          continue;
        }
        List<Term> slotRow = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : s.usageVariable.entrySet()) {
          if (groups.get(e.getKey()).type == t) {
            slotRow.add(new Term(e.getValue(), 1));
          }
        }
        for (Arc a : arcs) {
          if (a.slot == s.index && a.type == t) {
            slotRow.add(new Term(a.variable, -a.replicas));
          }
        }
        model.addRow("slotGpus_s" + s.index + "_" + types.get(t).name(), 0, 0, slotRow);
      }
    }
    for (int g = 0; g < groups.size(); g++) {
      List<Term> row = new ArrayList<>(List.of(new Term(groups.get(g).netVariable, 1)));
      for (Slot s : slots) {
        Integer v = s.usageVariable.get(g);
        if (v != null) {
          row.add(new Term(v, 1));
        }
      }
      if (row.size() > 1) {
        model.addRow("capacity_g" + g, Double.NEGATIVE_INFINITY, groups.get(g).gpus.size(), row);
      }
    }
  }

  /** Symmetry: identical slots are used in order. */
  private void addSlotOrderRows() {
    for (int k = 1; k < slots.size(); k++) {
      Slot prev = slots.get(k - 1);
      Slot cur = slots.get(k);
      if (prev.intraLink.equals(cur.intraLink) && prev.freePerGroup.equals(cur.freePerGroup)) {
        List<Term> row = new ArrayList<>();
        for (Arc a : arcs) {
          if (a.slot == prev.index) {
            row.add(new Term(a.variable, 1));
          } else if (a.slot == cur.index) {
            row.add(new Term(a.variable, -1));
          }
        }
        model.addRow("slotOrder_s" + cur.index, 0, Double.POSITIVE_INFINITY, row);
      }
    }
  }

  private static List<Term> terms(List<Arc> arcs, double coefficient) {
    List<Term> out = new ArrayList<>(arcs.size());
    for (Arc a : arcs) {
      out.add(new Term(a.variable, coefficient));
    }
    return out;
  }

  /**
   * The fewest stages any plan needs, from memory and the period alone (ignoring GPU counts across
   * stages and latency); {@code -1} when no sequence of arcs reaches the end, with
   * {@code furthest[0]} set to the last layer boundary that can be reached.
   */
  int fewestStages(int[] furthest) {
    int[] dist = new int[layers + 1];
    Arrays.fill(dist, Integer.MAX_VALUE);
    dist[0] = 0;
    List<Arc> sorted = new ArrayList<>(arcs);
    sorted.sort((a, b) -> Integer.compare(a.from, b.from));
    for (Arc a : sorted) {
      if (dist[a.from] != Integer.MAX_VALUE) {
        dist[a.to] = Math.min(dist[a.to], dist[a.from] + 1);
      }
    }
    for (int j = layers; j >= 0; j--) {
      if (dist[j] != Integer.MAX_VALUE) {
        furthest[0] = j;
        break;
      }
    }
    return dist[layers] == Integer.MAX_VALUE ? -1 : dist[layers];
  }

  /**
   * A MIP start from a heuristic's plan: each of its stages becomes the network arc with the same
   * layers and GPU type (at the least replica count); GPUs are counted cheapest first. Empty when
   * some stage has no such arc (it used a GPU that is not free, or relied on something this model
   * prices differently).
   */
  Optional<double[]> hint(Plan plan) {
    double[] values = new double[model.variableCount()];
    int[] perType = new int[types.size()];
    for (Stage stage : plan.stages()) {
      String typeName = cluster.gpu(stage.gpus().get(0)).type();
      Arc match = null;
      for (Arc a : arcs) {
        if (a.slot < 0 && a.from == stage.from() && a.to == stage.to() && types.get(a.type).name().equals(typeName)) {
          match = a;
        }
      }
      if (match == null || match.replicas > stage.gpus().size()) {
        return Optional.empty();
      }
      values[match.variable] = 1;
      perType[match.type] += match.replicas;
    }
    List<CostGroup> byCost = new ArrayList<>(groups);
    byCost.sort((a, b) -> Double.compare(a.cost, b.cost));
    for (CostGroup g : byCost) {
      int take = Math.min(perType[g.type], g.gpus.size());
      values[g.netVariable] = take;
      perType[g.type] -= take;
    }
    return Optional.of(values);
  }

  /** The node GPU {@code gpuId} sits on. */
  String nodeOf(String gpuId) {
    return cluster.gpu(gpuId).node();
  }

  /** True when a cut at {@code cut} over {@code node}'s own link takes longer than over the network. */
  boolean slowerThanNetwork(String node, int cut) {
    Model m = request.model();
    return performance.transferSeconds(m, cut, batch, cluster.node(node).intraLink())
        > performance.transferSeconds(m, cut, batch, cluster.network());
  }
}
