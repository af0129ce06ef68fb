package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.share.Placement;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.perf.share.CoRunner;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.ArcGenerator.SharedUse;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.flow.SharedSlots.Part;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.strategy.support.SharedSlotMenu;

/**
 * The shared arcs of an {@link IntervalFlowFormulation}: "layers {@code [i, j)} with placement
 * {@code p} on {@code r} GPUs of one type, each a fresh GPU offering {@code p} or a partly used
 * slot offering it, at slowdown α", always on the network.
 *
 * <p><b>α levels.</b> A stage's time is its time alone times the largest α over its replicas'
 * GPUs (1 on a fresh GPU, the menu's α on a partly used one). For each (layers, type, placement)
 * one arc per distinct α among the eligible GPUs is generated: it charges that α and may take only
 * GPUs whose α is at most it, with the least replica count that keeps the period at that α. Every
 * real stage is such an arc (its largest α names the level), and every arc's stage is charged at
 * least its real time: exact.
 *
 * <p><b>Incumbents.</b> A partly used slot is eligible for an arc only when every incumbent stage
 * on its GPU keeps its period with the arc's stage as a new co-runner there (a per-stage test, so
 * exact); the latency of each incumbent is left to {@link FlowProgramBuilder}'s rows, from the α each
 * incumbent stage would get, which is recorded per (arc, slot).
 */
final class SharedArcs {

  /** The least replica count at a load, as {@link ArcGenerator} computes it. */
  @FunctionalInterface
  interface LeastReplicas {
    int of(double compute, double transfers, int max);
  }

  private final FreeGpus f;
  private final NodeSlots.Layout layout;
  /** The generator's arcs so far (every whole arc): the shared ones are added to them. */
  private final List<Arc> arcs;
  private final Model m;
  private final LeastReplicas least;
  private final double budget;
  private final SharedSlots shared;
  /** Per boundary: the least compute the layers before it take on any GPU type and placement. */
  private final double[] before;

  SharedArcs(FreeGpus f, NodeSlots.Layout layout, List<Arc> arcs, Model m, LeastReplicas least, double budget, double[] before) {
    this.f = f;
    this.layout = layout;
    this.arcs = arcs;
    this.before = before;
    this.m = m;
    this.least = least;
    this.budget = budget;
    this.shared = f.shared();
  }

  /**
   * Lowers {@code fastest[l]} to the least time layer {@code l} alone takes on any shared placement
   * the menu offers, so that the latency bound of the other layers holds for shared stages too. A
   * stage that is not the whole model is timed by the analytic tier, a sum over its layers
   * (measured and fitted series answer whole-model stages only, whose other layers are none).
   */
  static void fastestShared(FreeGpus f, Model m, double[] fastest) {
    for (int t = 0; t < f.types().size(); t++) {
      List<Placement> keys = new ArrayList<>(f.shared().freshKeys.get(t));
      for (Part p : f.shared().parts) {
        if (p.type == t && !keys.contains(SharedSlots.key(p.slot.placement()))) {
          keys.add(SharedSlots.key(p.slot.placement()));
        }
      }
      for (Placement key : keys) {
        long cap = SharedSlotMenu.reservesMemory(key) ? f.types().get(t).memoryBytes() : -1;
        DeviceKind kind = DeviceKind.of(f.types().get(t), cap < 0 ? key : SharedSlots.withMemory(key, cap / 2));
        for (int l = 0; l < f.layers(); l++) {
          StageCursor one = f.performance().cursor(m, f.batch(), l, List.of(kind)).add();
          if (one.fitsOn(kind) || cap > 0) {
            fastest[l] = Math.min(fastest[l], one.seconds(0));
          }
        }
      }
    }
  }

