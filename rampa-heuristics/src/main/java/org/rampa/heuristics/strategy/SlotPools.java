package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Link;
import org.rampa.perf.DeviceKind;

/**
 * The slot menu of the label-setting search ("dp"), pooled: every unit a stage replica may take
 * ({@link PlacementContext#units}: the free GPUs whole and, with sharing on, the shared-slot menu)
 * grouped into pools of interchangeable GPUs. A whole GPU is one slot of the menu like any share;
 * with sharing off it is the only one.
 *
 * <p><b>Shapes.</b> A shape is a GPU type with a placement ({@link FreeGpu#shape()}; the type's
 * name for a whole GPU): replicas of one stage use one shape, so they have one time alone.
 *
 * <p><b>Pools.</b> The GPUs of one node that offer the same shapes with the same α and memory
 * caps, cheapest first. A plan takes at most one unit per GPU, whatever the shape, so a label
 * records how many GPUs it took from each pool. Taking the cheapest first is optimal only when one
 * order is cheapest for every shape a pool offers: GPUs offering a single shape pool whatever
 * their costs (their order is that shape's cost order); GPUs offering several pool only with GPUs
 * at the same cost of every shape.
 *
 * <p><b>Look-alike nodes.</b> Nodes with the same link and the same pools (shapes, caps, α, costs
 * and sizes) are interchangeable until a plan touches one of them.
 */
final class SlotPools {

  /** GPUs of one node offering the same shapes, cheapest first. */
  static final class Pool {
    final int index;
    final int node;
    /** The GPUs (their first unit), cheapest first. */
    final List<FreeGpu> gpus;
    /** Per shape: the unit of the pool's first GPU for it, or null when the pool does not offer it. */
    final FreeGpu[] offer;
    /** Per offered shape: the cost of the pool's first k GPUs in that shape. */
    final double[][] prefixCost;
    /** Per shape: true when no other pool of the node offers it (twin nodes then map pool to pool). */
    final boolean[] onlyOfShapeOnNode;

    Pool(int index, int node, List<FreeGpu> gpus, FreeGpu[] offer, double[][] prefixCost) {
      this.index = index;
      this.node = node;
      this.gpus = gpus;
      this.offer = offer;
      this.prefixCost = prefixCost;
      this.onlyOfShapeOnNode = new boolean[offer.length];
    }

    int size() {
      return gpus.size();
    }

    boolean offers(int shape) {
      return offer[shape] != null;
    }

    /** Cost of taking {@code count} more GPUs in {@code shape} when {@code used} are taken already. */
    double cost(int shape, int used, int count) {
      return prefixCost[shape][used + count] - prefixCost[shape][used];
    }
  }

  /** Shape names, whole GPUs first (their order in the units), then the menu's shares. */
  final List<String> shapes = new ArrayList<>();
  /** Per shape: a unit of it (its type and placement). */
  final List<FreeGpu> shapeUnits = new ArrayList<>();
  final List<String> nodeIds = new ArrayList<>();
  final List<Link> nodeLinks = new ArrayList<>();
  final List<Pool> pools = new ArrayList<>();
  /** Per node: its pools. */
  final List<List<Pool>> poolsOfNode = new ArrayList<>();
  /** Per shape: the pools offering it. */
  final List<List<Pool>> poolsOfShape = new ArrayList<>();
  /** Per shape: the largest memory cap of a pool offering it. */
  final long[] maxCapOfShape;
  /** Per shape: the smallest memory cap of a pool offering it. */
  final long[] minCapOfShape;
  /** Groups of interchangeable nodes (node indices, in cluster order). */
  final List<int[]> nodeGroups = new ArrayList<>();
  /** Per node, the index of its group in {@link #nodeGroups}. */
  final int[] groupOf;
  /** Per node: its pools in an order that maps a node's pools onto a look-alike node's, pool for pool. */
  final int[][] canonicalPools;
  /** Per group: the least cost of one GPU of a member node in any shape. */
  final double[] cheapestGpuOfGroup;
  /** Per shape, per group (in group order): the pools of the group's nodes offering the shape, in node order. */
  final List<List<List<Pool>>> shapeGroupRuns = new ArrayList<>();

