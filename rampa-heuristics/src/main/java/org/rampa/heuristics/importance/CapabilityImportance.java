package org.rampa.heuristics.importance;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;

/**
 * cost(g) = ½ · memory(type) / max memory + ½ · effective FLOP/s(type) / max effective FLOP/s,
 * maxima over the cluster's GPU types; dimensionless, in (0, 1], 1 only for a type that is both
 * the largest and the fastest. State-independent.
 */
final class CapabilityImportance implements ImportanceModel {

  @Override
  public String name() {
    return "capability";
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    Map<String, Double> byType = byType(state.cluster());
    Cluster cluster = state.cluster();
    return new GpuCosts() {
      @Override
      public double of(String gpu) {
        return byType.get(cluster.gpu(gpu).type());
      }

      @Override
      public double ofGpu(Gpu gpu) {
        return byType.get(gpu.type());
      }

      @Override
      public OptionalDouble ofType(String type) {
        return OptionalDouble.of(byType.get(type));
      }
    };
  }

  static Map<String, Double> byType(Cluster cluster) {
    double maxMemory = 0;
    double maxFlops = 0;
    for (GpuType t : cluster.gpuTypes()) {
      maxMemory = Math.max(maxMemory, t.memoryBytes());
      maxFlops = Math.max(maxFlops, t.effectiveFlopsPerSecond());
    }
    Map<String, Double> costs = new HashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      costs.put(t.name(), 0.5 * t.memoryBytes() / maxMemory + 0.5 * t.effectiveFlopsPerSecond() / maxFlops);
    }
    return costs;
  }
}
