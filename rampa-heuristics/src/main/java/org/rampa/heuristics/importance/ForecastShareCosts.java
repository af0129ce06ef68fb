package org.rampa.heuristics.importance;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import java.util.HashMap;
import java.util.Map;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ShareCost;
import org.rampa.perf.PerformanceModel;

/**
 * A forecast-driven model's costs extended to partial GPUs (SHARING.md section 4): holding a part
 * of a GPU costs its importance × (share equivalent + the forecast-weighted fraction of its
 * placement menu the part destroys, {@link ShareCost#fragmentation}). The fragmentation term is
 * weighed by the GPU's own importance (λ = importance), so it stays in the model's unit and
 * vanishes where the model sees no demand. The whole GPU costs exactly its importance: these
 * models already price what taking all of it destroys, and whole-GPU plans must cost what they did.
 *
 * <p>A MIG profile's demand is the forecast probability of the classes whose whole model, at their
 * batch, fits the profile's memory; the whole GPU serves every class (in a pipeline if need be).
 * It is computed on the first partial holding asked about, so whole-GPU planning never pays for it.
 */
final class ForecastShareCosts implements GpuCosts {

  private final GpuCosts importance;
  private final Supplier<ShareCost> menu;

  ForecastShareCosts(GpuCosts importance, ClusterState state, WorkloadForecast forecast, PerformanceModel performance) {
    this.importance = importance;
    this.menu = Suppliers.memoize(() -> new ShareCost(1.0, demand(state, forecast, performance)));
  }

  @Override
  public double of(String gpuId) {
    return importance.of(gpuId);
  }

  @Override
  public double of(ClusterState state, String gpuId, Placement placement) {
    double cost = importance.of(gpuId);
    if (placement instanceof Whole) {
      return cost;
    }
    return cost * (placement.shareEquivalent(state.partitioning(gpuId)) + menu.get().fragmentation(state, gpuId, placement));
  }

  private static Map<String, Double> demand(ClusterState state, WorkloadForecast forecast, PerformanceModel performance) {
    Map<String, Double> demand = new HashMap<>();
    demand.put(ShareCost.WHOLE, 1.0);
    long[] memory = new long[forecast.classes().size()];
    for (int c = 0; c < memory.length; c++) {
      ServiceRequest t = forecast.classes().get(c).template();
      memory[c] = performance.stageMemoryBytes(t.model(), 0, t.model().size(), t.slo().batchSize());
    }
    for (GpuType type : state.cluster().gpuTypes()) {
      var mig = SharingCatalog.standard().partitioningFor(type).mig();
      if (mig.isEmpty()) {
        continue;
      }
      for (MigProfile p : mig.get().profiles()) {
        double d = 0;
        for (int c = 0; c < memory.length; c++) {
          if (memory[c] <= p.memoryBytes()) {
            d += forecast.probability(c);
          }
        }
        // profile names carry their memory ("3g.40gb"), so one name means one demand on every type
        demand.put(p.name(), d);
      }
    }
    return demand;
  }
}
