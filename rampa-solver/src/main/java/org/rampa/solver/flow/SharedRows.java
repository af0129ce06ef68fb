package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.perf.SloPredicate;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.IntervalFlowFormulation.CostGroup;
import org.rampa.solver.backend.LinearProgram.Term;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.NodeSlots.SlowNodes;
import org.rampa.solver.flow.SharedSlots.Incumbent;
import org.rampa.solver.flow.SharedSlots.Part;

/**
 * The shared-GPU variables and rows of an {@link IntervalFlowFormulation}, written after the
 * whole-GPU model (whose variables and rows stay as they are):
 *
 * <ul>
 *   <li>{@code y[a][p]} (binary): shared arc {@code a} takes partly used slot {@code p}; its cost is
 *       the slot's. {@code s[g][k]} (integer): GPUs of cost group {@code g} shared network stages
 *       take with fresh placement {@code k}, at the group's cost for it.
 *   <li>Per shared arc, its slots at most its replicas (exactly, when no fresh GPU offers its
 *       placement); per type and fresh placement, the arcs' replicas less their slots equal the fresh
 *       GPUs counted; per cost group, whole and shared uses within its free GPUs outside slow nodes;
 *       per partly used GPU, at most one of its slots (one holding of the newcomer per GPU).
 *   <li>Per incumbent: its latency with every touched stage slowed to the α the newcomer's stage
 *       gives it. A stage's α is the largest over its replicas' GPUs, so the row is written once per
 *       choice of one touched GPU per stage (each bounding the maximum from below; together exact);
 *       beyond {@link #MAX_CHOICES} choices the terms of all its GPUs are summed instead, which is
 *       safe but may cut feasible plans, and the formulation is marked {@code inexact}.
 * </ul>
 */
final class SharedRows {

  static final int MAX_CHOICES = 64;
  private static final double MICROS = 1e6;

  private final IntervalFlowFormulation f;
  private final SharedSlots shared;

  SharedRows(IntervalFlowFormulation f) {
    this.f = f;
    this.shared = f.shared;
  }

  void build() {
    addVariables();
    addArcRows();
    addFreshRows();
    addCapacityRows();
    addOneHoldingPerGpuRows();
    addIncumbentRows();
  }

  private void addVariables() {
    for (Arc a : f.arcs) {
      if (!a.shared()) {
        continue;
      }
      a.share.partVariables = new int[a.share.parts.length];
      if (a.share.single) {
        a.share.partVariables[0] = a.variable;
        f.model.setObjective(a.variable, shared.parts.get(a.share.parts[0]).cost);
        continue;
      }
      for (int u = 0; u < a.share.parts.length; u++) {
        Part p = shared.parts.get(a.share.parts[u]);
        int y = f.model.addVariable("y_" + a.variable + "_p" + p.index, 0, 1);
        f.model.setObjective(y, p.cost);
        a.share.partVariables[u] = y;
      }
    }
    for (int g = 0; g < f.groups.size(); g++) {
      CostGroup group = f.groups.get(g);
      for (int k = 0; k < group.sharedCosts.length; k++) {
        if (!Double.isNaN(group.sharedCosts[k]) && group.outsideSlowNodes > 0) {
          group.sharedVariables[k] = f.model.addVariable("s_g" + g + "_k" + k, 0, group.outsideSlowNodes);
          f.model.setObjective(group.sharedVariables[k], group.sharedCosts[k]);
        }
      }
    }
    for (Slot s : f.slots) {
      for (Map.Entry<Integer, Integer> e : s.freePerGroup.entrySet()) {
        CostGroup group = f.groups.get(e.getKey());
        for (int k = 0; k < group.sharedCosts.length; k++) {
          if (!Double.isNaN(group.sharedCosts[k])) {
            int v = f.model.addVariable("sv_s" + s.index + "_g" + e.getKey() + "_k" + k, 0, e.getValue());
            f.model.setObjective(v, group.sharedCosts[k]);
            slotShared(s).put(List.of(e.getKey(), k), v);
          }
        }
      }
    }
  }

  /** Per slot: (group, fresh key) -> the variable counting that group's GPUs on the slot's node shared slot stages take. */
  private Map<List<Integer>, Integer> slotShared(Slot s) {
    return shared.slotFresh.computeIfAbsent(s.index, k -> new LinkedHashMap<>());
  }

