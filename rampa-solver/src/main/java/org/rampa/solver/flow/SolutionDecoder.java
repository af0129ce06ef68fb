package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.Gpu;
import org.rampa.perf.StageAssignment;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.NodeSlots.SlowNodes;

/**
 * Turns a solution of an {@link IntervalFlowFormulation} into stages on concrete GPU ids: the path
 * of arcs it chose, each arc's replicas taken from its slot's node or, for network stages, from the
 * cost groups in the counts the solution gives ({@link #decode}); or the same stages packed onto
 * shared nodes ({@link #decodePacked}). No network stage sits wholly on a slow node (one whose intra
 * link is slower than the network): the model counts GPUs so that this is possible, and the
 * decoder spreads them so.
 */
public final class SolutionDecoder {

  private final IntervalFlowFormulation f;
  private final int layers;

  public SolutionDecoder(IntervalFlowFormulation formulation) {
    this.f = formulation;
    this.layers = formulation.layers();
  }

  /** The stages of a solution, on concrete GPU ids. */
  public List<StageAssignment> decode(double[] values) {
    List<Arc> path = path(values);
    // GPUs per slot and type from the slot's node, then per type for network stages
    Map<String, List<String>> taken = new LinkedHashMap<>();
    Set<String> used = new HashSet<>();
    for (Slot s : f.slots) {
      for (Map.Entry<Integer, Integer> e : f.variables.usage(s).entrySet()) {
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
    if (f.shared != null) {
      // shared slot stages' fresh GPUs come from their node too, before network stages take any
      for (Slot s : f.slots) {
        for (Map.Entry<List<Integer>, Integer> e : f.variables.slotFresh(s).entrySet()) {
          long count = Math.round(values[e.getValue()]);
          CostGroup g = f.groups.get(e.getKey().get(0));
          for (Gpu gpu : g.gpus) {
            if (count == 0) {
              break;
            }
            if (gpu.node().equals(s.node) && used.add(gpu.id())) {
              taken.computeIfAbsent("ss" + s.index + "/" + g.type + "/" + e.getKey().get(1), k -> new ArrayList<>()).add(gpu.id());
              count--;
            }
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
  public List<StageAssignment> decodePacked(double[] values) {
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

  /**
   * Network stages take the solution's GPU counts per cost group from what slots left: outside slow
   * nodes by {@code w}, on slow nodes by the pools' counts (spread evenly over a pool's nodes).
   */
  private List<StageAssignment> assign(List<Arc> path, double[] values, Map<String, List<String>> taken,
      Set<String> used) {
    for (CostGroup g : f.groups) {
      long count = Math.round(values[f.variables.net(g)]);
      for (Gpu gpu : g.gpus) {
        if (count == 0) {
          break;
        }
        if (!f.slowNodeIds.contains(gpu.node()) && used.add(gpu.id())) {
          taken.computeIfAbsent("net/" + g.type, k -> new ArrayList<>()).add(gpu.id());
          count--;
        }
      }
    }
    for (SlowNodes pool : f.slowNodes) {
      // round robin over the pool's nodes, type by type: each node gets at most ceil(count / nodes)
      // of a group and of a type, within what the model's rows allow one node
      List<Integer> byType = new ArrayList<>(f.variables.net(pool).keySet());
      byType.sort((a, b) -> Integer.compare(f.groups.get(a).type, f.groups.get(b).type));
      int next = 0;
      int lastType = -1;
      for (int group : byType) {
        CostGroup g = f.groups.get(group);
        next = g.type == lastType ? next : 0;
        lastType = g.type;
        for (long count = Math.round(values[f.variables.net(pool).get(group)]); count > 0; count--) {
          String node = pool.nodes.get(next++ % pool.nodes.size());
          Gpu gpu = g.gpus.stream().filter(x -> x.node().equals(node) && !used.contains(x.id())).findFirst()
              .orElseThrow(() -> new IllegalStateException("solution takes more GPUs of node " + node + " than are free"));
          used.add(gpu.id());
          taken.computeIfAbsent("net/" + g.type, k -> new ArrayList<>()).add(gpu.id());
        }
      }
    }
    List<StageAssignment> stages = new ArrayList<>();
    for (int k = 0; k < path.size(); k++) {
      Arc a = path.get(k);
      stages.add(null);
      if (a.slot >= 0 && !a.shared()) {
        stages.set(k, StageAssignment.whole(a.from, a.to, take(taken, "s" + a.slot + "/" + a.type, a)));
      }
    }
    for (int t = 0; t < f.types.size(); t++) {
      List<String> pool = taken.getOrDefault("net/" + t, new ArrayList<>());
      List<Integer> singles = new ArrayList<>();
      List<Integer> spread = new ArrayList<>();
      for (int k = 0; k < path.size(); k++) {
        if (path.get(k).slot < 0 && !path.get(k).shared() && path.get(k).type == t) {
          (path.get(k).replicas == 1 || pool.stream().noneMatch(this::onSlowNode) ? singles : spread).add(k);
        }
      }
      // single replicas off slow nodes first (the model leaves enough there), then the rest spread
      pool.sort((x, y) -> Boolean.compare(onSlowNode(x), onSlowNode(y)));
      for (int k : singles) {
        stages.set(k, StageAssignment.whole(path.get(k).from, path.get(k).to, take(taken, "net/" + t, path.get(k))));
      }
      for (int k : spread) {
        stages.set(k, StageAssignment.whole(path.get(k).from, path.get(k).to, spreadOffSlowNodes(pool, path.get(k))));
      }
    }
    if (f.shared != null) {
      assignShared(path, values, used, stages, taken);
    }
    return stages;
  }

  /**
   * Shared stages: their partly used slots as the solution chose them, the rest from fresh GPUs
   * off slow nodes that nothing else took, group by group in the counts the solution gives.
   */
  private void assignShared(List<Arc> path, double[] values, Set<String> used, List<StageAssignment> stages,
      Map<String, List<String>> taken) {
    Map<List<Integer>, List<String>> fresh = new LinkedHashMap<>();
    for (CostGroup g : f.groups) {
      for (int k = 0; k < f.variables.shared(g).length; k++) {
        if (f.variables.shared(g)[k] < 0) {
          continue;
        }
        long count = Math.round(values[f.variables.shared(g)[k]]);
        for (Gpu gpu : g.gpus) {
          if (count == 0) {
            break;
          }
          if (!f.slowNodeIds.contains(gpu.node()) && used.add(gpu.id())) {
            fresh.computeIfAbsent(List.of(g.type, k), x -> new ArrayList<>()).add(gpu.id());
            count--;
          }
        }
      }
    }
    for (int k = 0; k < path.size(); k++) {
      Arc a = path.get(k);
      if (!a.shared()) {
        continue;
      }
      List<String> gpus = new ArrayList<>();
      for (int u = 0; u < a.share.parts.length; u++) {
        if (values[f.variables.parts(a)[u]] > 0.5) {
          gpus.add(f.shared.parts.get(a.share.parts[u]).gpu);
        }
      }
      List<String> pool = a.slot >= 0 ? taken.getOrDefault("ss" + a.slot + "/" + a.type + "/" + a.share.keyIndex, new ArrayList<>())
          : fresh.getOrDefault(List.of(a.type, a.share.keyIndex), new ArrayList<>());
      while (gpus.size() < a.replicas) {
        if (pool.isEmpty()) {
          throw new IllegalStateException("solution counts too few fresh GPUs for shared stage [" + a.from + ", " + a.to + ")");
        }
        gpus.add(pool.remove(0));
      }
      stages.set(k, new StageAssignment(a.from, a.to, gpus, SharedSlots.withMemory(a.share.key, a.share.memory)));
    }
  }

  private boolean onSlowNode(String gpu) {
    return f.slowNodeIds.contains(f.nodeOf(gpu));
  }

  private static List<String> take(Map<String, List<String>> taken, String key, Arc a) {
    List<String> pool = taken.getOrDefault(key, new ArrayList<>());
    if (pool.size() < a.replicas) {
      throw new IllegalStateException("solution counts too few GPUs for stage [" + a.from + ", " + a.to + ")");
    }
    List<String> gpus = new ArrayList<>(pool.subList(0, a.replicas));
    pool.subList(0, a.replicas).clear();
    return gpus;
  }

  /**
   * The replicas of a network stage, taken one by one from the slow node with the most GPUs left (a
   * GPU elsewhere counts as a node of its own), but never all from one slow node. Taking from the
   * fullest keeps every slow node within what the remaining stages can absorb (replicas less one
   * each), which the model's rows guarantee at the start.
   */
  private List<String> spreadOffSlowNodes(List<String> pool, Arc a) {
    List<String> gpus = new ArrayList<>();
    for (int pick = 0; pick < a.replicas; pick++) {
      Map<String, Integer> left = new LinkedHashMap<>();
      for (String gpu : pool) {
        left.merge(onSlowNode(gpu) ? f.nodeOf(gpu) : gpu, 1, Integer::sum);
      }
      String only = gpus.isEmpty() ? null : f.nodeOf(gpus.get(0));
      for (String g : gpus) {
        only = f.nodeOf(g).equals(only) ? only : null;
      }
      String exclude = pick == a.replicas - 1 && only != null && f.slowNodeIds.contains(only) ? only : null;
      String best = null;
      for (Map.Entry<String, Integer> e : left.entrySet()) {
        if (!e.getKey().equals(exclude) && (best == null || e.getValue() > left.get(best))) {
          best = e.getKey();
        }
      }
      if (best == null) {
        throw new IllegalStateException("no GPU off slow node " + exclude + " left for stage [" + a.from + ", " + a.to + ")");
      }
      String color = best;
      String gpu = pool.stream().filter(x -> (onSlowNode(x) ? f.nodeOf(x) : x).equals(color)).findFirst().orElseThrow();
      pool.remove(gpu);
      gpus.add(gpu);
    }
    return gpus;
  }
}
