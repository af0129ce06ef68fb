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
 *       type at one cost) network stages (outside slow nodes) and each slot take. Per-GPU costs may
 *       differ within a type (a fragmentation-aware importance, say), so replicas of one stage may
 *       mix costs: the model counts GPUs per type and lets the solver take the cheapest groups.
 *   <li>{@code u[pool][g]} (integer), only where some node is slow (below): how many GPUs of group
 *       {@code g} on a slow slot's node, or on a slow class's nodes without a slot, network stages take.
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
 *       grouped into classes of identical nodes (same intra link, same free GPUs by type and cost).
 *       A <em>fast</em> class (its intra link never slower than the network) gets
 *       {@code min(nodes in class, maxStages / 2)} <em>slots</em>, one per distinct node that could
 *       host a run of two or more stages; every cut not marked intra-node is charged the network, and
 *       two network stages that happen to share such a node only transfer faster than charged. A
 *       <em>slow</em> class (its intra link slower than the network at some cut) gets
 *       {@code min(nodes in class, maxStages)} slots, because here every stage wholly on one of its
 *       nodes is a slot stage: a cut between two stages on one slow slot is charged its intra link
 *       ({@code z} forced to 1, or both stages forbidden where that link breaks the period), and
 *       network stages never sit wholly on a slow node. The latter is counted, not enumerated: a
 *       network stage of one replica takes a GPU outside slow nodes, and no slow node gives the
 *       network stages of a type more GPUs than the sum of their replicas less one each; these are
 *       exactly the conditions under which {@link SolutionDecoder} can spread the counted GPUs so.
 *       Any real plan maps to a solution (name its wholly-on-a-slow-node stages by their node,
 *       identical nodes in slot order) paying at least its real transfers, and every solution decodes
 *       to a plan whose real transfers are no slower than charged: exact. A slot's capacity is its
 *       node's free GPUs. Slots of one class are ordered (slot {@code q} holds at least as many
 *       stages as slot {@code q+1}) to break symmetry. It is much larger (tens of slots times the
 *       arcs); on a cluster without slow nodes nothing of the slow-node part is generated.
 *   <li>{@link Charging#NETWORK_ONLY}: as NETWORK without the fast classes' slots: sound, an upper
 *       bound, and as small as OPTIMISTIC where no node is slow.
 * </ul>
 *
 * {@link ExactStrategy} solves OPTIMISTIC first and maps its path to concrete GPUs; when that plan
 * meets the SLO on the links it really gets (the common case), its cost equals the lower bound and
 * it is optimal. If not, the same stages are re-mapped with consecutive stages packed onto shared
 * nodes ({@link SolutionDecoder#decodePacked}); if that plan holds at the same cost, it is optimal
 * too. Otherwise it solves NETWORK_ONLY, whose plan is an incumbent, optimal if it reaches the
 * relaxation's bound; then NETWORK, started from that incumbent; if NETWORK runs out of time, the
 * incumbent is returned as FEASIBLE with the relaxation's bound.
 *
 * <h2>Arc pruning (all exact)</h2>
 *
 * Besides memory and the period, an arc is dropped when even the rest of the model on its fastest
 * free GPUs, with free transfers, would break the latency bound; and a network arc is dropped when
 * an arc over the same layers on a type that no plan can exhaust ({@code free >= maxStages x} its
 * largest replica count, counting GPUs outside slow nodes) is no slower and no dearer.
 *
 * <h2>Transfer modes</h2>
 *
 * OVERLAPPED: a cut whose transfer alone exceeds the period may only be intra-node; latency adds
 * the chosen link's transfer. SERIAL: a stage's load is {@code T/r + tau_in + tau_out}, so the least
 * replica count depends on which of its cuts are intra; one arc per distinct count is generated and
 * rows force the state of the cuts it relies on (intra where the slot's link is faster, network
 * where it is slower). NONE: transfers are free, no slots are generated.
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
    /**
     * SERIAL only: the replica count relies on the faster state of the cut on these sides (the
     * intra link on a node faster than the network, the network next to a node slower than it).
     */
    final boolean needsBetterIn;
    final boolean needsBetterOut;
    final boolean needsSomeBetter;
    int variable;

    Arc(int from, int to, int type, int replicas, int slot, double computeSeconds,
        boolean needsBetterIn, boolean needsBetterOut, boolean needsSomeBetter) {
      this.from = from;
      this.to = to;
      this.type = type;
      this.replicas = replicas;
      this.slot = slot;
      this.computeSeconds = computeSeconds;
      this.needsBetterIn = needsBetterIn;
      this.needsBetterOut = needsBetterOut;
      this.needsSomeBetter = needsSomeBetter;
    }
  }

  /** The free GPUs of one type at one cost. */
  static final class CostGroup {
    final int type;
    final double cost;
    final List<Gpu> gpus = new ArrayList<>();
    /** Its GPUs not on a slow node: what {@code netVariable} may take. */
    int outsideSlowNodes;
    int netVariable;

    CostGroup(int type, double cost) {
      this.type = type;
      this.cost = cost;
    }
  }

  /**
   * One node (the {@code ordinal}-th of its class) that may host a run of co-located stages; on a
   * slow node, any stage that sits wholly on it.
   */
  static final class Slot {
    final int index;
    final String node;
    final Link intraLink;
    /** The node's intra link is slower than the network at some cut. */
    final boolean slow;
    final int[] freePerType;
    /** group index -> free GPUs of that group on this node. */
    final Map<Integer, Integer> freePerGroup;
    final Map<Integer, Integer> usageVariable = new LinkedHashMap<>();
    /** per cut j: the z variable, or -1 when intra-node brings nothing at j. */
    final int[] intraVariable;
    final double[] intraSeconds;

    Slot(int index, String node, Link intraLink, boolean slow, int[] freePerType, Map<Integer, Integer> freePerGroup,
        int cuts) {
      this.index = index;
      this.node = node;
      this.intraLink = intraLink;
      this.slow = slow;
      this.freePerType = freePerType;
      this.freePerGroup = freePerGroup;
      this.intraVariable = new int[cuts];
      this.intraSeconds = new double[cuts];
      Arrays.fill(intraVariable, -1);
    }
  }

  /**
   * Slow nodes whose GPUs network stages may use, only alongside GPUs elsewhere: one slot's node, or
   * the identical nodes of a slow class that got no slot. {@code netVariable}: group index -> how
   * many of that group's GPUs on these nodes network stages take.
   */
  static final class SlowNodes {
    final List<String> nodes;
    /** group index -> free GPUs of that group on each of the nodes. */
    final Map<Integer, Integer> freePerGroup;
    /** The slot on the (one) node, or null. */
    final Slot slot;
    final Map<Integer, Integer> netVariable = new LinkedHashMap<>();

    SlowNodes(List<String> nodes, Map<Integer, Integer> freePerGroup, Slot slot) {
      this.nodes = nodes;
      this.freePerGroup = freePerGroup;
      this.slot = slot;
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
  final List<SlowNodes> slowNodes = new ArrayList<>();
  /** The nodes of every slow class: no network stage sits wholly on one of them. */
  final java.util.Set<String> slowNodeIds = new java.util.HashSet<>();
  final List<Arc> arcs = new ArrayList<>();
  /** tau charged for a network cut j (0 at j = 0 and j = L). */
  final double[] networkSeconds;
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
     * Every cut is charged the network, slots only on slow nodes: a plan that ignores what
     * co-location gains. Its plans are sound and its optimum an upper bound; small and fast (as
     * small as OPTIMISTIC on a cluster without slow nodes), it gives the co-location model a first
     * incumbent.
     */
    NETWORK_ONLY,
    /** The network, with slots on every class that can host a run of stages: exact. */
    NETWORK
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
   * Builds the model for {@code charging}, asking {@code outOfTime} between its parts, once per
   * first layer of the stage candidates, every 4096 variables and once per slot in the rows that
   * scan every arc per slot, and giving up with {@link OutOfTime} when it says so.
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
    for (int j = 1; j < layers; j++) {
      double net = performance.transferSeconds(m, j, batch, cluster.network());
      double best = net;
      if (charging == Charging.OPTIMISTIC) {
        for (String node : freeGroupsByNode.keySet()) {
          best = Math.min(best, performance.transferSeconds(m, j, batch, cluster.node(node).intraLink()));
        }
      }
      networkSeconds[j] = best;
    }

    if (charging != Charging.OPTIMISTIC) {
      buildSlots(m, freeGroupsByNode, charging == Charging.NETWORK);
    }
    for (CostGroup g : groups) {
      g.outsideSlowNodes = (int) g.gpus.stream().filter(gpu -> !slowNodeIds.contains(gpu.node())).count();
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

  /**
   * Slots per class of identical nodes. A class faster than the network at some cut (and never
   * slower) gets {@code maxStages / 2} slots, when {@code fast}: runs of two or more stages. A class
   * slower at some cut gets {@code maxStages} slots, because every stage wholly on such a node is a
   * slot stage there (network stages never sit wholly on one), and its nodes' GPUs are open to
   * network stages through {@link SlowNodes}.
   */
  private void buildSlots(Model m, Map<String, List<Integer>> freeGroupsByNode, boolean fast) {
    if (mode == TransferMode.NONE || request.maxStages() < 2) {
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
      boolean hurts = false;
      for (int j = 1; j < layers; j++) {
        intra[j] = performance.transferSeconds(m, j, batch, first.intraLink());
        helps |= intra[j] < networkSeconds[j];
        hurts |= intra[j] > networkSeconds[j];
      }
      if (!hurts && !(helps && fast)) {
        continue;
      }
      int[] perType = new int[types.size()];
      Map<Integer, Integer> perGroup = new LinkedHashMap<>();
      for (int g : freeGroupsByNode.get(first.id())) {
        perType[groups.get(g).type]++;
        perGroup.merge(g, 1, Integer::sum);
      }
      int count = Math.min(nodes.size(), hurts ? request.maxStages() : request.maxStages() / 2);
      for (int q = 0; q < count; q++) {
        Slot s = new Slot(slots.size(), nodes.get(q), first.intraLink(), hurts, perType, perGroup, layers + 1);
        System.arraycopy(intra, 0, s.intraSeconds, 0, intra.length);
        slots.add(s);
        if (hurts) {
          slowNodes.add(new SlowNodes(List.of(s.node), perGroup, s));
        }
      }
      if (hurts) {
        slowNodeIds.addAll(nodes);
        if (nodes.size() > count) {
          slowNodes.add(new SlowNodes(List.copyOf(nodes.subList(count, nodes.size())), perGroup, null));
        }
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
   * Drops a network arc when another network arc over the same layers on a type whose free GPUs
   * outside slow nodes no plan can exhaust ({@code free >= maxStages x its largest replica count})
   * is at most as slow and at most as costly (its dearest GPUs against the other's cheapest).
   * Swapping the one for the other in any plan keeps every constraint (same cuts, so the same
   * transfers; the GPU count of the non-binding type stays within its free GPUs outside slow nodes,
   * so no new stage sits on a slow node; the other type's remaining stages keep their GPUs) and
   * never raises the cost, so the optimum survives. Ties keep the arc of the earlier type.
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
    int[] outsideSlowNodes = new int[types];
    for (CostGroup g : groups) {
      cheapest[g.type] = Math.min(cheapest[g.type], g.cost);
      dearest[g.type] = Math.max(dearest[g.type], g.cost);
      outsideSlowNodes[g.type] += g.outsideSlowNodes;
    }
    boolean[] plentiful = new boolean[types];
    boolean any = false;
    for (int t = 0; t < types; t++) {
      // network stages may always take GPUs outside slow nodes; on slow nodes, only alongside others
      plentiful[t] = outsideSlowNodes[t] >= (long) request.maxStages() * largestReplicas[t];
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
      // r needed per (in side better?, out side better?): better is the faster of the slot's intra
      // link and the network; a side where the two take equally long has only the worse state
      int[][] need = new int[2][2];
      for (int a = 0; a < 2; a++) {
        for (int b = 0; b < 2; b++) {
          double tin = sideSeconds(s, i, a == 1);
          double tout = sideSeconds(s, j, b == 1);
          need[a][b] = tin < 0 || tout < 0 ? -1 : leastReplicas(compute, tin + tout, cap);
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
        boolean betterIn = !nn && !nl;
        boolean betterOut = !nn && !ln;
        arcs.add(new Arc(i, j, t, r, s.index, compute, betterIn, betterOut, !nn && !(betterIn || betterOut)));
      }
    }
  }

  /**
   * SERIAL: the transfer at {@code cut} for a stage on slot {@code s}, in the side's better state
   * (the faster of intra and network) or worse state; -1 when there is no better state (no cut, or
   * both links take equally long).
   */
  private double sideSeconds(Slot s, int cut, boolean better) {
    double net = cut > 0 && cut < layers ? networkSeconds[cut] : 0;
    double intra = cut > 0 && cut < layers ? s.intraSeconds[cut] : 0;
    if (better) {
      return intra == net ? -1 : Math.min(intra, net);
    }
    return Math.max(intra, net);
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
    // a co-location model of 100k arcs takes hundreds of milliseconds to write: ask between parts
    checkTime();
    addPathRows(starting, ending);
    addColocationRows(starting, ending);
    checkTime();
    addPeriodCutRows(ending);
    addSerialIntraRows();
    addLatencyRow();
    checkTime();
    addGpuCountRows();
    checkTime();
    addSlotOrderRows();
  }

  /**
   * One binary per arc; one per intra-node cut of a slot where that link differs from the network
   * (a slower one that breaks the period OVERLAPPED is fixed to 0: the cut cannot be intra there);
   * GPU counts per cost group, slot and group of slow nodes.
   */
  private void addVariables() {
    for (Arc a : arcs) {
      if ((model.variableCount() & 4095) == 0) {
        checkTime();
      }
      a.variable = model.addVariable("x_" + a.from + "_" + a.to + "_" + types.get(a.type).name() + "_r" + a.replicas
          + (a.slot < 0 ? "_net" : "_s" + a.slot), 0, 1);
    }
    for (Slot s : slots) {
      for (int j = 1; j < layers; j++) {
        boolean allowed = mode != TransferMode.OVERLAPPED || meetsPeriod(s.intraSeconds[j]);
        if (s.intraSeconds[j] < networkSeconds[j] && allowed) {
          s.intraVariable[j] = model.addVariable("z_" + j + "_s" + s.index, 0, 1);
        } else if (s.intraSeconds[j] > networkSeconds[j]) {
          s.intraVariable[j] = model.addVariable("z_" + j + "_s" + s.index, 0, allowed ? 1 : 0);
        }
      }
    }
    for (int g = 0; g < groups.size(); g++) {
      CostGroup group = groups.get(g);
      group.netVariable = model.addVariable("w_g" + g, 0, group.outsideSlowNodes);
      model.setObjective(group.netVariable, group.cost);
    }
    for (Slot s : slots) {
      for (Map.Entry<Integer, Integer> e : s.freePerGroup.entrySet()) {
        int v = model.addVariable("v_s" + s.index + "_g" + e.getKey(), 0, e.getValue());
        s.usageVariable.put(e.getKey(), v);
        model.setObjective(v, groups.get(e.getKey()).cost);
      }
    }
    for (int p = 0; p < slowNodes.size(); p++) {
      SlowNodes pool = slowNodes.get(p);
      for (Map.Entry<Integer, Integer> e : pool.freePerGroup.entrySet()) {
        int u = model.addVariable("u_p" + p + "_g" + e.getKey(), 0, (long) e.getValue() * pool.nodes.size());
        pool.netVariable.put(e.getKey(), u);
        model.setObjective(u, groups.get(e.getKey()).cost);
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

  /**
   * Intra-node cuts: a faster intra link may be charged only when both neighbouring stages sit on
   * the slot; a slower one must be charged whenever they do.
   */
  private void addColocationRows(List<List<Arc>> starting, List<List<Arc>> ending) {
    for (Slot s : slots) {
      checkTime(); // slots x arcs
      for (int j = 1; j < layers; j++) {
        int z = s.intraVariable[j];
        if (z < 0) {
          continue;
        }
        if (s.intraSeconds[j] > networkSeconds[j]) {
          List<Term> row = new ArrayList<>();
          row.add(new Term(z, -1));
          for (Arc a : ending.get(j)) {
            if (a.slot == s.index) {
              row.add(new Term(a.variable, 1));
            }
          }
          for (Arc a : starting.get(j)) {
            if (a.slot == s.index) {
              row.add(new Term(a.variable, 1));
            }
          }
          model.addRow("slowCut_" + j + "_s" + s.index, Double.NEGATIVE_INFINITY, 1, row);
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
            if (s.intraVariable[j] >= 0 && s.intraSeconds[j] < networkSeconds[j]) {
              row.add(new Term(s.intraVariable[j], -1));
            }
          }
          model.addRow("periodCut_" + j, Double.NEGATIVE_INFINITY, 0, row);
        }
      }
    }
  }

  /**
   * SERIAL: arcs whose replica count relies on the better state of a cut get it. The better state is
   * {@code z} where the slot's intra link is faster, {@code 1 - z} where it is slower, so a row
   * {@code x <= sum of better states} moves each slower side's constant to the right-hand side.
   */
  private void addSerialIntraRows() {
    for (Arc a : arcs) {
      if (!(a.needsBetterIn || a.needsBetterOut || a.needsSomeBetter)) {
        continue;
      }
      Slot s = slots.get(a.slot);
      if (a.needsBetterIn) {
        addBetterRow((s.intraSeconds[a.from] > networkSeconds[a.from] ? "networkIn_" : "intraIn_") + a.variable, a, s,
            a.from);
      }
      if (a.needsBetterOut) {
        addBetterRow((s.intraSeconds[a.to] > networkSeconds[a.to] ? "networkOut_" : "intraOut_") + a.variable, a, s,
            a.to);
      }
      if (a.needsSomeBetter) {
        addBetterRow("intraSome_" + a.variable, a, s, a.from, a.to);
      }
    }
  }

  /** {@code x[a] <=} the sum of the better states of slot {@code s}'s cuts {@code cuts}. */
  private void addBetterRow(String name, Arc a, Slot s, int... cuts) {
    List<Term> row = new ArrayList<>(List.of(new Term(a.variable, 1)));
    double rhs = 0;
    for (int cut : cuts) {
      int z = s.intraVariable[cut];
      if (z < 0) {
        continue; // no better state there: it contributes 0
      }
      boolean slower = s.intraSeconds[cut] > networkSeconds[cut];
      row.add(new Term(z, slower ? 1 : -1));
      rhs += slower ? 1 : 0;
    }
    model.addRow(name, Double.NEGATIVE_INFINITY, rhs, row);
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

  /**
   * GPU counts: network stages draw from every free GPU, slots from their node; no group over its
   * size. On slow nodes network stages must not sit wholly on one node: a stage of one replica takes
   * a GPU elsewhere, and no slow node gives network stages of a type more GPUs than their replicas
   * less one each. These two conditions are also enough for {@link SolutionDecoder} to hand the
   * counted GPUs to the stages so that none sits wholly on one slow node.
   */
  private void addGpuCountRows() {
    for (int t = 0; t < types.size(); t++) {
      List<Term> row = new ArrayList<>();
      List<Term> outside = new ArrayList<>();
      for (CostGroup g : groups) {
        if (g.type == t) {
          row.add(new Term(g.netVariable, 1));
          outside.add(new Term(g.netVariable, -1));
        }
      }
      boolean onSlowNodes = false;
      for (SlowNodes pool : slowNodes) {
        List<Term> spread = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : pool.netVariable.entrySet()) {
          if (groups.get(e.getKey()).type == t) {
            row.add(new Term(e.getValue(), 1));
            spread.add(new Term(e.getValue(), 1));
          }
        }
        if (!spread.isEmpty()) {
          onSlowNodes = true;
          for (Arc a : arcs) {
            if (a.slot < 0 && a.type == t && a.replicas > 1) {
              spread.add(new Term(a.variable, -(a.replicas - 1.0) * pool.nodes.size()));
            }
          }
          model.addRow("slowSpread_p" + slowNodes.indexOf(pool) + "_" + types.get(t).name(), Double.NEGATIVE_INFINITY, 0,
              spread);
        }
      }
      for (Arc a : arcs) {
        if (a.slot < 0 && a.type == t) {
          row.add(new Term(a.variable, -a.replicas));
          if (a.replicas == 1) {
            outside.add(new Term(a.variable, 1));
          }
        }
      }
      model.addRow("netGpus_" + types.get(t).name(), 0, 0, row);
      if (onSlowNodes) {
        model.addRow("singleOffSlow_" + types.get(t).name(), Double.NEGATIVE_INFINITY, 0, outside);
      }
      for (Slot s : slots) {
        checkTime(); // slots x arcs
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
        if (v != null && !s.slow) {
          row.add(new Term(v, 1));
        }
      }
      if (row.size() > 1) {
        model.addRow("capacity_g" + g, Double.NEGATIVE_INFINITY, groups.get(g).outsideSlowNodes, row);
      }
    }
    for (int p = 0; p < slowNodes.size(); p++) {
      SlowNodes pool = slowNodes.get(p);
      if (pool.slot == null) {
        continue; // nodes without a slot: the variable's bound is their capacity
      }
      for (Map.Entry<Integer, Integer> e : pool.netVariable.entrySet()) {
        model.addRow("slowNode_p" + p + "_g" + e.getKey(), Double.NEGATIVE_INFINITY, pool.freePerGroup.get(e.getKey()),
            List.of(new Term(e.getValue(), 1), new Term(pool.slot.usageVariable.get(e.getKey()), 1)));
      }
    }
  }

  /** Symmetry: identical slots are used in order. */
  private void addSlotOrderRows() {
    for (int k = 1; k < slots.size(); k++) {
      checkTime(); // slots x arcs
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
      int take = Math.min(perType[g.type], g.outsideSlowNodes);
      values[g.netVariable] = take;
      perType[g.type] -= take;
    }
    return Optional.of(values);
  }

  /** The node GPU {@code gpuId} sits on. */
  String nodeOf(String gpuId) {
    return cluster.gpu(gpuId).node();
  }
}