  /** A shared arc's slots: none unless chosen, at most its replicas, all of them without fresh GPUs. */
  private void addArcRows() {
    for (Arc a : f.arcs) {
      if (!a.shared() || a.share.single || a.share.fresh && a.share.parts.length == 0) {
        continue; // fresh GPUs only: nothing to tie to the arc
      }
      List<Term> row = new ArrayList<>();
      for (int y : a.share.partVariables) {
        row.add(new Term(y, 1));
      }
      row.add(new Term(a.variable, -a.replicas));
      f.model.addRow("sharedSlots_" + a.variable, a.share.fresh ? Double.NEGATIVE_INFINITY : 0, 0, row);
    }
  }

  /** Per type and fresh placement: the replicas shared arcs take beyond their slots are fresh GPUs counted per group. */
  private void addFreshRows() {
    Map<List<Integer>, List<Term>> rows = new LinkedHashMap<>();
    for (Arc a : f.arcs) {
      if (a.shared() && a.share.fresh) {
        List<Term> row = rows.computeIfAbsent(List.of(a.slot, a.type, a.share.keyIndex), k -> new ArrayList<>());
        row.add(new Term(a.variable, a.replicas));
        for (int y : a.share.partVariables) {
          row.add(new Term(y, -1));
        }
      }
    }
    for (CostGroup g : f.groups) {
      for (int k = 0; k < g.sharedVariables.length; k++) {
        if (g.sharedVariables[k] >= 0) {
          rows.computeIfAbsent(List.of(-1, g.type, k), x -> new ArrayList<>()).add(new Term(g.sharedVariables[k], -1));
        }
      }
    }
    for (Slot s : f.slots) {
      slotShared(s).forEach((gk, v) -> rows.computeIfAbsent(List.of(s.index, f.groups.get(gk.get(0)).type, gk.get(1)),
          x -> new ArrayList<>()).add(new Term(v, -1)));
    }
    rows.forEach((stk, row) -> f.model.addRow("freshShared_s" + stk.get(0) + "_" + f.types.get(stk.get(1)).name() + "_k" + stk.get(2),
        0, 0, row));
  }

  /**
   * Whole network, slot and shared uses of a cost group within its GPUs outside slow nodes; per slot
   * and group, whole and shared slot uses (and, on a slow node, network uses) within the node's.
   */
  private void addCapacityRows() {
    for (int g = 0; g < f.groups.size(); g++) {
      CostGroup group = f.groups.get(g);
      List<Term> row = new ArrayList<>(List.of(new Term(group.netVariable, 1)));
      boolean any = false;
      for (int v : group.sharedVariables) {
        if (v >= 0) {
          row.add(new Term(v, 1));
          any = true;
        }
      }
      for (Slot s : f.slots) {
        Integer v = s.usageVariable.get(g);
        if (v != null && !s.slow) {
          row.add(new Term(v, 1));
        }
        for (Map.Entry<List<Integer>, Integer> e : slotShared(s).entrySet()) {
          if (e.getKey().get(0) == g && !s.slow) {
            row.add(new Term(e.getValue(), 1));
            any = true;
          }
        }
      }
      if (any) {
        f.model.addRow("sharedCapacity_g" + g, Double.NEGATIVE_INFINITY, group.outsideSlowNodes, row);
      }
    }
    for (Slot s : f.slots) {
      for (Map.Entry<Integer, Integer> free : s.freePerGroup.entrySet()) {
        List<Term> row = new ArrayList<>();
        for (Map.Entry<List<Integer>, Integer> e : slotShared(s).entrySet()) {
          if (e.getKey().get(0).equals(free.getKey())) {
            row.add(new Term(e.getValue(), 1));
          }
        }
        if (row.isEmpty()) {
          continue;
        }
        row.add(new Term(s.usageVariable.get(free.getKey()), 1));
        for (SlowNodes pool : f.slowNodes) {
          if (pool.slot == s && pool.netVariable.containsKey(free.getKey())) {
            row.add(new Term(pool.netVariable.get(free.getKey()), 1));
          }
        }
        f.model.addRow("slotSharedCapacity_s" + s.index + "_g" + free.getKey(), Double.NEGATIVE_INFINITY, free.getValue(), row);
      }
    }
  }

