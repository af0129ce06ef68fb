package org.rampa.heuristics.importance;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.catalog.SharingCatalog;
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
 * type, the probability of the classes whose whole model, one replica alone on that share of the
 * type, fits the GPU's memory and meets its SLO. The table depends on the forecast and the cluster's
 * types only, so it is computed once per forecast snapshot and cluster, on the first partial holding
 * a decision prices: whole-GPU planning never pays for it.
 */
final class MenuDemand {

  private record Table(WorkloadForecast forecast, Cluster cluster, Map<String, Double> demand) {}

  private final PerformanceModel performance;
  private volatile Table last;

  MenuDemand(PerformanceModel performance) {
    this.performance = performance;
  }

  Map<String, Double> of(WorkloadForecast forecast, Cluster cluster) {
    Table table = last;
    if (table != null && table.forecast() == forecast && table.cluster() == cluster) {
      return table.demand();
    }
    Map<String, Double> demand = Map.copyOf(compute(forecast, cluster));
    last = new Table(forecast, cluster, demand);
    return demand;
  }

  private Map<String, Double> compute(WorkloadForecast forecast, Cluster cluster) {
    Map<String, Double> demand = new HashMap<>();
    demand.put(ShareCost.WHOLE, 1.0);
    int classes = forecast.classes().size();
    long[] memory = new long[classes];
    for (int c = 0; c < classes; c++) {
      ServiceRequest t = forecast.classes().get(c).template();
      memory[c] = performance.stageMemoryBytes(t.model(), 0, t.model().size(), t.slo().batchSize());
    }
    for (GpuType type : cluster.gpuTypes()) {
      GpuPartitioning parts = SharingCatalog.standard().partitioningFor(type);
      if (parts.mig().isPresent()) {
        for (MigProfile p : parts.mig().get().profiles()) {
          double d = 0;
          for (int c = 0; c < classes; c++) {
            if (memory[c] <= p.memoryBytes()) {
              d += forecast.probability(c);
            }
          }
          // profile names carry their memory ("3g.40gb"), so one name means one demand on every type
          demand.put(p.name(), d);
        }
      }
      Gpu sample = cluster.gpus().stream().filter(g -> g.type().equals(type.name())).findFirst().orElse(null);
      if (parts.mps() && sample != null) {
        for (double level : SharingOptions.DEFAULT_MPS_LEVELS) {
          double d = 0;
          for (int c = 0; c < classes; c++) {
            if (memory[c] <= type.memoryBytes() && servesAlone(forecast.classes().get(c).template(), sample, level, memory[c], cluster)) {
              d += forecast.probability(c);
            }
          }
          demand.put(ShareCost.mpsEntry(type.name(), level), d);
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
