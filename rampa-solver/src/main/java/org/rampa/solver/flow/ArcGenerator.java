package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.perf.WholeGpu;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.flow.NodeSlots.Slot;

/**
 * The arc step of an {@link IntervalFlowFormulation}: which stages "layers {@code [i, j)} on
 * {@code r} GPUs of one type, on the network or on one slot" exist (memory, the period, the least
 * replica count, the latency bound), and the exact dominance pruning of network arcs. From the
 * {@link FreeGpus} and the {@link NodeSlots.Layout} of the steps before, it returns the arcs, each
 * numbered by its binary's index in the model.
 */
final class ArcGenerator {

  /**
   * Layers [from, to) on {@code replicas} GPUs of {@code type}; {@code slot} -1 = network.
   * {@code variable}: its binary's index in the model, which is its index among the generated arcs
   * (-1 while it is being generated).
   */
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
    final int variable;
    /** Shared arcs only ({@link #shared()}); null for a whole-GPU arc. */
    final SharedUse share;

    /** An arc on shares (MPS levels, MIG instances) rather than whole free GPUs: always a network arc. */
    boolean shared() {
      return share != null;
    }

    Arc(int from, int to, int type, int replicas, int slot, double computeSeconds,
        boolean needsBetterIn, boolean needsBetterOut, boolean needsSomeBetter) {
      this(from, to, type, replicas, slot, computeSeconds, needsBetterIn, needsBetterOut, needsSomeBetter, null, -1);
    }

    private Arc(int from, int to, int type, int replicas, int slot, double computeSeconds,
        boolean needsBetterIn, boolean needsBetterOut, boolean needsSomeBetter, SharedUse share, int variable) {
      this.from = from;
      this.to = to;
      this.type = type;
      this.replicas = replicas;
      this.slot = slot;
      this.computeSeconds = computeSeconds;
      this.needsBetterIn = needsBetterIn;
      this.needsBetterOut = needsBetterOut;
      this.needsSomeBetter = needsSomeBetter;
      this.share = share;
      this.variable = variable;
    }

    /** This arc on shares. */
    Arc sharing(SharedUse use) {
      return new Arc(from, to, type, replicas, slot, computeSeconds, needsBetterIn, needsBetterOut, needsSomeBetter, use, variable);
    }

