package org.rampa.heuristics.importance;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.ShareCost;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.SharingOptions;

/**
 * The forecast demand for each entry of a GPU's placement menu ({@link ShareCost}'s weights): the
 * whole GPU serves every class (in a pipeline if need be), 1; a MIG profile, the forecast
 * probability of the classes whose whole model, at their batch, fits its memory; an MPS level of a
 * type (the decision's levels, {@link SharingOptions#mpsLevels()}), the probability of the classes
 * whose whole model, one replica alone on that share of the type, fits the GPU's memory and meets
 * its SLO. The table is computed on the first partial holding a decision prices (whole-GPU planning
 * never pays for it) and kept for the last forecast snapshot, cluster and levels. What a class can
 * use (its memory, whether it meets its SLO alone on a level of a type) does not depend on the
 * forecast's weights, so it is remembered per class ({@link PerClassMemo}): a new snapshot of a
 * sliding window costs only the weighted sums.
 */
final class MenuDemand {

  private record Table(WorkloadForecast forecast, Cluster cluster, List<Double> levels, Map<String, Double> demand) {}

  /** What one class can use on the cluster's menu: its memory and, per MPS entry asked so far, whether it meets its SLO alone there. */
  private record ClassFit(long memoryBytes, Map<String, Boolean> servesAlone) {}

  private final PerformanceModel performance;
  private final PerClassMemo<ClassFit> fits = new PerClassMemo<>();
  private volatile Table last;

  MenuDemand(PerformanceModel performance) {
    this.performance = performance;
  }

  Map<String, Double> of(WorkloadForecast forecast, Cluster cluster, List<Double> levels) {
    Table table = last;
    if (table != null && table.forecast() == forecast && table.cluster() == cluster && table.levels().equals(levels)) {
      return table.demand();
    }
    Map<String, Double> demand = Map.copyOf(compute(forecast, cluster, levels));
    last = new Table(forecast, cluster, List.copyOf(levels), demand);
    return demand;
  }

  private Map<String, Double> compute(WorkloadForecast forecast, Cluster cluster, List<Double> levels) {
    Map<String, Double> demand = new HashMap<>();
    demand.put(ShareCost.WHOLE, 1.0);
    int classes = forecast.classes().size();
    ClassFit[] fit = new ClassFit[classes];
    for (int c = 0; c < classes; c++) {
      fit[c] = fits.get(cluster, forecast.classes().get(c).template(),
          t -> new ClassFit(performance.stageMemoryBytes(t.model(), 0, t.model().size(), t.slo().batchSize()), new ConcurrentHashMap<>()));
    }
    for (GpuType type : cluster.gpuTypes()) {
      GpuPartitioning parts = type.partitioning();
      if (parts.mig().isPresent()) {
        for (MigProfile p : parts.mig().get().profiles()) {
          double d = 0;
          for (int c = 0; c < classes; c++) {
            if (fit[c].memoryBytes() <= p.memoryBytes()) {
              d += forecast.probability(c);
            }
          }
          // profile names carry their memory ("3g.40gb"), so one name means one demand on every type
          demand.put(p.name(), d);
        }
      }
      Gpu sample = cluster.gpus().stream().filter(g -> g.type().equals(type.name())).findFirst().orElse(null);
      if (parts.mps() && sample != null) {
        for (double level : levels) {
          String entry = ShareCost.mpsEntry(type.name(), level);
          double d = 0;
          for (int c = 0; c < classes; c++) {
            ServiceRequest t = forecast.classes().get(c).template();
            long memory = fit[c].memoryBytes();
            if (fit[c].servesAlone().computeIfAbsent(entry, e -> memory <= type.memoryBytes() && servesAlone(t, sample, level, memory, cluster))) {
              d += forecast.probability(c);
            }
          }
          demand.put(entry, d);
        }
      }
    }
    return demand;
  }

  private boolean servesAlone(ServiceRequest r, Gpu gpu, double level, long memory, Cluster cluster) {
    StageAssignment stage = new StageAssignment(0, r.model().size(), List.of(gpu.id()), new MpsShare(level, memory));
    return SloPredicate.meets(performance.estimate(r, List.of(stage), cluster), r.slo());
  }
}