  void build() {
    int types = f.types().size();
    // fresh GPUs per type and key, outside slow nodes: what shared network stages may take
    int[][] fresh = new int[types][];
    for (int t = 0; t < types; t++) {
      fresh[t] = new int[shared.freshKeys.get(t).size()];
    }
    for (CostGroup g : f.groups()) {
      for (int k = 0; k < fresh[g.type].length; k++) {
        if (!Double.isNaN(g.sharedCosts[k])) {
          fresh[g.type][k] += g.outsideSlowNodes;
        }
      }
    }
    boolean[] plentiful = plentifulFreshTypes();
    double[][] dearestFresh = new double[types][];
    for (int t = 0; t < types; t++) {
      dearestFresh[t] = new double[fresh[t].length];
      java.util.Arrays.fill(dearestFresh[t], Double.NaN);
    }
    for (CostGroup g : f.groups()) {
      for (int k = 0; k < fresh[g.type].length; k++) {
        if (!Double.isNaN(g.sharedCosts[k]) && g.outsideSlowNodes > 0) {
          dearestFresh[g.type][k] = Double.isNaN(dearestFresh[g.type][k]) ? g.sharedCosts[k]
              : Math.max(dearestFresh[g.type][k], g.sharedCosts[k]);
        }
      }
    }
    for (int i = 0; i < f.layers(); i++) {
      f.checkTime();
      for (int t = 0; t < types; t++) {
        GpuType type = f.types().get(t);
        List<Placement> keys = new ArrayList<>(shared.freshKeys.get(t));
        List<List<Part>> partsByKey = new ArrayList<>();
        keys.forEach(k -> partsByKey.add(new ArrayList<>()));
        for (Part p : shared.parts) {
          if (p.type != t || layout.slowNodeIds().contains(f.nodeOf(p.gpu))) {
            continue; // a stage wholly on a slow node would be charged too little
          }
          Placement key = SharedSlots.key(p.slot.placement());
          int k = keys.indexOf(key);
          if (plentiful[t] && k >= 0 && k < fresh[t].length && !Double.isNaN(dearestFresh[t][k])
              && p.cost >= dearestFresh[t][k]) {
            continue; // dominated by any fresh GPU offering the same placement (see plentifulFreshTypes)
          }
          if (k < 0) {
            keys.add(key);
            partsByKey.add(new ArrayList<>());
            k = keys.size() - 1;
          }
          partsByKey.get(k).add(p);
        }
        for (int k = 0; k < keys.size(); k++) {
          int freshCount = k < fresh[t].length ? fresh[t][k] : 0;
          long freshCap = k < fresh[t].length ? shared.freshMemoryCaps.get(t)[k] : -1;
          addArcs(i, t, type, keys.get(k), k, freshCount, freshCap, partsByKey.get(k), null);
        }
        for (Slot slot : layout.slots()) {
          addSlotArcs(i, t, type, slot);
        }
      }
    }
  }

  /**
   * Shared stages wholly on slot {@code slot}'s node: its fresh GPUs offering each placement and its
   * partly used slots (a slot stage may sit on a slow node: it is charged that node's link).
   */
  private void addSlotArcs(int i, int t, GpuType type, Slot slot) {
    List<Placement> keys = new ArrayList<>(shared.freshKeys.get(t));
    int freshKeys = keys.size();
    List<List<Part>> partsByKey = new ArrayList<>();
    keys.forEach(k -> partsByKey.add(new ArrayList<>()));
    for (Part p : shared.parts) {
      if (p.type == t && f.nodeOf(p.gpu).equals(slot.node)) {
        int k = keys.indexOf(SharedSlots.key(p.slot.placement()));
        if (k < 0) {
          keys.add(SharedSlots.key(p.slot.placement()));
          partsByKey.add(new ArrayList<>());
          k = keys.size() - 1;
        }
        partsByKey.get(k).add(p);
      }
    }
    for (int k = 0; k < keys.size(); k++) {
      int freshCount = 0;
      if (k < freshKeys) {
        for (java.util.Map.Entry<Integer, Integer> e : slot.freePerGroup.entrySet()) {
          CostGroup g = f.groups().get(e.getKey());
          if (g.type == t && !Double.isNaN(g.sharedCosts[k])) {
            freshCount += e.getValue();
          }
        }
      }
      long freshCap = k < freshKeys ? shared.freshMemoryCaps.get(t)[k] : -1;
      addArcs(i, t, type, keys.get(k), k, freshCount, freshCap, partsByKey.get(k), slot);
    }
  }

