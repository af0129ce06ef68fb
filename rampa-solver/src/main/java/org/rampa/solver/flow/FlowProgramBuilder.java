package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.TransferMode;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.backend.LinearProgram;
import org.rampa.solver.backend.LinearProgram.Term;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.NodeSlots.SlowNodes;

/**
 * The programme step of an {@link IntervalFlowFormulation}: its variables and rows over the arcs
 * and slots of the steps before, returned as a {@link LinearProgram} with the {@link FlowVariables}
 * that say where each quantity sits. With sharing, {@link SharedRows} adds its part to the same
 * programme.
 */
final class FlowProgramBuilder {

  /**
   * The written programme, where its quantities sit, and whether some incumbent's latency rows were
   * summed rather than enumerated (sharing only: safe, not exact).
   */
  record Built(LinearProgram program, FlowVariables variables, boolean inexact) {}

  private static final double MICROS = 1e6;
  /**
   * The latency row's right-hand side is the SLO predicate's budget less this fraction of it, so
   * that SCIP, whose feasibility tolerance {@link ScipBackend} sets to 1e-9 (relative), cannot carry
   * a solution past what {@link SloPredicate} admits; CP-SAT rounds the row conservatively anyway.
   * A hundred times below the predicate's own tolerance, it keeps every plan that meets the SLO
   * with equality (or up to 0.99 of the tolerance beyond it) in the model.
   */
  static final double SOLVER_MARGIN = 1e-8;

  private final FreeGpus f;
  private final NodeSlots.Layout layout;
  private final List<Slot> slots;
  private final List<SlowNodes> slowNodes;
  private final List<Arc> arcs;
  private final LinearProgram.Builder program = new LinearProgram.Builder();
  /** Filled as the variables are written (see {@link FlowVariables}). */
  private final FlowVariables variables;
  private final int[][] intra;

  private FlowProgramBuilder(FreeGpus free, NodeSlots.Layout layout, List<Arc> arcs) {
    this.f = free;
    this.layout = layout;
    this.slots = layout.slots();
    this.slowNodes = layout.slowNodes();
    this.arcs = arcs;
    intra = new int[slots.size()][free.layers() + 1];
    for (int[] cuts : intra) {
      Arrays.fill(cuts, -1);
    }
    List<Map<Integer, Integer>> usage = new ArrayList<>();
    slots.forEach(s -> usage.add(new LinkedHashMap<>()));
    List<Map<Integer, Integer>> poolNet = new ArrayList<>();
    slowNodes.forEach(p -> poolNet.add(new LinkedHashMap<>()));
    int[][] groupShared = new int[free.groups().size()][];
    for (CostGroup g : free.groups()) {
      groupShared[g.index] = new int[g.sharedCosts.length];
      Arrays.fill(groupShared[g.index], -1);
    }
    variables = new FlowVariables(intra, usage, poolNet, new int[free.groups().size()], groupShared, new int[arcs.size()][],
        new HashMap<>());
  }

  /** Writes the programme over {@code free}'s GPUs, {@code layout}'s slots and {@code arcs}. */
  static Built build(FreeGpus free, NodeSlots.Layout layout, List<Arc> arcs) {
    return new FlowProgramBuilder(free, layout, arcs).buildModel();
  }

  /**
   * The MILP over the arcs and slots: variables, then the path, co-location, period, serial-transfer,
   * latency, GPU-count and symmetry rows, in this order (row order is part of what the solver sees).
   */
  private Built buildModel() {
    addVariables();
    List<List<Arc>> starting = new ArrayList<>();
    List<List<Arc>> ending = new ArrayList<>();
    for (int j = 0; j <= f.layers(); j++) {
      starting.add(new ArrayList<>());
      ending.add(new ArrayList<>());
    }
    for (Arc a : arcs) {
      starting.get(a.from).add(a);
      ending.get(a.to).add(a);
    }
    // a co-location model of 100k arcs takes hundreds of milliseconds to write: ask between parts
    f.checkTime();
    addPathRows(starting, ending);
    addColocationRows(starting, ending);
    f.checkTime();
    addPeriodCutRows(ending);
    addSerialIntraRows();
    addLatencyRow();
    f.checkTime();
    addGpuCountRows();
    f.checkTime();
    addSlotOrderRows();
    boolean inexact = f.shared() != null && new SharedRows(f, layout, arcs, program, variables).build();
    return new Built(program.build(), variables, inexact);
  }

