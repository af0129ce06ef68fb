package org.rampa.colocation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Invalid;

/**
 * Per used GPU its configuration, and the demand scale the plan claims to serve (every service's
 * rate times {@code scale}; 1 for the fewest-GPUs objective, 0 when a weighted-throughput plan
 * claims no scale).
 */
public record ColocationPlan(List<GpuConfiguration> gpus, double scale) {

  public ColocationPlan {
    gpus = Invalid.listOf("plan.gpus", gpus);
    Invalid.requireFiniteNonNegative("plan.scale", scale);
  }

  public int gpuCount() {
    return gpus.size();
  }

  /** GPUs used per type, in first-use order. */
  public Map<String, Integer> gpusByType() {
    Map<String, Integer> out = new LinkedHashMap<>();
    gpus.forEach(g -> out.merge(g.gpuType(), 1, Integer::sum));
    return out;
  }
}
