package org.rampa.heuristics.strategy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.GpuType;
import org.rampa.perf.StageCursor;

/**
 * Human-readable reasons why no plan exists, from necessary conditions a person can act on: no
 * free GPU, a layer larger than every free GPU, a model larger than the K_max largest free GPUs, a
 * latency bound below what the fastest free GPUs can do. When none of them applies, the reason
 * says what the search tried and the last rejection it saw.
 */
final class Infeasibility {
  private Infeasibility() {}

  private static final double GB = 1e9;

  /** A necessary condition that fails, or empty when all hold. */
  static String obviousReason(PlacementContext c) {
    if (c.free.isEmpty()) {
      return "no GPU of the cluster is completely free";
    }
    long largestFree = 0;
    String largestType = "";
    Map<String, GpuType> types = new LinkedHashMap<>();
    for (FreeGpu g : c.free) {
      types.putIfAbsent(g.typeName(), g.type());
      if (g.type().memoryBytes() > largestFree) {
        largestFree = g.type().memoryBytes();
        largestType = g.typeName();
      }
    }
    for (int l = 0; l < c.model.size(); l++) {
      long need = c.layerMemory(l);
      if (need > largestFree) {
        return String.format("layer %d (%s) alone needs %.2f GB in one stage, the largest free GPU (%s) has %.2f GB",
            l, c.model.layer(l).name(), need / GB, largestType, largestFree / GB);
      }
    }
    long topK = c.free.stream().mapToLong(g -> g.type().memoryBytes()).boxed()
        .sorted((a, b) -> Long.compare(b, a)).limit(c.request.maxStages()).mapToLong(Long::longValue).sum();
    if (totalWeights(c) > topK) {
      return String.format("the model needs %.2f GB of weights and state in at most %d stages, the %d largest free GPUs hold %.2f GB",
          totalWeights(c) / GB, c.request.maxStages(), c.request.maxStages(), topK / GB);
    }
    double fastest = 0;
    for (int l = 0; l < c.model.size(); l++) {
      double best = Double.POSITIVE_INFINITY;
      for (GpuType t : types.values()) {
        best = Math.min(best, c.layerSeconds(t)[l]);
      }
      fastest += best;
    }
    double latency = fastest + c.request.slo().batchingWaitSeconds();
    if (latency > c.request.slo().latencyBoundSeconds()) {
      return String.format("even on the fastest free GPU type for every layer the model takes %.4g s per batch, above the latency bound %.4g s",
          latency, c.request.slo().latencyBoundSeconds());
    }
    return "";
  }

  private static long totalWeights(PlacementContext c) {
    StageCursor whole = c.performance.cursor(c.model, c.batch, 0, List.of());
    while (whole.canAdd()) {
      whole.add();
    }
    return whole.additiveMemoryBytes();
  }

  /** The reason for an INFEASIBLE result after a search that found nothing. */
  static String afterSearch(PlacementContext c, String searched) {
    String obvious = obviousReason(c);
    if (!obvious.isEmpty()) {
      return obvious;
    }
    String last = c.lastRejection().isEmpty() ? "" : "; last candidate rejected because " + c.lastRejection();
    return String.format("no placement found meeting %.4g req/s within %.4g s (%s, %d candidates tried%s)",
        c.request.slo().requiredThroughput(), c.request.slo().latencyBoundSeconds(), searched, c.candidatesEvaluated(), last);
  }
}
