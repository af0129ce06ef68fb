package org.rampa.solver;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.Gpu;
import org.rampa.perf.StageAssignment;
import org.rampa.solver.IntervalFlowFormulation.Arc;
import org.rampa.solver.IntervalFlowFormulation.CostGroup;
import org.rampa.solver.IntervalFlowFormulation.Slot;

/**
 * Turns a solution of an {@link IntervalFlowFormulation} into stages on concrete GPU ids: the path
 * of arcs it chose, each arc's replicas taken from its slot's node or, for network stages, from the
 * cost groups in the counts the solution gives ({@link #decode}); or the same stages packed onto
 * shared nodes ({@link #decodePacked}).
 */
final class SolutionDecoder {

  private final IntervalFlowFormulation f;
  private final int layers;

  SolutionDecoder(IntervalFlowFormulation formulation) {
    this.f = formulation;
    this.layers = formulation.layers();
  }

  /** The stages of a solution, on concrete GPU ids. */
  List<StageAssignment> decode(double[] values) {
    List<Arc> path = path(values);
    // GPUs per slot and type from the slot's node, then per type for network stages
    Map<String, List<String>> taken = new LinkedHashMap<>();
    Set<String> used = new HashSet<>();
    for (Slot s : f.slots) {
      for (Map.Entry<Integer, Integer> e : s.usageVariable.entrySet()) {
        long count = Math.round(values[e.getValue()]);
        CostGroup g = f.groups.get(e.getKey());
        for (Gpu gpu : g.gpus) {
          if (count == 0) {
            break;
          }
          if (gpu.node().equals(s.node) && used.add(gpu.id())) {
            taken.computeIfAbsent("s" + s.index + "/" + g.type, k -> new ArrayList<>()).add(gpu.id());
            count--;
          }
        }
      }
    }
    return assign(path, values, taken, used);
  }

  /**
   * The same stages (layers, types, replica counts) as {@link #decode}, packed so that runs of
   * consecutive stages share a node wherever its free GPUs allow (longest run first, then cheapest
   * GPUs): a relaxation's plan that was charged intra-node transfers may then really get them. The
   * caller verifies it and compares its cost with the relaxation's bound; this is only a mapping,
   * never a claim of feasibility.
   */
  List<StageAssignment> decodePacked(double[] values) {
    List<Arc> path = path(values);
    List<CostGroup> byCost = new ArrayList<>(f.groups);
    byCost.sort((a, b) -> Double.compare(a.cost, b.cost));
    Map<String, List<Gpu>> byNode = new LinkedHashMap<>();
    List<Gpu> cheapestFirst = new ArrayList<>();
    for (CostGroup g : byCost) {
      for (Gpu gpu : g.gpus) {
        byNode.computeIfAbsent(gpu.node(), k -> new ArrayList<>()).add(gpu);
        cheapestFirst.add(gpu);
      }
    }
    Set<String> used = new HashSet<>();
    List<StageAssignment> stages = new ArrayList<>();
    int k = 0;
    while (k < path.size()) {
      List<Gpu> bestNode = null;
      int bestEnd = k;
      for (List<Gpu> node : byNode.values()) {
        int[] need = new int[f.types.size()];
        int end = k;
        while (end < path.size()) {
          Arc a = path.get(end);
          need[a.type] += a.replicas;
          if (unused(node, a.type, used) < need[a.type]) {
            break;
          }
          end++;
        }
        if (end > bestEnd) {
          bestEnd = end;
          bestNode = node;
        }
      }
      List<Gpu> pool = bestNode != null ? bestNode : cheapestFirst;
      int end = bestNode != null ? bestEnd : k + 1;
      for (; k < end; k++) {
        Arc a = path.get(k);
        List<String> gpus = new ArrayList<>();
        for (Gpu gpu : pool) {
          if (gpus.size() < a.replicas && f.types.get(a.type).name().equals(gpu.type()) && used.add(gpu.id())) {
            gpus.add(gpu.id());
          }
        }
        stages.add(new StageAssignment(a.from, a.to, gpus, 1.0));
      }
    }
    return stages;
  }

  private int unused(List<Gpu> node, int type, Set<String> used) {
    int n = 0;
    for (Gpu gpu : node) {
      n += f.types.get(type).name().equals(gpu.type()) && !used.contains(gpu.id()) ? 1 : 0;
    }
    return n;
  }

  /** The arcs of a solution's path, in model order. */
  private List<Arc> path(double[] values) {
    List<Arc> path = new ArrayList<>();
    int at = 0;
    while (at < layers) {
      Arc next = null;
      for (Arc a : f.arcs) {
        if (a.from == at && values[a.variable] > 0.5) {
          next = a;
          break;
        }
      }
      if (next == null) {
        throw new IllegalStateException("solution has no stage starting at layer " + at);
      }
      path.add(next);
      at = next.to;
    }
    return path;
  }

  /** Network stages take the solution's GPU counts per cost group from what slots left. */
  private List<StageAssignment> assign(List<Arc> path, double[] values, Map<String, List<String>> taken,
      Set<String> used) {
    for (CostGroup g : f.groups) {
      long count = Math.round(values[g.netVariable]);
      for (Gpu gpu : g.gpus) {
        if (count == 0) {
          break;
        }
        if (used.add(gpu.id())) {
          taken.computeIfAbsent("net/" + g.type, k -> new ArrayList<>()).add(gpu.id());
          count--;
        }
      }
    }
    List<StageAssignment> stages = new ArrayList<>();
    for (Arc a : path) {
      List<String> pool = taken.getOrDefault((a.slot < 0 ? "net" : "s" + a.slot) + "/" + a.type, new ArrayList<>());
      if (pool.size() < a.replicas) {
        throw new IllegalStateException("solution counts too few GPUs for stage [" + a.from + ", " + a.to + ")");
      }
      List<String> gpus = new ArrayList<>(pool.subList(0, a.replicas));
      pool.subList(0, a.replicas).clear();
      stages.add(new StageAssignment(a.from, a.to, gpus, 1.0));
    }
    return stages;
  }
}
