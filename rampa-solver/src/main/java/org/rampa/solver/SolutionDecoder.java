package org.rampa.solver;

import java.util.ArrayList;
import java.util.Collections;
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
 * shared nodes ({@link #decodePacked}). Network stages are kept off a neighbour's node whose own
 * link is slower than the network, when a GPU of the same cost elsewhere allows it.
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
        stages.add(StageAssignment.whole(a.from, a.to, gpus));
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
    for (int k = 0; k < path.size(); k++) {
      Arc a = path.get(k);
      List<String> pool = taken.getOrDefault((a.slot < 0 ? "net" : "s" + a.slot) + "/" + a.type, new ArrayList<>());
      if (pool.size() < a.replicas) {
        throw new IllegalStateException("solution counts too few GPUs for stage [" + a.from + ", " + a.to + ")");
      }
      if (a.slot < 0) {
        keepOffSlowNodes(pool, a.replicas, slowNeighbours(path, stages, k), used);
      }
      List<String> gpus = new ArrayList<>(pool.subList(0, a.replicas));
      pool.subList(0, a.replicas).clear();
      stages.add(StageAssignment.whole(a.from, a.to, gpus));
    }
    return stages;
  }

  /**
   * The nodes a network stage must not sit on entirely: the node of the stage before it, or of the
   * slot stage after it, when that node's own link is slower than the network at the cut between
   * them. The model charged that cut the network; on such a node it would cost more.
   */
  private Set<String> slowNeighbours(List<Arc> path, List<StageAssignment> before, int k) {
    Set<String> avoid = new HashSet<>();
    Arc a = path.get(k);
    if (k > 0) {
      String node = onlyNode(before.get(k - 1).gpus());
      if (node != null && f.slowerThanNetwork(node, a.from)) {
        avoid.add(node);
      }
    }
    if (k + 1 < path.size() && path.get(k + 1).slot >= 0) {
      String node = f.slots.get(path.get(k + 1).slot).node;
      if (f.slowerThanNetwork(node, a.to)) {
        avoid.add(node);
      }
    }
    return avoid;
  }

  /** The one node all of {@code gpus} sit on, or null when they span several. */
  private String onlyNode(List<String> gpus) {
    String node = f.nodeOf(gpus.get(0));
    for (String g : gpus) {
      if (!f.nodeOf(g).equals(node)) {
        return null;
      }
    }
    return node;
  }

  /**
   * Makes the first {@code r} GPUs of {@code pool} not all sit on one node of {@code avoid}, at no
   * cost: by swapping the last of them with a GPU of the pool on another node (every GPU of a
   * network pool goes to some network stage of its type, so which stage gets which changes only the
   * links), else by trading it for an unused GPU of its cost group (same type, same cost) elsewhere.
   */
  private void keepOffSlowNodes(List<String> pool, int r, Set<String> avoid, Set<String> used) {
    String node = onlyNode(pool.subList(0, r));
    if (node == null || !avoid.contains(node)) {
      return;
    }
    for (int i = r; i < pool.size(); i++) {
      if (!f.nodeOf(pool.get(i)).equals(node)) {
        Collections.swap(pool, r - 1, i);
        return;
      }
    }
    String last = pool.get(r - 1);
    for (CostGroup g : f.groups) {
      if (g.gpus.stream().noneMatch(gpu -> gpu.id().equals(last))) {
        continue;
      }
      for (Gpu gpu : g.gpus) {
        if (!gpu.node().equals(node) && used.add(gpu.id())) {
          used.remove(last);
          pool.set(r - 1, gpu.id());
          return;
        }
      }
    }
  }
}
