package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.perf.SloPredicate;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.backend.LinearProgram;
import org.rampa.solver.backend.LinearProgram.Term;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.NodeSlots.SlowNodes;
import org.rampa.solver.flow.SharedSlots.Incumbent;
import org.rampa.solver.flow.SharedSlots.Part;

/**
 * The shared-GPU variables and rows of an {@link IntervalFlowFormulation}, written by
 * {@link FlowProgramBuilder} into its programme after the whole-GPU part (whose variables and rows
 * stay as they are), their variables recorded in its {@link FlowVariables}:
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
 *       safe but may cut feasible plans, and {@link #build} says so (the formulation is then
 *       {@code inexact}).
 * </ul>
 */
final class SharedRows {

  static final int MAX_CHOICES = 64;
  private static final double MICROS = 1e6;

  private final FreeGpus f;
  private final List<Slot> slots;
  private final List<SlowNodes> slowNodes;
  private final List<Arc> arcs;
  private final LinearProgram.Builder program;
  private final FlowVariables variables;
  private final SharedSlots shared;
  /** Some incumbent's latency rows were summed rather than enumerated. */
  private boolean inexact;

  SharedRows(FreeGpus f, NodeSlots.Layout layout, List<Arc> arcs, LinearProgram.Builder program, FlowVariables variables) {
    this.f = f;
    this.slots = layout.slots();
    this.slowNodes = layout.slowNodes();
    this.arcs = arcs;
    this.program = program;
    this.variables = variables;
    this.shared = f.shared();
  }

  /** Writes the shared part; true when some incumbent's latency rows were summed (safe, not exact). */
  boolean build() {
    addVariables();
    addArcRows();
    addFreshRows();
    addCapacityRows();
    addOneHoldingPerGpuRows();
    addIncumbentRows();
    return inexact;
  }

  private void addVariables() {
    for (Arc a : arcs) {
      if (!a.shared()) {
        continue;
      }
      int[] ys = new int[a.share.parts.length];
      variables.arcParts()[a.variable] = ys;
      if (a.share.single) {
        ys[0] = a.variable;
        program.setObjective(a.variable, shared.parts.get(a.share.parts[0]).cost);
        continue;
      }
      for (int u = 0; u < a.share.parts.length; u++) {
        Part p = shared.parts.get(a.share.parts[u]);
        int y = program.addVariable("y_" + a.variable + "_p" + p.index, 0, 1);
        program.setObjective(y, p.cost);
        ys[u] = y;
      }
    }
    for (int g = 0; g < f.groups().size(); g++) {
      CostGroup group = f.groups().get(g);
      for (int k = 0; k < group.sharedCosts.length; k++) {
        if (!Double.isNaN(group.sharedCosts[k]) && group.outsideSlowNodes > 0) {
          variables.shared(group)[k] = program.addVariable("s_g" + g + "_k" + k, 0, group.outsideSlowNodes);
          program.setObjective(variables.shared(group)[k], group.sharedCosts[k]);
        }
      }
    }
    for (Slot s : slots) {
      for (Map.Entry<Integer, Integer> e : s.freePerGroup.entrySet()) {
        CostGroup group = f.groups().get(e.getKey());
        for (int k = 0; k < group.sharedCosts.length; k++) {
          if (!Double.isNaN(group.sharedCosts[k])) {
            int v = program.addVariable("sv_s" + s.index + "_g" + e.getKey() + "_k" + k, 0, e.getValue());
            program.setObjective(v, group.sharedCosts[k]);
            slotShared(s).put(List.of(e.getKey(), k), v);
          }
        }
      }
    }
  }

  /** Per slot: (group, fresh key) -> the variable counting that group's GPUs on the slot's node shared slot stages take. */
  private Map<List<Integer>, Integer> slotShared(Slot s) {
    return variables.slotFresh().computeIfAbsent(s.index, k -> new LinkedHashMap<>());
  }

  /** A shared arc's slots: none unless chosen, at most its replicas, all of them without fresh GPUs. */
  private void addArcRows() {
    for (Arc a : arcs) {
      if (!a.shared() || a.share.single || a.share.fresh && a.share.parts.length == 0) {
        continue; // fresh GPUs only: nothing to tie to the arc
      }
      List<Term> row = new ArrayList<>();
      for (int y : variables.parts(a)) {
        row.add(new Term(y, 1));
      }
      row.add(new Term(a.variable, -a.replicas));
      program.addRow("sharedSlots_" + a.variable, a.share.fresh ? Double.NEGATIVE_INFINITY : 0, 0, row);
    }
  }