  SlotPools(PlacementContext c, List<FreeGpu> units) {
    Map<String, Integer> shapeIndex = new LinkedHashMap<>();
    int[] nodeOfPosition = c.cluster.nodePositions();
    int[] nodeIndex = new int[c.cluster.nodes().size()];
    Arrays.fill(nodeIndex, -1);
    // units of one GPU by its position in the cluster (a GPU id lookup per unit costs more on 10 000 GPUs)
    Map<Integer, List<FreeGpu>> byGpu = new LinkedHashMap<>();
    String lastShape = null;
    int lastShapeIndex = -1;
    for (FreeGpu u : units) {
      if (!u.shape().equals(lastShape)) {
        lastShape = u.shape();
        lastShapeIndex = shapeIndex.computeIfAbsent(u.shape(), k -> {
          shapes.add(k);
          shapeUnits.add(u);
          return shapes.size() - 1;
        });
      }
      int position = nodeOfPosition[u.clusterIndex()];
      if (nodeIndex[position] < 0) {
        nodeIndex[position] = nodeIds.size();
        nodeIds.add(u.node());
        nodeLinks.add(c.cluster.node(u.node()).intraLink());
        poolsOfNode.add(new ArrayList<>());
      }
      byGpu.computeIfAbsent(u.clusterIndex(), k -> new ArrayList<>(1)).add(u);
    }
    int shapeCount = shapes.size();
    // pool key: node and every offer's shape, α and cap; the costs too when the GPU offers several shapes
    Map<List<Long>, List<List<FreeGpu>>> byKey = new LinkedHashMap<>();
    for (List<FreeGpu> offers : byGpu.values()) {
      List<Long> key = new ArrayList<>(1 + 4 * offers.size());
      key.add((long) nodeIndex[nodeOfPosition[offers.get(0).clusterIndex()]]);
      for (FreeGpu u : offers) {
        key.add((long) shapeIndex.get(u.shape()));
        key.add(Double.doubleToLongBits(u.alpha()));
        key.add(u.memoryCapBytes());
        if (offers.size() > 1) {
          key.add(Double.doubleToLongBits(u.cost()));
        }
      }
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(offers);
    }
    for (int s = 0; s < shapeCount; s++) {
      poolsOfShape.add(new ArrayList<>());
    }
    maxCapOfShape = new long[shapeCount];
    minCapOfShape = new long[shapeCount];
    Arrays.fill(minCapOfShape, Long.MAX_VALUE);
    for (List<List<FreeGpu>> members : byKey.values()) {
      List<FreeGpu> firstOffers = members.get(0);
      List<List<FreeGpu>> sorted = new ArrayList<>(members);
      sorted.sort(Comparator.comparingDouble((List<FreeGpu> o) -> o.get(0).cost()).thenComparingInt(o -> o.get(0).clusterIndex()));
      FreeGpu[] offer = new FreeGpu[shapeCount];
      double[][] prefix = new double[shapeCount][];
      for (int k = 0; k < firstOffers.size(); k++) {
        int s = shapeIndex.get(firstOffers.get(k).shape());
        prefix[s] = new double[sorted.size() + 1];
        for (int g = 0; g < sorted.size(); g++) {
          prefix[s][g + 1] = prefix[s][g] + sorted.get(g).get(k).cost();
        }
        offer[s] = sorted.get(0).get(k);
        maxCapOfShape[s] = Math.max(maxCapOfShape[s], offer[s].memoryCapBytes());
        minCapOfShape[s] = Math.min(minCapOfShape[s], offer[s].memoryCapBytes());
      }
      List<FreeGpu> gpus = new ArrayList<>(sorted.size());
      sorted.forEach(o -> gpus.add(o.get(0)));
      Pool p = new Pool(pools.size(), nodeIndex[nodeOfPosition[firstOffers.get(0).clusterIndex()]], List.copyOf(gpus), offer, prefix);
      pools.add(p);
      poolsOfNode.get(p.node).add(p);
      for (int s = 0; s < shapeCount; s++) {
        if (p.offers(s)) {
          poolsOfShape.get(s).add(p);
        }
      }
    }
    for (Pool p : pools) {
      for (int s = 0; s < shapeCount; s++) {
        int shape = s;
        p.onlyOfShapeOnNode[s] = p.offers(s) && poolsOfNode.get(p.node).stream().filter(q -> q.offers(shape)).count() == 1;
      }
    }
    Map<List<Object>, List<Integer>> groups = new LinkedHashMap<>();
    canonicalPools = new int[nodeIds.size()][];
    for (int n = 0; n < nodeIds.size(); n++) {
      List<Pool> nodePools = poolsOfNode.get(n);
      List<List<Long>> signatures = new ArrayList<>(nodePools.size());
      for (Pool p : nodePools) {
        List<Long> sig = new ArrayList<>();
        for (int s = 0; s < shapeCount; s++) {
          if (p.offers(s)) {
            sig.add((long) s);
            sig.add(Double.doubleToLongBits(p.offer[s].alpha()));
            sig.add(p.offer[s].memoryCapBytes());
            for (double cost : p.prefixCost[s]) {
              sig.add(Double.doubleToLongBits(cost));
            }
          }
        }
        signatures.add(sig);
      }
      Integer[] order = new Integer[nodePools.size()];
      for (int k = 0; k < order.length; k++) {
        order[k] = k;
      }
      if (order.length > 1) {
        Arrays.sort(order, (x, y) -> compare(signatures.get(x), signatures.get(y)));
      }
      canonicalPools[n] = new int[order.length];
      List<Object> key = new ArrayList<>(order.length + 1);
      key.add(nodeLinks.get(n));
      for (int k = 0; k < order.length; k++) {
        canonicalPools[n][k] = nodePools.get(order[k]).index;
        key.add(signatures.get(order[k]));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
    }
    groupOf = new int[nodeIds.size()];
    cheapestGpuOfGroup = new double[groups.size()];
    for (List<Integer> members : groups.values()) {
      int g = nodeGroups.size();
      nodeGroups.add(members.stream().mapToInt(Integer::intValue).toArray());
      for (int n : members) {
        groupOf[n] = g;
      }
      double cheapest = Double.POSITIVE_INFINITY;
      for (Pool p : poolsOfNode.get(members.get(0))) {
        for (int s = 0; s < shapeCount; s++) {
          if (p.offers(s)) {
            cheapest = Math.min(cheapest, p.cost(s, 0, 1));
          }
        }
      }
      cheapestGpuOfGroup[g] = cheapest;
    }
    for (int s = 0; s < shapeCount; s++) {
      List<List<Pool>> runs = new ArrayList<>();
      for (int[] group : nodeGroups) {
        List<Pool> run = new ArrayList<>();
        for (int n : group) {
          for (Pool p : poolsOfNode.get(n)) {
            if (p.offers(s)) {
              run.add(p);
            }
          }
        }
        if (!run.isEmpty()) {
          runs.add(run);
        }
      }
      shapeGroupRuns.add(runs);
    }
  }

  /** Lexicographic order of two signatures. */
  private static int compare(List<Long> a, List<Long> b) {
    for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
      int c = Long.compare(a.get(k), b.get(k));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /** The kind of device shape {@code s} runs a stage on (its type and placement), for stage times. */
  DeviceKind kind(int s) {
    FreeGpu u = shapeUnits.get(s);
    return DeviceKind.of(u.type(), u.placement());
  }

  boolean isWhole(int s) {
    return shapeUnits.get(s).isWhole();
  }
}
