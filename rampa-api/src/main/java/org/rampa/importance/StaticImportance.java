package org.rampa.importance;

import java.util.HashMap;
import java.util.Map;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Invalid;

/** User-given weights per GPU type, optionally overridden per GPU; 1 for anything not named. */
public final class StaticImportance implements ImportanceModel {

  private final Map<String, Double> byType;
  private final Map<String, Double> byGpu;

  private StaticImportance(Map<String, Double> byType, Map<String, Double> byGpu) {
    byType.forEach((k, w) -> Invalid.requireFiniteNonNegative("importance.byType[" + k + "]", w));
    byGpu.forEach((k, w) -> Invalid.requireFiniteNonNegative("importance.byGpu[" + k + "]", w));
    this.byType = Map.copyOf(byType);
    this.byGpu = Map.copyOf(byGpu);
  }

  /** Every GPU costs 1: the plan of fewest (whole) GPUs is the cheapest. */
  public static StaticImportance uniform() {
    return new StaticImportance(Map.of(), Map.of());
  }

  public static StaticImportance byType(Map<String, Double> weights) {
    return new StaticImportance(weights, Map.of());
  }

  /** These weights with some GPUs' weights overridden. */
  public StaticImportance withGpuWeights(Map<String, Double> weights) {
    Map<String, Double> merged = new HashMap<>(byGpu);
    merged.putAll(weights);
    return new StaticImportance(byType, merged);
  }

  @Override
  public String name() {
    return "static";
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    return gpu -> {
      Double w = byGpu.get(gpu);
      return w != null ? w : byType.getOrDefault(state.cluster().gpu(gpu).type(), 1.0);
    };
  }
}
