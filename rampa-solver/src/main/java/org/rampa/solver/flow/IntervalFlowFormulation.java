package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.NodeSlots.SlowNodes;
import org.rampa.solver.backend.LinearProgram;

/**
 * The interval/flow MILP of docs/SPEC.md section 5 for one placement problem, and the translation of a
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
 * {@link org.rampa.solver.ExactStrategy} solves OPTIMISTIC first and maps its path to concrete GPUs; when that plan
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
 *
 * <h2>Sharing (docs/SHARING.md section 5, "per service")</h2>
 *
 * Built with a {@link SharedSlotMenu} (else nothing below exists and the model is the whole-GPU
 * one, byte for byte), the model also has <em>shared arcs</em> ({@link SharedArcs}): "layers
 * {@code [i, j)} with placement {@code p} (an MPS level, a MIG instance) on {@code r} GPUs of one
 * type at slowdown level α", on the network or on a node slot. Their replicas are fresh GPUs
 * offering {@code p} (α = 1, counted per cost group, whose groups then also key on the shares'
 * costs) and partly used slots whose α is at most the level (binaries {@code y}); one arc per
 * distinct α, charged that α, so the stage's real time (alone x the largest α of its GPUs) is
 * charged exactly. A partly used GPU takes at most one holding of the newcomer. A slot is eligible
 * only when every incumbent stage on its GPU keeps its period with the arc's stage as a new
 * co-runner; each incumbent's latency is a linear row per choice of one touched GPU per stage
 * ({@link SharedRows}). Exact dominance drops partly used slots no cheaper than a fresh GPU of a
 * type no plan can exhaust, and arcs that another arc on such fresh GPUs beats; a one-replica shared
 * stage is one arc per GPU it may take. {@link SharedSlots} reads the menu and the incumbents.
 * {@link CostBound} leaves out of what the solver sees every arc that no plan of at
 * most an incumbent's cost can use (the model itself keeps them).
 *
 * <h2>Steps</h2>
 *
 * Each step returns an immutable value the next one receives: {@link FreeGpus} counts the free
 * GPUs (per type and {@link FreeGpus.CostGroup}) and the charged network transfers;
 * {@link NodeSlots} returns the {@link NodeSlots.Layout} (classes of identical nodes, their slots
 * and slow-node pools); {@link ArcGenerator} the stage candidates after pruning;
 * {@link FlowProgramBuilder} the {@link LinearProgram} with its {@link FlowVariables}. This class
 * holds the results; {@link SolutionDecoder} turns a solution back into GPUs.
 */
public final class IntervalFlowFormulation {

  /** The first step's value; the fields below up to {@link #arcs} are its and the layout's parts, for the readers of a solution. */
  final FreeGpus free;
  final ServiceRequest request;
  final Cluster cluster;
  public final List<GpuType> types;
  final List<CostGroup> groups;
  /** The slots of co-location (none for the optimistic charging). */
  public final List<Slot> slots;
  final List<SlowNodes> slowNodes;
  /** The nodes of every slow class: no network stage sits wholly on one of them. */
  final Set<String> slowNodeIds;
  /** The stage candidates; arc {@code k}'s binary is variable {@code k}. */
  final List<Arc> arcs;
  /** The programme a backend solves. */
  public final LinearProgram model;
  final FlowVariables variables;
  /** The shared-GPU menu's candidates; null when sharing is off (the model is then exactly the whole-GPU one). */
  final SharedSlots shared;
  /** Sharing only: some incumbent's latency rows were summed rather than enumerated (safe, not exact). */
  final boolean inexact;
  private final int layers;
  private final PerformanceModel performance;

  /** What a cut not marked intra-node is charged, and whether slots (co-location) are modelled. */
  public enum Charging {
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

  public IntervalFlowFormulation(ServiceRequest request, ClusterState state, GpuCosts costs, PerformanceModel performance,
      Charging charging) {
    this(request, state, costs, performance, charging, () -> false);
  }