  private void addOneHoldingPerGpuRows() {
    Map<String, List<Term>> byGpu = new LinkedHashMap<>();
    for (Arc a : f.arcs) {
      if (a.shared()) {
        for (int u = 0; u < a.share.parts.length; u++) {
          byGpu.computeIfAbsent(shared.parts.get(a.share.parts[u]).gpu, k -> new ArrayList<>())
              .add(new Term(a.share.partVariables[u], 1));
        }
      }
    }
    byGpu.forEach((gpu, row) -> {
      if (row.size() > 1) {
        f.model.addRow("oneHolding_" + gpu, Double.NEGATIVE_INFINITY, 1, row);
      }
    });
  }

  /**
   * Each incumbent's latency within its SLO: compute alone times α per stage, α raised by the
   * newcomer's stages on its GPUs. One row per choice of one touched GPU per stage.
   */
  private void addIncumbentRows() {
    // per incumbent, per stage, per GPU: the terms raising the stage's α above its present one (one pass over the arcs)
    List<List<Map<String, List<Term>>>> raises = new ArrayList<>();
    for (Incumbent inc : shared.incumbents) {
      List<Map<String, List<Term>>> raise = new ArrayList<>();
      for (int k = 0; k < inc.alone.length; k++) {
        raise.add(new LinkedHashMap<>());
      }
      raises.add(raise);
    }
    for (Arc a : f.arcs) {
      if (!a.shared()) {
        continue;
      }
      for (int u = 0; u < a.share.parts.length; u++) {
        Part p = shared.parts.get(a.share.parts[u]);
        for (int e = 0; e < p.incumbentStages.size(); e++) {
          int[] ik = p.incumbentStages.get(e);
          Incumbent inc = shared.incumbents.get(ik[0]);
          double delta = a.share.incumbentAlpha[u][e] - inc.alpha[ik[1]];
          if (delta > 0) {
            raises.get(ik[0]).get(ik[1]).computeIfAbsent(p.gpu, g -> new ArrayList<>())
                .add(new Term(a.share.partVariables[u], inc.alone[ik[1]] * delta * MICROS));
          }
        }
      }
    }
    for (int i = 0; i < shared.incumbents.size(); i++) {
      f.checkTime();
      Incumbent inc = shared.incumbents.get(i);
      int stages = inc.alone.length;
      List<Map<String, List<Term>>> raise = raises.get(i);
      double base = 0;
      long choices = 1;
      boolean touched = false;
      for (int k = 0; k < stages; k++) {
        base += inc.alone[k] * inc.alpha[k];
        choices *= Math.max(1, raise.get(k).size());
        touched |= !raise.get(k).isEmpty();
      }
      if (!touched) {
        continue;
      }
      double rhs = (SloPredicate.latencyLimitSeconds(inc.request.slo()) * (1 - FlowModelBuilder.SOLVER_MARGIN)
          - inc.latencyBesidesCompute - base) * MICROS;
      if (choices > MAX_CHOICES) {
        f.inexact = true;
        List<Term> row = new ArrayList<>();
        raise.forEach(byGpu -> byGpu.values().forEach(row::addAll));
        f.model.addRow("incumbentLatency_" + i, Double.NEGATIVE_INFINITY, rhs, merged(row));
        continue;
      }
      int[] pick = new int[stages];
      for (long c = 0; c < choices; c++) {
        List<Term> row = new ArrayList<>();
        long rest = c;
        for (int k = 0; k < stages; k++) {
          List<List<Term>> gpus = new ArrayList<>(raise.get(k).values());
          if (gpus.isEmpty()) {
            continue;
          }
          pick[k] = (int) (rest % gpus.size());
          rest /= gpus.size();
          row.addAll(gpus.get(pick[k]));
        }
        f.model.addRow("incumbentLatency_" + i + "_c" + c, Double.NEGATIVE_INFINITY, rhs, merged(row));
      }
    }
  }

  /** One term per variable (an incumbent with two stages on one GPU is slowed twice by one holding). */
  private static List<Term> merged(List<Term> row) {
    Map<Integer, Double> sum = new LinkedHashMap<>();
    for (Term t : row) {
      sum.merge(t.variable(), t.coefficient(), Double::sum);
    }
    List<Term> out = new ArrayList<>();
    sum.forEach((v, c) -> out.add(new Term(v, c)));
    return out;
  }
}
