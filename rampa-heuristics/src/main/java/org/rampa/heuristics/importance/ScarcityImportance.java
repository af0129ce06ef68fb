package org.rampa.heuristics.importance;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;

/**
 * Scarcity × future demand: cost(g) = D(t) / max(1, free(t)) for g of type t, where free(t) is
 * the free capacity of type t in the state in GPU-equivalents (whole free GPUs, the compute left on
 * GPUs in MPS mode, unheld MIG instances: {@link #freeGpuEquivalents}) and D(t) is the forecast's
 * expected demand for type t, in GPUs per forecast arrival. D(t) counts whole GPUs, as the
 * importance is the same whether or not the decision may share (a share's cost adds the room it
 * strands, {@link org.rampa.importance.ShareCost}); free(t) counts what sharing leaves, so opening
 * a GPU for MPS lowers the type's free capacity by the share taken, not by a whole GPU.
 *
 * <p>D(t): for each forecast class c (probability p_c), n(c, t) is the fewest GPUs of type t that
 * serve c alone ({@link TypeRequirements}; ∞ when t cannot). A GPU of t serves 1/n(c, t) of a
 * service, so c's arrivals are attributed to the types that can serve it in proportion to
 * 1/n(c, t): a class that only t can serve relies on t entirely; one that needs 1 GPU of A or 4
 * of B relies on A for 4/5 and on B for 1/5. Each share then consumes n(c, t) GPUs:
 *
 * <pre>D(t) = Σ_c p_c · (1/n(c,t)) / Σ_t' (1/n(c,t')) · n(c,t)</pre>
 *
 * Classes no type can serve add nothing. Unit: demanded GPUs per arrival per free GPU; finite and
 * ≥ 0. The demand table is state-independent and cached per (forecast snapshot, cluster), and
 * n(c, t) per class ({@link PerClassMemo}), so a sliding window's new snapshot recomputes only the
 * sums; free capacity is recounted at every evaluation, so the cost of a type rises as its free GPUs
 * go.
 */
final class ScarcityImportance implements ImportanceModel {

  private record DemandTable(WorkloadForecast forecast, Cluster cluster, Map<String, Double> gpusPerArrival) {}

  private final Supplier<WorkloadForecast> forecast;
  private final SingleTypeLayouts layouts;
  private final MenuDemand menuDemand;
  private final PerClassMemo<Map<String, Integer>> requirements = new PerClassMemo<>();
  private volatile DemandTable last;

  ScarcityImportance(Supplier<WorkloadForecast> forecast, SingleTypeLayouts layouts) {
    this.forecast = forecast;
    this.layouts = layouts;
    this.menuDemand = new MenuDemand(layouts.performance());
  }

  @Override
  public String name() {
    return "scarcity";
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    Cluster cluster = state.cluster();
    WorkloadForecast f = forecast.get();
    Map<String, Double> demand = demand(f, cluster);
    Map<String, Double> free = freeGpuEquivalents(state);
    Map<String, Double> byType = new HashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      byType.put(t.name(), demand.getOrDefault(t.name(), 0.0) / Math.max(1, free.getOrDefault(t.name(), 0.0)));
    }
    return new ForecastShareCosts(gpu -> byType.get(cluster.gpu(gpu).type()), levels -> menuDemand.of(f, cluster, levels));
  }

  /**
   * Free capacity per type in GPU-equivalents: the whole free GPUs, plus the compute MPS GPUs have
   * left (at most 1 each) and the share equivalents of unheld MIG instances. On a state of whole
   * holdings only, exactly the whole free GPUs.
   */
  static Map<String, Double> freeGpuEquivalents(ClusterState state) {
    Capacity capacity = state.capacity();
    Cluster cluster = state.cluster();
    Map<String, Double> free = new HashMap<>();
    capacity.countByType().forEach((t, n) -> free.put(t, (double) n));
    capacity.freeMpsShares().forEach((gpu, share) -> free.merge(cluster.gpu(gpu).type(), Math.min(1, share), Double::sum));
    capacity.freeMigInstances().forEach((gpu, instances) -> {
      for (var instance : instances) {
        free.merge(cluster.gpu(gpu).type(), instance.shareEquivalent(state.partitioning(gpu)), Double::sum);
      }
    });
    return free;
  }

  /** D(t) for every type of the cluster, in GPUs per forecast arrival. */
  Map<String, Double> demand(WorkloadForecast f, Cluster cluster) {
    DemandTable table = last;
    if (table != null && table.forecast() == f && table.cluster() == cluster) {
      return table.gpusPerArrival();
    }
    Map<String, Double> demand = new HashMap<>();
    Supplier<FreeCapacity> whole = Memoized.of(() -> TypeRequirements.whole(cluster));
    for (int c = 0; c < f.classes().size(); c++) {
      Map<String, Integer> need = requirements.get(cluster, f.classes().get(c).template(),
          t -> Collections.unmodifiableMap(TypeRequirements.of(t, cluster, whole.get(), layouts)));
      double servedPerGpu = 0;
      for (int n : need.values()) {
        servedPerGpu += 1.0 / n;
      }
      if (servedPerGpu == 0) {
        continue;
      }
      // share(t) · n(c,t) = (1/n) / Σ(1/n') · n = 1 / Σ(1/n')
      double gpus = f.probability(c) / servedPerGpu;
      need.keySet().forEach(t -> demand.merge(t, gpus, Double::sum));
    }
    last = new DemandTable(f, cluster, Map.copyOf(demand));
    return demand;
  }
}