  private void addArcs(int i, int t, GpuType type, Placement key, int keyIndex, int freshCount, long freshCap, List<Part> parts,
      Slot slot) {
    if (freshCount == 0 && parts.isEmpty()) {
      return;
    }
    long largestCap = freshCount > 0 ? freshCap : -1;
    for (Part p : parts) {
      largestCap = Math.max(largestCap, p.slot.memoryCapBytes());
    }
    DeviceKind kind = DeviceKind.of(type, SharedSlots.withMemory(key, largestCap));
    StageCursor stage = f.performance().cursor(m, f.batch(), i, List.of(kind));
    boolean serial = f.mode() == TransferMode.SERIAL;
    int where = slot == null ? -1 : slot.index;
    for (int j = i + 1; j <= f.layers(); j++) {
      stage.add();
      long memory = stage.memoryBytes();
      if (memory > largestCap) {
        break; // memory grows with j
      }
      double compute = stage.seconds(0);
      // transfers the period must carry: serial network stages pay both sides; slot stages are sized per state below
      double tr = serial && slot == null ? f.in(i) + f.out(j) : 0;
      int available = freshCount + parts.size();
      if (least.of(compute, 0, available) < 0) {
        break; // T grows with j, and α >= 1 only slows it further
      }
      if (compute > budget) {
        break;
      }
      double rest = before[i] + before[f.layers()] - before[j];
      Placement placement = SharedSlots.withMemory(key, memory);
      boolean freshOk = freshCount > 0 && memory <= freshCap;
      List<Part> eligible = new ArrayList<>();
      List<double[]> incumbentAlpha = new ArrayList<>();
      TreeSet<Double> levels = new TreeSet<>();
      if (freshOk) {
        levels.add(1.0);
      }
      for (Part p : parts) {
        if (memory > p.slot.memoryCapBytes()) {
          continue;
        }
        double[] alphas = new double[p.incumbentStages.size()];
        boolean keeps = true;
        if (alphas.length > 0) {
          CoRunner newcomer = shared.newcomer(i, j, p.gpu, placement, compute);
          for (int e = 0; e < alphas.length && keeps; e++) {
            int[] ik = p.incumbentStages.get(e);
            alphas[e] = shared.incumbentAlphaWith(p, e, newcomer);
            keeps = shared.incumbents.get(ik[0]).keepsPeriod(ik[1], alphas[e]);
          }
        }
        if (keeps) {
          eligible.add(p);
          incumbentAlpha.add(alphas);
          levels.add(p.slot.alpha());
        }
      }
      for (double level : levels) {
        if (rest + compute * level > budget) {
          break; // even with the other layers at their fastest and free transfers, too slow
        }
        List<Integer> use = new ArrayList<>();
        List<double[]> useAlpha = new ArrayList<>();
        for (int e = 0; e < eligible.size(); e++) {
          if (eligible.get(e).slot.alpha() <= level) {
            use.add(eligible.get(e).index);
            useAlpha.add(incumbentAlpha.get(e));
          }
        }
        int cap = (freshOk ? freshCount : 0) + use.size();
        int[] partIndices = use.stream().mapToInt(Integer::intValue).toArray();
        double[][] partAlpha = useAlpha.toArray(new double[0][]);
        if (serial && slot != null) {
          addSerialSlotArcs(i, j, t, compute * level, cap, slot, key, keyIndex, level, memory, freshOk, partIndices, partAlpha);
          continue;
        }
        int r = least.of(compute * level, tr, cap);
        if (r < 0) {
          continue;
        }
        if (r == 1) {
          // one replica: one arc per GPU it may take, each at that GPU's own α (a fresh GPU at 1);
          // the arc's variable is then the slot's own, with no row tying the two
          if (level == 1.0 && freshOk) {
            add(i, j, t, 1, where, compute, key, keyIndex, 1.0, memory, true, new int[0], new double[0][], false);
          }
          for (int e = 0; e < eligible.size(); e++) {
            if (eligible.get(e).slot.alpha() == level) {
              add(i, j, t, 1, where, compute * level, key, keyIndex, level, memory, false, new int[] {eligible.get(e).index},
                  new double[][] {incumbentAlpha.get(e)}, true);
            }
          }
          continue;
        }
        add(i, j, t, r, where, compute * level, key, keyIndex, level, memory, freshOk, partIndices, partAlpha, false);
      }
    }
  }