  /**
   * One binary per arc; one per intra-node cut of a slot where that link differs from the network
   * (a slower one that breaks the period OVERLAPPED is fixed to 0: the cut cannot be intra there);
   * GPU counts per cost group, slot and group of slow nodes.
   */
  private void addVariables() {
    for (Arc a : arcs) {
      if ((program.variableCount() & 4095) == 0) {
        f.checkTime();
      }
      int x = program.addVariable("x_" + a.from + "_" + a.to + "_" + f.types().get(a.type).name() + "_r" + a.replicas
          + (a.slot < 0 ? "_net" : "_s" + a.slot) + (a.shared() ? "_" + a.share.key.label() + "_a" + a.share.alpha : ""), 0, 1);
      if (x != a.variable) {
        throw new IllegalStateException("arc " + a.variable + " became variable " + x + ": arcs must be numbered as written");
      }
    }
    for (Slot s : slots) {
      for (int j = 1; j < f.layers(); j++) {
        boolean allowed = f.mode() != TransferMode.OVERLAPPED || f.meetsPeriod(s.intraSeconds[j]);
        if (s.intraSeconds[j] < f.networkSeconds()[j] && allowed) {
          intra[s.index][j] = program.addVariable("z_" + j + "_s" + s.index, 0, 1);
        } else if (s.intraSeconds[j] > f.networkSeconds()[j]) {
          intra[s.index][j] = program.addVariable("z_" + j + "_s" + s.index, 0, allowed ? 1 : 0);
        }
      }
    }
    for (int g = 0; g < f.groups().size(); g++) {
      CostGroup group = f.groups().get(g);
      variables.groupNet()[g] = program.addVariable("w_g" + g, 0, group.outsideSlowNodes);
      program.setObjective(variables.groupNet()[g], group.cost);
    }
    for (Slot s : slots) {
      for (Map.Entry<Integer, Integer> e : s.freePerGroup.entrySet()) {
        int v = program.addVariable("v_s" + s.index + "_g" + e.getKey(), 0, e.getValue());
        variables.usage(s).put(e.getKey(), v);
        program.setObjective(v, f.groups().get(e.getKey()).cost);
      }
    }
    for (int p = 0; p < slowNodes.size(); p++) {
      SlowNodes pool = slowNodes.get(p);
      for (Map.Entry<Integer, Integer> e : pool.freePerGroup.entrySet()) {
        int u = program.addVariable("u_p" + p + "_g" + e.getKey(), 0, (long) e.getValue() * pool.nodes.size());
        variables.net(pool).put(e.getKey(), u);
        program.setObjective(u, f.groups().get(e.getKey()).cost);
      }
    }
  }

  /** A path from boundary 0 to boundary L through at most maxStages arcs. */
  private void addPathRows(List<List<Arc>> starting, List<List<Arc>> ending) {
    program.addRow("start", 1, 1, terms(starting.get(0), 1));
    for (int j = 1; j < f.layers(); j++) {
      List<Term> flow = terms(ending.get(j), 1);
      flow.addAll(terms(starting.get(j), -1));
      program.addRow("flow_" + j, 0, 0, flow);
    }
    program.addRow("maxStages", Double.NEGATIVE_INFINITY, f.request().maxStages(), terms(arcs, 1));
  }