    /** This arc as the model's {@code variable}-th. */
    Arc numbered(int index) {
      return new Arc(from, to, type, replicas, slot, computeSeconds, needsBetterIn, needsBetterOut, needsSomeBetter, share, index);
    }
  }

  /**
   * What a shared arc holds: placement {@code key} (an MPS share without its reservation, or a MIG
   * instance) for a stage of {@code memory} bytes, charged slowdown {@code alpha} (its compute
   * already includes it); its replicas come from fresh GPUs of its type offering the key (when
   * {@code fresh}) and from the partly used slots {@code parts}, whose α is at most {@code alpha}.
   * {@code incumbentAlpha[p]}: per entry of that part's incumbent stages, the stage's α once this
   * arc's stage joins the GPU.
   */
  static final class SharedUse {
    final org.rampa.domain.share.Placement key;
    final int keyIndex;
    final double alpha;
    final long memory;
    final boolean fresh;
    final int[] parts;
    final double[][] incumbentAlpha;
    /** One replica on its one slot: the arc's variable is the slot's too (no y, no row). */
    final boolean single;

    SharedUse(org.rampa.domain.share.Placement key, int keyIndex, double alpha, long memory, boolean fresh, int[] parts,
        double[][] incumbentAlpha, boolean single) {
      this.key = key;
      this.keyIndex = keyIndex;
      this.alpha = alpha;
      this.memory = memory;
      this.fresh = fresh;
      this.parts = parts;
      this.incumbentAlpha = incumbentAlpha;
      this.single = single;
    }
  }

  private final FreeGpus f;
  private final List<Slot> slots;
  private final Model m;
  /** The arcs generated so far, in generation order. */
  private final List<Arc> arcs = new ArrayList<>();

  private ArcGenerator(FreeGpus free, NodeSlots.Layout layout, Model m) {
    this.f = free;
    this.slots = layout.slots();
    this.m = m;
  }

  /** The arcs over {@code free}'s GPUs and {@code layout}'s slots, numbered in order. */
  static List<Arc> generate(FreeGpus free, NodeSlots.Layout layout, Model m) {
    ArcGenerator generator = new ArcGenerator(free, layout, m);
    generator.buildArcs(layout);
    List<Arc> numbered = new ArrayList<>(generator.arcs.size());
    for (Arc a : generator.arcs) {
      numbered.add(a.numbered(numbered.size()));
    }
    return List.copyOf(numbered);
  }

  /**
   * The least replica count r <= max with meetsPeriod(T/r + transfers), or -1. Binary search: the
   * load T/r + transfers falls monotonically with r, also in floating point.
   */
  int leastReplicas(double compute, double transfers, int max) {
    if (max < 1 || !f.meetsPeriod(compute / max + transfers)) {
      return -1;
    }
    int lo = 1;
    int hi = max;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (f.meetsPeriod(compute / mid + transfers)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private void buildArcs(NodeSlots.Layout layout) {
    // Latency lower bounds: every layer before i and from j on at its fastest free type, no transfers.
    double[] fastest = new double[f.layers()];
    for (int l = 0; l < f.layers(); l++) {
      fastest[l] = Double.POSITIVE_INFINITY;
      for (GpuType type : f.types()) {
        if (f.performance().stageMemoryBytes(m, l, l + 1, f.batch()) <= type.memoryBytes()) {
          fastest[l] = Math.min(fastest[l], f.performance().layerSeconds(m.layer(l), type, f.batch()));
        }
      }
    }
    if (f.shared() != null) {
      SharedArcs.fastestShared(f, m, fastest);
    }
    double[] before = new double[f.layers() + 1];
    for (int l = 0; l < f.layers(); l++) {
      before[l + 1] = before[l] + fastest[l];
    }
    double budget = SloPredicate.latencyBudgetSeconds(f.request().slo());
    for (int i = 0; i < f.layers(); i++) {
      f.checkTime();
      for (int t = 0; t < f.types().size(); t++) {
        WholeGpu kind = new WholeGpu(f.types().get(t));
        StageCursor stage = f.performance().cursor(m, f.batch(), i, List.of(kind));
        for (int j = i + 1; j <= f.layers(); j++) {
          if (!stage.add().fitsOn(kind)) {
            break;
          }
          double compute = stage.seconds(0);
          if (leastReplicas(compute, 0, f.freePerType()[t]) < 0) {
            break; // T grows with j: no longer stage from i fits either
          }
          if (before[i] + compute + (before[f.layers()] - before[j]) > budget) {
            continue; // even with the rest on the fastest GPUs and free transfers, too slow
          }
          addArcs(i, j, t, compute);
        }
      }
    }
    if (f.shared() != null) {
      new SharedArcs(f, layout, arcs, m, this::leastReplicas, budget, before).build();
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
    int types = f.types().size();
    int[] largestReplicas = new int[types];
    double[] cheapest = new double[types];
    double[] dearest = new double[types];
    Arrays.fill(cheapest, Double.POSITIVE_INFINITY);
    for (Arc a : arcs) {
      largestReplicas[a.type] = Math.max(largestReplicas[a.type], a.replicas);
    }
    int[] outsideSlowNodes = new int[types];
    for (CostGroup g : f.groups()) {
      cheapest[g.type] = Math.min(cheapest[g.type], g.cost);
      dearest[g.type] = Math.max(dearest[g.type], g.cost);
      outsideSlowNodes[g.type] += g.outsideSlowNodes;
    }
    boolean[] plentiful = new boolean[types];
    boolean any = false;
    for (int t = 0; t < types; t++) {
      // network stages may always take GPUs outside slow nodes; on slow nodes, only alongside others
      plentiful[t] = outsideSlowNodes[t] >= (long) f.request().maxStages() * largestReplicas[t];
      any |= plentiful[t];
    }
    if (!any) {
      return;
    }
    Map<Long, List<Arc>> byLayers = new LinkedHashMap<>();
    for (Arc a : arcs) {
      if (a.slot < 0) {
        byLayers.computeIfAbsent((long) a.from * (f.layers() + 1) + a.to, k -> new ArrayList<>()).add(a);
      }
    }
    java.util.Set<Arc> dominated = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (List<Arc> same : byLayers.values()) {
      // arcs of one group in arc order; per arc the least its replicas cost (as the dominated one)
      // and, for those that may replace another, the most (as the dominating one)
      int n = same.size();
      double[] least = new double[n];
      double[] most = new double[n];
      boolean[] gone = new boolean[n];
      List<Integer> replacing = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        Arc a = same.get(k);
        least[k] = a.replicas * (a.shared() ? cheapestShared(a) : cheapest[a.type]);
        // b replaces a on fresh GPUs only: whole ones, or ones offering b's shared placement
        if (plentiful[a.type] && !(a.shared() && !a.share.fresh)) {
          most[k] = a.replicas * (a.shared() ? dearestFresh(a) : dearest[a.type]);
          replacing.add(k);
        }
      }
      for (int k = 0; k < n; k++) {
        Arc a = same.get(k);
        for (int m : replacing) {
          Arc b = same.get(m);
          if (m == k || gone[m]) {
            continue;
          }
          boolean noWorse = most[m] <= least[k] && b.computeSeconds <= a.computeSeconds;
          boolean better = most[m] < least[k] || b.computeSeconds < a.computeSeconds || b.type < a.type
              || b.type == a.type && m < k;
          if (noWorse && better) {
            gone[k] = true;
            dominated.add(a);
            break;
          }
        }
      }
    }
    arcs.removeIf(dominated::contains);
  }

  /** The least a GPU of shared arc {@code a} costs: a fresh GPU offering its placement, or one of its slots. */
  private double cheapestShared(Arc a) {
    double best = Double.POSITIVE_INFINITY;
    for (CostGroup g : f.groups()) {
      if (a.share.fresh && g.type == a.type && g.outsideSlowNodes > 0 && !Double.isNaN(g.sharedCosts[a.share.keyIndex])) {
        best = Math.min(best, g.sharedCosts[a.share.keyIndex]);
      }
    }
    for (int p : a.share.parts) {
      best = Math.min(best, f.shared().parts.get(p).cost);
    }
    return best;
  }

  /** The most a fresh GPU offering shared arc {@code b}'s placement costs. */
  private double dearestFresh(Arc b) {
    double worst = Double.NEGATIVE_INFINITY;
    for (CostGroup g : f.groups()) {
      if (g.type == b.type && g.outsideSlowNodes > 0 && !Double.isNaN(g.sharedCosts[b.share.keyIndex])) {
        worst = Math.max(worst, g.sharedCosts[b.share.keyIndex]);
      }
    }
    return worst;
  }

  private void addArcs(int i, int j, int t, double compute) {
    if (f.mode() != TransferMode.SERIAL) {
      int r = leastReplicas(compute, 0, f.freePerType()[t]);
      arcs.add(new Arc(i, j, t, r, -1, compute, false, false, false));
      for (Slot s : slots) {
        if (r <= s.freePerType[t]) {
          arcs.add(new Arc(i, j, t, r, s.index, compute, false, false, false));
        }
      }
      return;
    }
    int rNet = leastReplicas(compute, f.in(i) + f.out(j), f.freePerType()[t]);
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
          double tin = sideSeconds(f, s, i, a == 1);
          double tout = sideSeconds(f, s, j, b == 1);
          need[a][b] = tin < 0 || tout < 0 ? -1 : leastReplicas(compute, tin + tout, cap);
        }
      }
      arcs.addAll(serialSlotArcs(i, j, t, s.index, compute, need));
    }
  }

  /**
   * SERIAL: the transfer at {@code cut} for a stage on slot {@code s}, in the side's better state
   * (the faster of intra and network) or worse state; -1 when there is no better state (no cut, or
   * both links take equally long).
   */
  static double sideSeconds(FreeGpus f, Slot s, int cut, boolean better) {
    double net = cut > 0 && cut < f.layers() ? f.networkSeconds()[cut] : 0;
    double intra = cut > 0 && cut < f.layers() ? s.intraSeconds[cut] : 0;
    if (better) {
      return intra == net ? -1 : Math.min(intra, net);
    }
    return Math.max(intra, net);
  }

  /**
   * SERIAL arcs of layers [i, j) on a slot from the replicas needed per (in side better?, out side
   * better?) state ({@code need[a][b]}, ≤ 0 when impossible): one arc per distinct count, relying
   * on exactly the states that count does not already cover with the worse links.
   */
  static List<Arc> serialSlotArcs(int i, int j, int t, int slot, double compute, int[][] need) {
    List<Integer> counts = new ArrayList<>();
    for (int[] row : need) {
      for (int r : row) {
        if (r > 0 && !counts.contains(r)) {
          counts.add(r);
        }
      }
    }
    List<Arc> arcs = new ArrayList<>();
    for (int r : counts) {
      boolean nn = need[0][0] > 0 && need[0][0] <= r;
      boolean nl = need[0][1] > 0 && need[0][1] <= r;
      boolean ln = need[1][0] > 0 && need[1][0] <= r;
      boolean betterIn = !nn && !nl;
      boolean betterOut = !nn && !ln;
      arcs.add(new Arc(i, j, t, r, slot, compute, betterIn, betterOut, !nn && !(betterIn || betterOut)));
    }
    return arcs;
  }
}