  /**
   * Builds the model for {@code charging}, asking {@code outOfTime} between its steps, once per
   * first layer of the stage candidates, every 4096 variables and once per slot in the rows that
   * scan every arc per slot, and giving up with {@link OutOfTime} when it says so.
   */
  public IntervalFlowFormulation(ServiceRequest request, ClusterState state, GpuCosts costs, PerformanceModel performance,
      Charging charging, BooleanSupplier outOfTime) {
    this(request, state, costs, performance, charging, outOfTime, null, null);
  }

  /**
   * As above, with the stages' shared placements of {@code menu} (docs/SHARING.md section 5) judged by
   * {@code interference}; {@code menu} null: whole free GPUs only, exactly the model without sharing.
   */
  public IntervalFlowFormulation(ServiceRequest request, ClusterState state, GpuCosts costs, PerformanceModel performance,
      Charging charging, BooleanSupplier outOfTime, SharedSlotMenu menu, InterferenceModel interference) {
    Model m = request.model();
    FreeGpus counted = FreeGpus.count(request, state, costs, performance, charging == Charging.OPTIMISTIC, outOfTime, menu,
        interference);
    NodeSlots.Layout layout = charging == Charging.OPTIMISTIC ? NodeSlots.Layout.NONE
        : NodeSlots.build(counted, m, charging == Charging.NETWORK);
    FreeGpus free = counted.outside(layout.slowNodeIds());
    List<Arc> generated = ArcGenerator.generate(free, layout, m);
    free.checkTime();
    FlowProgramBuilder.Built built = FlowProgramBuilder.build(free, layout, generated);
    this.free = free;
    this.request = request;
    this.cluster = free.cluster();
    this.performance = performance;
    this.layers = free.layers();
    this.types = free.types();
    this.groups = free.groups();
    this.slots = layout.slots();
    this.slowNodes = layout.slowNodes();
    this.slowNodeIds = layout.slowNodeIds();
    this.arcs = generated;
    this.model = built.program();
    this.variables = built.variables();
    this.shared = free.shared();
    this.inexact = built.inexact();
  }

  /** The model's layer count: boundaries run from 0 to it. */
  public int layers() {
    return layers;
  }

  /** How many stage candidates (arcs) the model has. */
  public int arcCount() {
    return arcs.size();
  }

  /** How many node slots (co-location) the model has. */
  public int slotCount() {
    return slots.size();
  }

  /** Sharing only: some incumbent's latency rows were summed rather than enumerated, so INFEASIBLE or OPTIMAL is no proof. */
  public boolean inexact() {
    return inexact;
  }

  /** Whether the model has the shared placements of a menu. */
  public boolean sharing() {
    return shared != null;
  }

  /** With sharing: what holding {@code placement} on {@code gpu} costs, as the menu prices it. */
  public double sharedCost(String gpu, org.rampa.domain.share.Placement placement) {
    return shared.cost(gpu, placement);
  }

  /** The performance model the arcs were timed by. */
  public PerformanceModel performance() {
    return performance;
  }