  /**
   * Intra-node cuts: a faster intra link may be charged only when both neighbouring stages sit on
   * the slot; a slower one must be charged whenever they do.
   */
  private void addColocationRows(List<List<Arc>> starting, List<List<Arc>> ending) {
    for (Slot s : slots) {
      f.checkTime(); // slots x arcs
      for (int j = 1; j < f.layers(); j++) {
        int z = intra[s.index][j];
        if (z < 0) {
          continue;
        }
        if (s.intraSeconds[j] > f.networkSeconds()[j]) {
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
          program.addRow("slowCut_" + j + "_s" + s.index, Double.NEGATIVE_INFINITY, 1, row);
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
          program.addRow((before ? "colocatedBefore_" : "colocatedAfter_") + j + "_s" + s.index,
              Double.NEGATIVE_INFINITY, 0, row);
        }
      }
    }
  }

  /** OVERLAPPED: a cut whose network transfer alone breaks the period must be intra-node. */
  private void addPeriodCutRows(List<List<Arc>> ending) {
    if (f.mode() == TransferMode.OVERLAPPED) {
      for (int j = 1; j < f.layers(); j++) {
        if (!f.meetsPeriod(f.networkSeconds()[j])) {
          List<Term> row = terms(ending.get(j), 1);
          for (Slot s : slots) {
            if (intra[s.index][j] >= 0 && s.intraSeconds[j] < f.networkSeconds()[j]) {
              row.add(new Term(intra[s.index][j], -1));
            }
          }
          program.addRow("periodCut_" + j, Double.NEGATIVE_INFINITY, 0, row);
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
        addBetterRow((s.intraSeconds[a.from] > f.networkSeconds()[a.from] ? "networkIn_" : "intraIn_") + a.variable, a, s,
            a.from);
      }
      if (a.needsBetterOut) {
        addBetterRow((s.intraSeconds[a.to] > f.networkSeconds()[a.to] ? "networkOut_" : "intraOut_") + a.variable, a, s,
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
      int z = intra[s.index][cut];
      if (z < 0) {
        continue; // no better state there: it contributes 0
      }
      boolean slower = s.intraSeconds[cut] > f.networkSeconds()[cut];
      row.add(new Term(z, slower ? 1 : -1));
      rhs += slower ? 1 : 0;
    }
    program.addRow(name, Double.NEGATIVE_INFINITY, rhs, row);
  }

  /**
   * Latency: compute of every stage plus the transfer after it, intra-node where marked, in
   * microseconds (SCIP's feasibility tolerance is relative for values above 1), within the SLO
   * predicate's budget less {@link #SOLVER_MARGIN}.
   */
  private void addLatencyRow() {
    List<Term> latency = new ArrayList<>();
    for (Arc a : arcs) {
      latency.add(new Term(a.variable, latencyMicros(f, a)));
    }
    for (Slot s : slots) {
      for (int j = 1; j < f.layers(); j++) {
        if (intra[s.index][j] >= 0) {
          latency.add(new Term(intra[s.index][j], (s.intraSeconds[j] - f.networkSeconds()[j]) * MICROS));
        }
      }
    }
    program.addRow("latency_us", Double.NEGATIVE_INFINITY, latencyBudgetMicros(f), latency);
  }

  /** What the latency row charges arc {@code a}: its compute and the network transfer after it, microseconds. */
  static double latencyMicros(FreeGpus f, Arc a) {
    return (a.computeSeconds + f.out(a.to)) * MICROS;
  }

  /** The latency row's right-hand side: the SLO predicate's budget less {@link #SOLVER_MARGIN}, microseconds. */
  static double latencyBudgetMicros(FreeGpus f) {
    return SloPredicate.latencyBudgetSeconds(f.request().slo()) * (1 - SOLVER_MARGIN) * MICROS;
  }

  /**
   * GPU counts: network stages draw from every free GPU, slots from their node; no group over its
   * size. On slow nodes network stages must not sit wholly on one node: a stage of one replica takes
   * a GPU elsewhere, and no slow node gives network stages of a type more GPUs than their replicas
   * less one each. These two conditions are also enough for {@link SolutionDecoder} to hand the
   * counted GPUs to the stages so that none sits wholly on one slow node.
   */
  private void addGpuCountRows() {
    for (int t = 0; t < f.types().size(); t++) {
      List<Term> row = new ArrayList<>();
      List<Term> outside = new ArrayList<>();
      for (CostGroup g : f.groups()) {
        if (g.type == t) {
          row.add(new Term(variables.net(g), 1));
          outside.add(new Term(variables.net(g), -1));
        }
      }
      boolean onSlowNodes = false;
      for (SlowNodes pool : slowNodes) {
        List<Term> spread = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : variables.net(pool).entrySet()) {
          if (f.groups().get(e.getKey()).type == t) {
            row.add(new Term(e.getValue(), 1));
            spread.add(new Term(e.getValue(), 1));
          }
        }
        if (!spread.isEmpty()) {
          onSlowNodes = true;
          for (Arc a : arcs) {
            if (a.slot < 0 && !a.shared() && a.type == t && a.replicas > 1) {
              spread.add(new Term(a.variable, -(a.replicas - 1.0) * pool.nodes.size()));
            }
          }
          program.addRow("slowSpread_p" + slowNodes.indexOf(pool) + "_" + f.types().get(t).name(), Double.NEGATIVE_INFINITY, 0,
              spread);
        }
      }
      for (Arc a : arcs) {
        if (a.slot < 0 && !a.shared() && a.type == t) {
          row.add(new Term(a.variable, -a.replicas));
          if (a.replicas == 1) {
            outside.add(new Term(a.variable, 1));
          }
        }
      }
      program.addRow("netGpus_" + f.types().get(t).name(), 0, 0, row);
      if (onSlowNodes) {
        program.addRow("singleOffSlow_" + f.types().get(t).name(), Double.NEGATIVE_INFINITY, 0, outside);
      }
      for (Slot s : slots) {
        f.checkTime(); // slots x arcs
        if (s.freePerType[t] == 0) {
          continue;
        }
        List<Term> slotRow = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : variables.usage(s).entrySet()) {
          if (f.groups().get(e.getKey()).type == t) {
            slotRow.add(new Term(e.getValue(), 1));
          }
        }
        for (Arc a : arcs) {
          if (a.slot == s.index && !a.shared() && a.type == t) {
            slotRow.add(new Term(a.variable, -a.replicas));
          }
        }
        program.addRow("slotGpus_s" + s.index + "_" + f.types().get(t).name(), 0, 0, slotRow);
      }
    }
    for (int g = 0; g < f.groups().size(); g++) {
      List<Term> row = new ArrayList<>(List.of(new Term(variables.groupNet()[g], 1)));
      for (Slot s : slots) {
        Integer v = variables.usage(s).get(g);
        if (v != null && !s.slow) {
          row.add(new Term(v, 1));
        }
      }
      if (row.size() > 1) {
        program.addRow("capacity_g" + g, Double.NEGATIVE_INFINITY, f.groups().get(g).outsideSlowNodes, row);
      }
    }
    for (int p = 0; p < slowNodes.size(); p++) {
      SlowNodes pool = slowNodes.get(p);
      if (pool.slot == null) {
        continue; // nodes without a slot: the variable's bound is their capacity
      }
      for (Map.Entry<Integer, Integer> e : variables.net(pool).entrySet()) {
        program.addRow("slowNode_p" + p + "_g" + e.getKey(), Double.NEGATIVE_INFINITY, pool.freePerGroup.get(e.getKey()),
            List.of(new Term(e.getValue(), 1), new Term(variables.usage(pool.slot).get(e.getKey()), 1)));
      }
    }
  }

  /** Symmetry: identical slots are used in order. */
  private void addSlotOrderRows() {
    for (int k = 1; k < slots.size(); k++) {
      f.checkTime(); // slots x arcs
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
        program.addRow("slotOrder_s" + cur.index, 0, Double.POSITIVE_INFINITY, row);
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
}
