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
import org.rampa.domain.Node;
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
  private static final Comparator<FreeGpu> CHEAPEST_FIRST =
      Comparator.comparingDouble(FreeGpu::cost).thenComparingInt(FreeGpu::clusterIndex);

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
    // every decision on a new state pools its menu again (a scheduler's next arrival), so this runs on
    // primitive arrays: no list, key or boxed index per GPU
    int unitCount = units.size();
    Map<String, Integer> shapeIndex = new HashMap<>();
    int[] nodeOfPosition = cluster.nodePositions();
    List<Node> clusterNodes = cluster.nodes();
    int[] nodeIndex = new int[clusterNodes.size()];
    Arrays.fill(nodeIndex, -1);
    // per unit: its shape and the next unit of its GPU; per slot (a GPU, in order of first unit): its first and last unit, their count
    int[] shapeOfUnit = new int[unitCount];
    int[] nextUnit = new int[unitCount];
    int[] firstUnit = new int[unitCount];
    int[] lastUnit = new int[unitCount];
    int[] offerCount = new int[unitCount];
    int[] nodeOfSlot = new int[unitCount];
    // slots by the GPU's position in the cluster (a GPU id lookup per unit costs more on 10 000 GPUs)
    int[] slotOfPosition = new int[cluster.gpus().size()];
    Arrays.fill(slotOfPosition, -1);
    int slots = 0;
    String lastShape = null;
    int lastShapeIndex = -1;
    for (int i = 0; i < unitCount; i++) {
      FreeGpu u = units.get(i);
      if (!u.shape().equals(lastShape)) {
        lastShape = u.shape();
        lastShapeIndex = shapeIndex.computeIfAbsent(u.shape(), k -> {
          shapes.add(k);
          shapeUnits.add(u);
          return shapes.size() - 1;
        });
      }
      shapeOfUnit[i] = lastShapeIndex;
      nextUnit[i] = -1;
      int position = nodeOfPosition[u.clusterIndex()];
      if (nodeIndex[position] < 0) {
        nodeIndex[position] = nodeIds.size();
        nodeIds.add(u.node());
        nodeLinks.add(clusterNodes.get(position).intraLink());
        poolsOfNode.add(new ArrayList<>());
      }
      int slot = slotOfPosition[u.clusterIndex()];
      if (slot < 0) {
        slot = slots++;
        slotOfPosition[u.clusterIndex()] = slot;
        firstUnit[slot] = i;
        nodeOfSlot[slot] = nodeIndex[position];
      } else {
        nextUnit[lastUnit[slot]] = i;
      }
      lastUnit[slot] = i;
      offerCount[slot]++;
    }
    int shapeCount = shapes.size();
    // pools in order of their first GPU: a GPU joins the pool of its node whose first GPU offers the same
    // shapes with the same α and caps (and costs, when it offers several); a node has a few pools, so a scan
    // (a node of g GPUs has at most g pools: at most g²/2 comparisons, against a hashed key per GPU before)
    int[] poolOfSlot = new int[slots];
    int[] firstSlotOfPool = new int[slots];
    int[] sizeOfPool = new int[slots];
    int[][] poolIdsOfNode = new int[nodeIds.size()][];
    int[] poolCountOfNode = new int[nodeIds.size()];
    int poolCount = 0;
    for (int slot = 0; slot < slots; slot++) {
      int n = nodeOfSlot[slot];
      int[] ids = poolIdsOfNode[n];
      int pool = -1;
      for (int k = 0; k < poolCountOfNode[n] && pool < 0; k++) {
        if (sameOffers(units, shapeOfUnit, nextUnit, firstUnit, offerCount, firstSlotOfPool[ids[k]], slot)) {
          pool = ids[k];
        }
      }
      if (pool < 0) {
        pool = poolCount++;
        firstSlotOfPool[pool] = slot;
        if (ids == null || poolCountOfNode[n] == ids.length) {
          ids = ids == null ? new int[2] : Arrays.copyOf(ids, 2 * ids.length);
          poolIdsOfNode[n] = ids;
        }
        ids[poolCountOfNode[n]++] = pool;
      }
      poolOfSlot[slot] = pool;
      sizeOfPool[pool]++;
    }
    // each pool's slots in slot order, pool after pool
    int[] startOfPool = new int[poolCount + 1];
    for (int pool = 0; pool < poolCount; pool++) {
      startOfPool[pool + 1] = startOfPool[pool] + sizeOfPool[pool];
    }
    int[] slotsOfPools = new int[slots];
    int[] filled = Arrays.copyOf(startOfPool, poolCount);
    for (int slot = 0; slot < slots; slot++) {
      slotsOfPools[filled[poolOfSlot[slot]]++] = slot;
    }
    for (int s = 0; s < shapeCount; s++) {
      poolsOfShape.add(new ArrayList<>());
    }
    maxCapOfShape = new long[shapeCount];
    minCapOfShape = new long[shapeCount];
    Arrays.fill(minCapOfShape, Long.MAX_VALUE);
    for (int pool = 0; pool < poolCount; pool++) {
      int from = startOfPool[pool];
      int size = sizeOfPool[pool];
      if (size > 1) {
        cheapestFirst(units, firstUnit, slotsOfPools, from, from + size);
      }
      FreeGpu[] offer = new FreeGpu[shapeCount];
      double[][] prefix = new double[shapeCount][];
      FreeGpu[] gpus = new FreeGpu[size];
      for (int g = 0; g < size; g++) {
        int unit = firstUnit[slotsOfPools[from + g]];
        gpus[g] = units.get(unit);
        for (; unit >= 0; unit = nextUnit[unit]) {
          int s = shapeOfUnit[unit];
          FreeGpu u = units.get(unit);
          if (g == 0) {
            prefix[s] = new double[size + 1];
            offer[s] = u;
            maxCapOfShape[s] = Math.max(maxCapOfShape[s], u.memoryCapBytes());
            minCapOfShape[s] = Math.min(minCapOfShape[s], u.memoryCapBytes());
          }
          prefix[s][g + 1] = prefix[s][g] + u.cost();
        }
      }
      Pool p = new Pool(pools.size(), nodeOfSlot[slotsOfPools[from]], List.of(gpus), offer, prefix);
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
      int[] group = new int[members.size()];
      for (int k = 0; k < group.length; k++) {
        group[k] = members.get(k);
        groupOf[group[k]] = g;
      }
      nodeGroups.add(group);
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

  /** True when slots {@code a} and {@code b} offer the same shapes, in order, with the same α and caps (and costs, when they offer several). */
  private static boolean sameOffers(List<FreeGpu> units, int[] shapeOfUnit, int[] nextUnit, int[] firstUnit, int[] offerCount, int a, int b) {
    if (offerCount[a] != offerCount[b]) {
      return false;
    }
    boolean several = offerCount[a] > 1;
    for (int x = firstUnit[a], y = firstUnit[b]; x >= 0; x = nextUnit[x], y = nextUnit[y]) {
      FreeGpu u = units.get(x);
      FreeGpu v = units.get(y);
      if (shapeOfUnit[x] != shapeOfUnit[y] || Double.doubleToLongBits(u.alpha()) != Double.doubleToLongBits(v.alpha())
          || u.memoryCapBytes() != v.memoryCapBytes() || several && Double.doubleToLongBits(u.cost()) != Double.doubleToLongBits(v.cost())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sorts {@code members[from, to)} (slots) cheapest first by their first unit's cost, ties in cluster
   * order (a total order, so the result is the one any sort gives). Pools are a node's GPUs, a few:
   * insertion sort, boxed only for a large node.
   */
  private static void cheapestFirst(List<FreeGpu> units, int[] firstUnit, int[] members, int from, int to) {
    if (to - from > 16) {
      Integer[] boxed = new Integer[to - from];
      for (int k = from; k < to; k++) {
        boxed[k - from] = members[k];
      }
      Arrays.sort(boxed, (a, b) -> CHEAPEST_FIRST.compare(units.get(firstUnit[a]), units.get(firstUnit[b])));
      for (int k = from; k < to; k++) {
        members[k] = boxed[k - from];
      }
      return;
    }
    for (int k = from + 1; k < to; k++) {
      int slot = members[k];
      FreeGpu u = units.get(firstUnit[slot]);
      int j = k - 1;
      while (j >= from && CHEAPEST_FIRST.compare(units.get(firstUnit[members[j]]), u) > 0) {
        members[j + 1] = members[j];
        j--;
      }
      members[j + 1] = slot;
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