  /** Per type and fresh placement: the replicas shared arcs take beyond their slots are fresh GPUs counted per group. */
  private void addFreshRows() {
    Map<List<Integer>, List<Term>> rows = new LinkedHashMap<>();
    for (Arc a : arcs) {
      if (a.shared() && a.share.fresh) {
        List<Term> row = rows.computeIfAbsent(List.of(a.slot, a.type, a.share.keyIndex), k -> new ArrayList<>());
        row.add(new Term(a.variable, a.replicas));
        for (int y : variables.parts(a)) {
          row.add(new Term(y, -1));
        }
      }
    }
    for (CostGroup g : f.groups()) {
      for (int k = 0; k < variables.shared(g).length; k++) {
        if (variables.shared(g)[k] >= 0) {
          rows.computeIfAbsent(List.of(-1, g.type, k), x -> new ArrayList<>()).add(new Term(variables.shared(g)[k], -1));
        }
      }
    }
    for (Slot s : slots) {
      slotShared(s).forEach((gk, v) -> rows.computeIfAbsent(List.of(s.index, f.groups().get(gk.get(0)).type, gk.get(1)),
          x -> new ArrayList<>()).add(new Term(v, -1)));
    }
    rows.forEach((stk, row) -> program.addRow("freshShared_s" + stk.get(0) + "_" + f.types().get(stk.get(1)).name() + "_k" + stk.get(2),
        0, 0, row));
  }

  /**
   * Whole network, slot and shared uses of a cost group within its GPUs outside slow nodes; per slot
   * and group, whole and shared slot uses (and, on a slow node, network uses) within the node's.
   */
  private void addCapacityRows() {
    for (int g = 0; g < f.groups().size(); g++) {
      CostGroup group = f.groups().get(g);
      List<Term> row = new ArrayList<>(List.of(new Term(variables.net(group), 1)));
      boolean any = false;
      for (int v : variables.shared(group)) {
        if (v >= 0) {
          row.add(new Term(v, 1));
          any = true;
        }
      }
      for (Slot s : slots) {
        Integer v = variables.usage(s).get(g);
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
        program.addRow("sharedCapacity_g" + g, Double.NEGATIVE_INFINITY, group.outsideSlowNodes, row);
      }
    }
    for (Slot s : slots) {
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
        row.add(new Term(variables.usage(s).get(free.getKey()), 1));
        for (SlowNodes pool : slowNodes) {
          if (pool.slot == s && variables.net(pool).containsKey(free.getKey())) {
            row.add(new Term(variables.net(pool).get(free.getKey()), 1));
          }
        }
        program.addRow("slotSharedCapacity_s" + s.index + "_g" + free.getKey(), Double.NEGATIVE_INFINITY, free.getValue(), row);
      }
    }
  }

  private void addOneHoldingPerGpuRows() {
    Map<String, List<Term>> byGpu = new LinkedHashMap<>();
    for (Arc a : arcs) {
      if (a.shared()) {
        for (int u = 0; u < a.share.parts.length; u++) {
          byGpu.computeIfAbsent(shared.parts.get(a.share.parts[u]).gpu, k -> new ArrayList<>())
              .add(new Term(variables.parts(a)[u], 1));
        }
      }
    }
    byGpu.forEach((gpu, row) -> {
      if (row.size() > 1) {
        program.addRow("oneHolding_" + gpu, Double.NEGATIVE_INFINITY, 1, row);
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
    for (Arc a : arcs) {
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
                .add(new Term(variables.parts(a)[u], inc.alone[ik[1]] * delta * MICROS));
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
      double rhs = (SloPredicate.latencyLimitSeconds(inc.request.slo()) * (1 - FlowProgramBuilder.SOLVER_MARGIN)
          - inc.latencyBesidesCompute - base) * MICROS;
      if (choices > MAX_CHOICES) {
        inexact = true;
        List<Term> row = new ArrayList<>();
        raise.forEach(byGpu -> byGpu.values().forEach(row::addAll));
        program.addRow("incumbentLatency_" + i, Double.NEGATIVE_INFINITY, rhs, merged(row));
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
        program.addRow("incumbentLatency_" + i + "_c" + c, Double.NEGATIVE_INFINITY, rhs, merged(row));
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
