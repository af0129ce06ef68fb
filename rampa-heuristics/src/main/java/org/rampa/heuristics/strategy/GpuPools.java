package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;

/**
 * The free GPUs grouped for the label-setting DP: a pool is the free GPUs of one type on one node,
 * sorted by cost. GPUs of one pool differ only in cost, so a plan needs only how many it takes from
 * each pool, and taking the cheapest first is optimal. Nodes whose pools look alike (same link,
 * same types with the same costs) are interchangeable until a plan touches one of them.
 */
final class GpuPools {

  /** One pool: free GPUs of one type on one node, cheapest first. */
  static final class Pool {
    final int index;
    final int node;
    final int type;
    final List<FreeGpu> gpus;
    final double[] prefixCost;

    Pool(int index, int node, int type, List<FreeGpu> gpus) {
      this.index = index;
      this.node = node;
      this.type = type;
      this.gpus = gpus;
      this.prefixCost = new double[gpus.size() + 1];
      for (int i = 0; i < gpus.size(); i++) {
        prefixCost[i + 1] = prefixCost[i] + gpus.get(i).cost();
      }
    }

    int size() {
      return gpus.size();
    }

    /** Cost of taking {@code count} more GPUs when {@code used} are taken already. */
    double cost(int used, int count) {
      return prefixCost[used + count] - prefixCost[used];
    }
  }

  final List<GpuType> types = new ArrayList<>();
  final List<String> nodeIds = new ArrayList<>();
  final List<Link> nodeLinks = new ArrayList<>();
  final List<Pool> pools = new ArrayList<>();
  /** Per node, per type: the pool index or -1. */
  final int[][] poolOf;
  /** Per type: the pools of that type. */
  final List<List<Pool>> poolsOfType = new ArrayList<>();
  /** Groups of interchangeable nodes (node indices, in cluster order). */
  final List<int[]> nodeGroups = new ArrayList<>();
  /** Per node, the index of its group in {@link #nodeGroups}. */
  final int[] groupOf;

  GpuPools(PlacementContext c) {
    Map<String, Integer> typeIndex = new LinkedHashMap<>();
    Map<String, Integer> nodeIndex = new LinkedHashMap<>();
    Map<Long, List<FreeGpu>> byNodeType = new LinkedHashMap<>();
    for (FreeGpu g : c.free()) {
      int t = typeIndex.computeIfAbsent(g.typeName(), k -> {
        types.add(g.type());
        return types.size() - 1;
      });
      int n = nodeIndex.computeIfAbsent(g.node(), k -> {
        nodeIds.add(k);
        nodeLinks.add(c.cluster.node(k).intraLink());
        return nodeIds.size() - 1;
      });
      byNodeType.computeIfAbsent(((long) n << 32) | t, k -> new ArrayList<>()).add(g);
    }
    poolOf = new int[nodeIds.size()][types.size()];
    for (int[] row : poolOf) {
      java.util.Arrays.fill(row, -1);
    }
    for (int t = 0; t < types.size(); t++) {
      poolsOfType.add(new ArrayList<>());
    }
    for (Map.Entry<Long, List<FreeGpu>> e : byNodeType.entrySet()) {
      int n = (int) (e.getKey() >> 32);
      int t = (int) (e.getKey() & 0xffffffffL);
      List<FreeGpu> gpus = new ArrayList<>(e.getValue());
      gpus.sort(Comparator.comparingDouble(FreeGpu::cost).thenComparingInt(FreeGpu::clusterIndex));
      Pool p = new Pool(pools.size(), n, t, List.copyOf(gpus));
      pools.add(p);
      poolOf[n][t] = p.index;
      poolsOfType.get(t).add(p);
    }
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (int n = 0; n < nodeIds.size(); n++) {
      StringBuilder sig = new StringBuilder(nodeLinks.get(n).toString());
      for (int t = 0; t < types.size(); t++) {
        int p = poolOf[n][t];
        sig.append('|').append(t).append(':');
        if (p >= 0) {
          for (FreeGpu g : pools.get(p).gpus) {
            sig.append(Double.doubleToLongBits(g.cost())).append(',');
          }
        }
      }
      groups.computeIfAbsent(sig.toString(), k -> new ArrayList<>()).add(n);
    }
    groupOf = new int[nodeIds.size()];
    for (List<Integer> members : groups.values()) {
      int g = nodeGroups.size();
      nodeGroups.add(members.stream().mapToInt(Integer::intValue).toArray());
      for (int n : members) {
        groupOf[n] = g;
      }
    }
  }
}