  /**
   * The fewest stages any plan needs, from memory and the period alone (ignoring GPU counts across
   * stages and latency); {@code -1} when no sequence of arcs reaches the end, with
   * {@code furthest[0]} set to the last layer boundary that can be reached.
   */
  public int fewestStages(int[] furthest) {
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
   * layers and GPU type (at the least replica count); GPUs are counted cheapest first. With
   * sharing, a stage on shares becomes the network shared arc of its placement at the largest α of
   * its GPUs, holding the partly used slots it holds and counting its fresh GPUs in their own
   * groups (see {@link #hintShared}). Empty when some stage has no such arc (it used a GPU that is
   * not free, or relied on something this model prices differently).
   */
  public Optional<double[]> hint(Plan plan) {
    double[] values = new double[model.variableCount()];
    int[] perType = new int[types.size()];
    for (Stage stage : plan.stages()) {
      if (!(stage.placement() instanceof org.rampa.domain.share.Whole)) {
        if (shared == null || !hintShared(stage, values)) {
          return Optional.empty();
        }
        continue;
      }
      String typeName = cluster.gpu(stage.gpus().get(0)).type();
      Arc match = null;
      for (Arc a : arcs) {
        if (a.slot < 0 && !a.shared() && a.from == stage.from() && a.to == stage.to() && types.get(a.type).name().equals(typeName)) {
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
      int sharedUses = 0; // with sharing, fresh GPUs shared stages took from this group
      for (int v : variables.shared(g)) {
        sharedUses += v >= 0 ? (int) values[v] : 0;
      }
      int take = Math.min(perType[g.type], g.outsideSlowNodes - sharedUses);
      values[variables.net(g)] = take;
      perType[g.type] -= take;
    }
    return Optional.of(values);
  }

  /**
   * Writes shared stage {@code stage} into {@code values} as a network shared arc: its placement's
   * key, α the largest of its partly used slots' (1 on fresh GPUs), the least replica count of the
   * arc, its slots taken before its fresh GPUs (each counted in its own group); false when no arc
   * or variable expresses it.
   */
  private boolean hintShared(Stage stage, double[] values) {
    org.rampa.domain.share.Placement key = SharedSlots.key(stage.placement());
    int type = types.indexOf(cluster.typeOf(stage.gpus().get(0)));
    List<SharedSlots.Part> parts = new ArrayList<>();
    List<String> fresh = new ArrayList<>();
    double level = 1;
    for (String gpu : stage.gpus()) {
      SharedSlots.Part part = null;
      for (SharedSlots.Part p : shared.parts) {
        if (p.gpu.equals(gpu) && SharedSlots.key(p.slot.placement()).equals(key)) {
          part = p;
        }
      }
      if (part != null) {
        parts.add(part);
        level = Math.max(level, part.slot.alpha());
      } else {
        fresh.add(gpu);
      }
    }
    int keyIndex = type < 0 ? -1 : shared.freshKeys.get(type).indexOf(key);
    for (Arc a : arcs) {
      if (a.slot >= 0 || !a.shared() || a.from != stage.from() || a.to != stage.to() || a.type != type
          || !a.share.key.equals(key) || a.share.alpha != level || a.replicas > stage.gpus().size()) {
        continue;
      }
      List<Integer> slotsTaken = new ArrayList<>();
      for (SharedSlots.Part p : parts) {
        for (int u = 0; u < a.share.parts.length && slotsTaken.size() < a.replicas; u++) {
          if (a.share.parts[u] == p.index) {
            slotsTaken.add(u);
          }
        }
      }
      int freshNeeded = a.replicas - slotsTaken.size();
      if (slotsTaken.size() < Math.min(a.replicas, parts.size()) || freshNeeded > 0 && (!a.share.fresh || freshNeeded > fresh.size())) {
        continue; // the arc cannot take the stage's slots, or lacks fresh GPUs the stage relies on
      }
      List<Integer> groupsTaken = new ArrayList<>();
      for (String gpu : fresh.subList(0, freshNeeded)) {
        int g = groupOf(gpu);
        if (g < 0 || keyIndex < 0 || variables.groupShared()[g][keyIndex] < 0) {
          return false;
        }
        groupsTaken.add(g);
      }
      values[a.variable] = 1;
      if (!a.share.single) {
        slotsTaken.forEach(u -> values[variables.parts(a)[u]] = 1);
      }
      groupsTaken.forEach(g -> values[variables.groupShared()[g][keyIndex]]++);
      return true;
    }
    return false;
  }

  /** The cost group free GPU {@code gpu} belongs to; -1 when it is not free. */
  private int groupOf(String gpu) {
    for (int g = 0; g < groups.size(); g++) {
      for (Gpu candidate : groups.get(g).gpus) {
        if (candidate.id().equals(gpu)) {
          return g;
        }
      }
    }
    return -1;
  }

  /** The node GPU {@code gpuId} sits on. */
  String nodeOf(String gpuId) {
    return cluster.gpu(gpuId).node();
  }
}
