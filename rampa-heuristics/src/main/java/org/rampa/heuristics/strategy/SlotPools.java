package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.rampa.domain.Cluster;
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
  /**
   * The pools of one group's nodes offering one shape, in node order. The nodes are alike: each
   * offers {@code nodeFree} GPUs of the shape, the cheapest at {@code nodeCheapest}.
   */
  record Run(int group, List<Pool> pools, int nodeFree, double nodeCheapest) {}

  /** Per shape, per group offering it (in group order): its run. */
  final List<List<Run>> shapeGroupRuns = new ArrayList<>();

  /** A pool's GPUs cheapest first (by the first offer's cost), ties in cluster order. */
  private static final Comparator<List<FreeGpu>> CHEAPEST_FIRST =
      Comparator.comparingDouble((List<FreeGpu> o) -> o.get(0).cost()).thenComparingInt(o -> o.get(0).clusterIndex());

  /**
   * The menu pooled last, for the next decision over the same units: a search that decides at its
   * root spends much of its time pooling, and decisions on an unchanged state (the same problem
   * again, a refused arrival, what-if questions) pool the same units. One entry, replaced by every
   * other menu; the pools are read-only after construction, so threads may share them.
   */
  private static final AtomicReference<SlotPools> LAST = new AtomicReference<>();

  /** What these pools are a function of: the cluster (nodes and links) and the units, compared by value. */
  private final Cluster cluster;
  private final List<FreeGpu> units;

  /** {@code units} (an unmodifiable list) of {@code c}'s cluster pooled, or the last decision's pools when it pooled the same. */
  static SlotPools of(PlacementContext c, List<FreeGpu> units) {
    SlotPools last = LAST.get();
    if (last != null && last.cluster == c.cluster && last.units.equals(units)) {
      return last;
    }
    SlotPools pooled = new SlotPools(c.cluster, units);
    LAST.set(pooled);
    return pooled;
  }

  private SlotPools(Cluster cluster, List<FreeGpu> units) {
    this.cluster = cluster;
    this.units = units;
    Map<String, Integer> shapeIndex = new HashMap<>();
    int[] nodeOfPosition = cluster.nodePositions();
    int[] nodeIndex = new int[cluster.nodes().size()];
    Arrays.fill(nodeIndex, -1);
    // units of one GPU by its position in the cluster (a GPU id lookup per unit costs more on 10 000 GPUs), GPUs in order of first unit
    int[] slotOfPosition = new int[cluster.gpus().size()];
    Arrays.fill(slotOfPosition, -1);
    List<List<FreeGpu>> byGpu = new ArrayList<>();
    List<int[]> shapesOfGpu = new ArrayList<>();
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
        nodeLinks.add(cluster.node(u.node()).intraLink());
        poolsOfNode.add(new ArrayList<>());
      }
      int slot = slotOfPosition[u.clusterIndex()];
      if (slot < 0) {
        slot = byGpu.size();
        slotOfPosition[u.clusterIndex()] = slot;
        byGpu.add(new ArrayList<>(1));
        shapesOfGpu.add(new int[] {lastShapeIndex});
      } else {
        int[] known = shapesOfGpu.get(slot);
        int[] more = Arrays.copyOf(known, known.length + 1);
        more[known.length] = lastShapeIndex;
        shapesOfGpu.set(slot, more);
      }
      byGpu.get(slot).add(u);
    }
    int shapeCount = shapes.size();
    // pool key: node and every offer's shape, α and cap; the costs too when the GPU offers several shapes
    Map<LongKey, List<Integer>> byKey = new LinkedHashMap<>();
    for (int slot = 0; slot < byGpu.size(); slot++) {
      List<FreeGpu> offers = byGpu.get(slot);
      int[] offerShapes = shapesOfGpu.get(slot);
      long[] key = new long[1 + (offers.size() > 1 ? 4 : 3) * offers.size()];
      int k = 0;
      key[k++] = nodeIndex[nodeOfPosition[offers.get(0).clusterIndex()]];
      for (int o = 0; o < offers.size(); o++) {
        FreeGpu u = offers.get(o);
        key[k++] = offerShapes[o];
        key[k++] = Double.doubleToLongBits(u.alpha());
        key[k++] = u.memoryCapBytes();
        if (offers.size() > 1) {
          key[k++] = Double.doubleToLongBits(u.cost());
        }
      }
      byKey.computeIfAbsent(new LongKey(null, key), x -> new ArrayList<>()).add(slot);
    }
    for (int s = 0; s < shapeCount; s++) {
      poolsOfShape.add(new ArrayList<>());
    }
    maxCapOfShape = new long[shapeCount];
    minCapOfShape = new long[shapeCount];
    Arrays.fill(minCapOfShape, Long.MAX_VALUE);
    for (List<Integer> members : byKey.values()) {
      int[] offerShapes = shapesOfGpu.get(members.get(0));
      List<List<FreeGpu>> sorted = new ArrayList<>(members.size());
      for (int slot : members) {
        sorted.add(byGpu.get(slot));
      }
      if (sorted.size() > 1) {
        sorted.sort(CHEAPEST_FIRST);
      }
      FreeGpu[] offer = new FreeGpu[shapeCount];
      double[][] prefix = new double[shapeCount][];
      for (int k = 0; k < offerShapes.length; k++) {
        int s = offerShapes[k];
        prefix[s] = new double[sorted.size() + 1];
        for (int g = 0; g < sorted.size(); g++) {
          prefix[s][g + 1] = prefix[s][g] + sorted.get(g).get(k).cost();
        }
        offer[s] = sorted.get(0).get(k);
        maxCapOfShape[s] = Math.max(maxCapOfShape[s], offer[s].memoryCapBytes());
        minCapOfShape[s] = Math.min(minCapOfShape[s], offer[s].memoryCapBytes());
      }
      FreeGpu[] gpus = new FreeGpu[sorted.size()];
      for (int g = 0; g < gpus.length; g++) {
        gpus[g] = sorted.get(g).get(0);
      }
      Pool p = new Pool(pools.size(), nodeIndex[nodeOfPosition[gpus[0].clusterIndex()]], List.of(gpus), offer, prefix);
      pools.add(p);
      poolsOfNode.get(p.node).add(p);
      for (int s = 0; s < shapeCount; s++) {
        if (p.offers(s)) {
          poolsOfShape.get(s).add(p);
        }
      }
    }
    int[] offering = new int[shapeCount];
    for (List<Pool> nodePools : poolsOfNode) {
      Arrays.fill(offering, 0);
      for (Pool p : nodePools) {
        for (int s = 0; s < shapeCount; s++) {
          offering[s] += p.offers(s) ? 1 : 0;
        }
      }
      for (Pool p : nodePools) {
        for (int s = 0; s < shapeCount; s++) {
          p.onlyOfShapeOnNode[s] = p.offers(s) && offering[s] == 1;
        }
      }
    }
    Map<LongKey, List<Integer>> groups = new LinkedHashMap<>();
    canonicalPools = new int[nodeIds.size()][];
    for (int n = 0; n < nodeIds.size(); n++) {
      List<Pool> nodePools = poolsOfNode.get(n);
      long[][] signatures = new long[nodePools.size()][];
      int length = 0;
      for (int k = 0; k < signatures.length; k++) {
        signatures[k] = signature(nodePools.get(k), shapeCount);
        length += 1 + signatures[k].length;
      }
      Integer[] order = new Integer[nodePools.size()];
      for (int k = 0; k < order.length; k++) {
        order[k] = k;
      }
      if (order.length > 1) {
        Arrays.sort(order, (x, y) -> Arrays.compare(signatures[x], signatures[y]));
      }
      canonicalPools[n] = new int[order.length];
      // the node's signatures in canonical order, each after its length (distinct lists never concatenate alike)
      long[] key = new long[length];
      int at = 0;
      for (int k = 0; k < order.length; k++) {
        canonicalPools[n][k] = nodePools.get(order[k]).index;
        long[] sig = signatures[order[k]];
        key[at++] = sig.length;
        System.arraycopy(sig, 0, key, at, sig.length);
        at += sig.length;
      }
      groups.computeIfAbsent(new LongKey(nodeLinks.get(n), key), x -> new ArrayList<>()).add(n);
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
    // per shape, per group: the group's pools offering it in node order (one pass over the groups for all shapes)
    for (int s = 0; s < shapeCount; s++) {
      shapeGroupRuns.add(new ArrayList<>());
    }
    List<List<Pool>> runOfShape = new ArrayList<>(shapeCount);
    for (int g = 0; g < nodeGroups.size(); g++) {
      int[] group = nodeGroups.get(g);
      runOfShape.clear();
      runOfShape.addAll(Collections.nCopies(shapeCount, null));
      for (int n : group) {
        for (Pool p : poolsOfNode.get(n)) {
          for (int s = 0; s < shapeCount; s++) {
            if (p.offers(s)) {
              if (runOfShape.get(s) == null) {
                runOfShape.set(s, new ArrayList<>());
              }
              runOfShape.get(s).add(p);
            }
          }
        }
      }
      for (int s = 0; s < shapeCount; s++) {
        if (runOfShape.get(s) != null) {
          int nodeFree = 0;
          double nodeCheapest = Double.POSITIVE_INFINITY;
          for (Pool p : poolsOfNode.get(group[0])) {
            if (p.offers(s)) {
              nodeFree += p.size();
              nodeCheapest = Math.min(nodeCheapest, p.cost(s, 0, 1));
            }
          }
          shapeGroupRuns.get(s).add(new Run(g, runOfShape.get(s), nodeFree, nodeCheapest));
        }
      }
    }
  }

  /** A pool's signature: per shape it offers, the shape, α, cap and the prefix costs of its GPUs. */
  private static long[] signature(Pool p, int shapeCount) {
    int length = 0;
    for (int s = 0; s < shapeCount; s++) {
      if (p.offers(s)) {
        length += 3 + p.prefixCost[s].length;
      }
    }
    long[] sig = new long[length];
    int k = 0;
    for (int s = 0; s < shapeCount; s++) {
      if (p.offers(s)) {
        sig[k++] = s;
        sig[k++] = Double.doubleToLongBits(p.offer[s].alpha());
        sig[k++] = p.offer[s].memoryCapBytes();
        for (double cost : p.prefixCost[s]) {
          sig[k++] = Double.doubleToLongBits(cost);
        }
      }
    }
    return sig;
  }

  /** A hash key of primitive values (and a link): built per GPU and per node, so no boxed lists. */
  private static final class LongKey {
    private final Link link;
    private final long[] values;
    private final int hash;

    LongKey(Link link, long[] values) {
      this.link = link;
      this.values = values;
      this.hash = 31 * Objects.hashCode(link) + Arrays.hashCode(values);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof LongKey k && hash == k.hash && Objects.equals(link, k.link) && Arrays.equals(values, k.values);
    }

    @Override
    public int hashCode() {
      return hash;
    }
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