  /**
   * Types whose free GPUs outside slow nodes no plan can exhaust: at least maxStages times the
   * most replicas any stage of the type takes (whole arcs as generated; a shared stage is charged
   * at most the latency budget, so it needs no more replicas than that compute at the largest
   * transfer load). There a partly used slot that costs at least the dearest fresh GPU offering
   * the same placement is dominated: swapping it for a fresh GPU left free keeps the stage's α or
   * lowers it (α = 1 there), relieves the slot's incumbents, and costs no more. So it is left out,
   * exactly.
   */
  private boolean[] plentifulFreshTypes() {
    int types = f.types().size();
    int[] outside = new int[types];
    for (CostGroup g : f.groups()) {
      outside[g.type] += g.outsideSlowNodes;
    }
    int[] largest = new int[types];
    for (Arc a : arcs) {
      largest[a.type] = Math.max(largest[a.type], a.replicas);
    }
    double transfers = 0;
    if (f.mode() == TransferMode.SERIAL) {
      for (int j = 1; j < f.layers(); j++) {
        transfers = Math.max(transfers, f.networkSeconds()[j]);
      }
      transfers *= 2;
    }
    int sharedMost = least.of(budget, transfers, Integer.MAX_VALUE / 2);
    boolean[] plentiful = new boolean[types];
    for (int t = 0; t < types; t++) {
      plentiful[t] = sharedMost > 0 && outside[t] >= (long) f.request().maxStages() * Math.max(largest[t], sharedMost);
    }
    return plentiful;
  }

  /**
   * SERIAL, a stage on a slot: its load carries both transfers, whose links depend on whether the
   * neighbouring stages sit on the slot too; one arc per distinct least replica count over the four
   * states, each relying on the states it needs (as {@link ArcGenerator} does for whole stages).
   */
  private void addSerialSlotArcs(int i, int j, int t, double compute, int cap, Slot slot, Placement key, int keyIndex, double level,
      long memory, boolean fresh, int[] parts, double[][] partAlpha) {
    int[][] need = new int[2][2];
    for (int a = 0; a < 2; a++) {
      for (int b = 0; b < 2; b++) {
        double tin = ArcGenerator.sideSeconds(f, slot, i, a == 1);
        double tout = ArcGenerator.sideSeconds(f, slot, j, b == 1);
        need[a][b] = tin < 0 || tout < 0 ? -1 : least.of(compute, tin + tout, cap);
      }
    }
    for (Arc a : ArcGenerator.serialSlotArcs(i, j, t, slot.index, compute, need)) {
      arcs.add(a.sharing(new SharedUse(key, keyIndex, level, memory, fresh, parts, partAlpha, false)));
    }
  }

  private void add(int i, int j, int t, int r, int where, double compute, Placement key, int keyIndex, double level, long memory,
      boolean fresh, int[] parts, double[][] incumbentAlpha, boolean single) {
    arcs.add(new Arc(i, j, t, r, where, compute, false, false, false)
        .sharing(new SharedUse(key, keyIndex, level, memory, fresh, parts, incumbentAlpha, single)));
  }
}
