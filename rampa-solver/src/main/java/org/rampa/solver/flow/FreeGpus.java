package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.TransferMode;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.support.SharedSlotMenu;

/**
 * The first step of an {@link IntervalFlowFormulation}: what every later step builds from. The free
 * GPUs per offered type and per {@link CostGroup}, the free cost groups on each node, the transfer
 * charged at each network cut, and, with sharing, the menu's candidates ({@link SharedSlots}).
 *
 * @param freeGroupsByNode per node with free GPUs, the cost group of each of them
 * @param networkSeconds tau charged for a network cut j (0 at j = 0 and j = L)
 * @param shared the shared-GPU menu's candidates; null when sharing is off (the model is then
 *     exactly the whole-GPU one)
 * @param outOfTime the caller's clock, asked by {@link #checkTime}
 */
record FreeGpus(ServiceRequest request, Cluster cluster, PerformanceModel performance, TransferMode mode, int layers, int batch,
    List<GpuType> types, int[] freePerType, List<CostGroup> groups, Map<String, List<Integer>> freeGroupsByNode,
    double[] networkSeconds, SharedSlots shared, BooleanSupplier outOfTime) {

  /**
   * The free GPUs of one type at one cost ({@code index} in {@link #groups}).
   * {@code outsideSlowNodes}: its GPUs not on a slow node, what network stages may take (all of
   * them until {@link #outside} names the slow nodes). {@code sharedCosts}, sharing only: the cost
   * of each of the type's fresh shared placements ({@link SharedSlots#freshKeys}) on one of its
   * GPUs (NaN where not offered); empty without sharing.
   */
  static final class CostGroup {
    final int index;
    final int type;
    final double cost;
    final List<Gpu> gpus;
    final int outsideSlowNodes;
    final double[] sharedCosts;

    private CostGroup(int index, int type, double cost, List<Gpu> gpus, int outsideSlowNodes, double[] sharedCosts) {
      this.index = index;
      this.type = type;
      this.cost = cost;
      this.gpus = gpus;
      this.outsideSlowNodes = outsideSlowNodes;
      this.sharedCosts = sharedCosts;
    }
  }

  /**
   * Counts the free GPUs of {@code state} by type and cost, and the network transfers: each cut
   * charged the network, or, {@code optimistic}, the fastest link any free node (or shared slot's
   * node) offers.
   */
  static FreeGpus count(ServiceRequest request, ClusterState state, GpuCosts costs, PerformanceModel performance,
      boolean optimistic, BooleanSupplier outOfTime, SharedSlotMenu menu, InterferenceModel interference) {
    Cluster cluster = state.cluster();
    Model m = request.model();
    int layers = m.size();
    int batch = request.slo().batchSize();
    Map<String, Integer> typeIndex = new LinkedHashMap<>();
    List<GpuType> types = new ArrayList<>();
    for (GpuType t : cluster.gpuTypes()) {
      boolean offered = state.capacity().gpus().stream().anyMatch(g -> g.type().equals(t.name()))
          || menu != null && menu.slots().stream().anyMatch(s -> s.type().name().equals(t.name()));
      if (offered) {
        typeIndex.put(t.name(), types.size());
        types.add(t);
      }
    }
    int[] freePerType = new int[types.size()];
    SharedSlots shared = menu == null ? null : new SharedSlots(request, state, performance, interference, types, menu);
    Map<List<Object>, Integer> groupIndex = new LinkedHashMap<>();
    List<int[]> groupKeys = new ArrayList<>(); // per group: type
    List<Double> groupCosts = new ArrayList<>();
    List<double[]> groupShared = new ArrayList<>();
    List<List<Gpu>> groupGpus = new ArrayList<>();
    Map<String, List<Integer>> freeGroupsByNode = new LinkedHashMap<>();
    for (Gpu g : state.capacity().gpus()) {
      int t = typeIndex.get(g.type());
      freePerType[t]++;
      double cost = costs.of(g.id());
      double[] sharedCosts = shared == null ? null : sharedCostsOf(shared, g.id(), t);
      List<Object> key = shared == null ? List.of(t, cost) : List.of(t, cost, Arrays.stream(sharedCosts).boxed().toList());
      int gi = groupIndex.computeIfAbsent(key, k -> {
        groupKeys.add(new int[] {t});
        groupCosts.add(cost);
        groupShared.add(sharedCosts == null ? new double[0] : sharedCosts);
        groupGpus.add(new ArrayList<>());
        return groupGpus.size() - 1;
      });
      groupGpus.get(gi).add(g);
      freeGroupsByNode.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(gi);
    }
    List<CostGroup> groups = new ArrayList<>();
    for (int gi = 0; gi < groupGpus.size(); gi++) {
      List<Gpu> gpus = List.copyOf(groupGpus.get(gi));
      groups.add(new CostGroup(gi, groupKeys.get(gi)[0], groupCosts.get(gi), gpus, gpus.size(), groupShared.get(gi)));
    }

    double[] networkSeconds = new double[layers + 1];
    for (int j = 1; j < layers; j++) {
      double best = performance.transferSeconds(m, j, batch, cluster.network());
      if (optimistic) {
        for (String node : freeGroupsByNode.keySet()) {
          best = Math.min(best, performance.transferSeconds(m, j, batch, cluster.node(node).intraLink()));
        }
        if (shared != null) {
          for (SharedSlots.Part p : shared.parts) {
            best = Math.min(best, performance.transferSeconds(m, j, batch, cluster.node(cluster.gpu(p.gpu).node()).intraLink()));
          }
        }
      }
      networkSeconds[j] = best;
    }
    return new FreeGpus(request, cluster, performance, performance.transferMode(), layers, batch, List.copyOf(types), freePerType,
        List.copyOf(groups), Collections.unmodifiableMap(freeGroupsByNode), networkSeconds, shared, outOfTime);
  }

  /** Per fresh shared placement of type {@code t}, what holding it on free GPU {@code gpu} costs (NaN: not offered). */
  private static double[] sharedCostsOf(SharedSlots shared, String gpu, int t) {
    double[] offered = shared.freshCosts.get(gpu);
    if (offered != null) {
      return offered.clone();
    }
    double[] none = new double[shared.freshKeys.get(t).size()];
    Arrays.fill(none, Double.NaN);
    return none;
  }

  /** The same free GPUs, each group counting its GPUs outside {@code slowNodeIds}. */
  FreeGpus outside(Set<String> slowNodeIds) {
    List<CostGroup> counted = new ArrayList<>();
    for (CostGroup g : groups) {
      int outside = (int) g.gpus.stream().filter(gpu -> !slowNodeIds.contains(gpu.node())).count();
      counted.add(new CostGroup(g.index, g.type, g.cost, g.gpus, outside, g.sharedCosts));
    }
    return new FreeGpus(request, cluster, performance, mode, layers, batch, types, freePerType, List.copyOf(counted),
        freeGroupsByNode, networkSeconds, shared, outOfTime);
  }

  /** Gives up with {@link OutOfTime} when the caller's time is up; the steps ask it as they build. */
  void checkTime() {
    if (outOfTime.getAsBoolean()) {
      throw new OutOfTime();
    }
  }

  /** Throughput holds when one stage is busy {@code load} seconds per batch, by the one SLO predicate. */
  boolean meetsPeriod(double load) {
    return SloPredicate.meetsPeriod(load, request.slo());
  }

  /** tau charged on the network before a stage starting at boundary {@code i} (none before the first). */
  double in(int i) {
    return i > 0 ? networkSeconds[i] : 0;
  }

  /** tau charged on the network after a stage ending at boundary {@code j} (none after the last). */
  double out(int j) {
    return j < layers ? networkSeconds[j] : 0;
  }

  /** The node GPU {@code gpuId} sits on. */
  String nodeOf(String gpuId) {
    return cluster.gpu(gpuId).node();
  }
}
