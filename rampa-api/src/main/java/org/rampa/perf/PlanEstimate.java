package org.rampa.perf;

import java.util.List;

/**
 * What the performance model predicts for a placement. Times are in seconds, memory in bytes,
 * throughput in requests per second.
 *
 * @param stageComputeSeconds T_k: one batch through one replica of stage k
 * @param stageLoadSeconds the time stage k is busy per batch, replicas and transfer mode applied
 * @param transferSeconds τ_k: shipping one batch from stage k to stage k+1 (size = stages - 1)
 * @param stageMemoryBytes memory stage k needs on each of its GPUs
 */
public record PlanEstimate(
    List<Double> stageComputeSeconds,
    List<Double> stageLoadSeconds,
    List<Double> transferSeconds,
    List<Long> stageMemoryBytes,
    double periodSeconds,
    double throughput,
    double latencySeconds) {

  public PlanEstimate {
    stageComputeSeconds = List.copyOf(stageComputeSeconds);
    stageLoadSeconds = List.copyOf(stageLoadSeconds);
    transferSeconds = List.copyOf(transferSeconds);
    stageMemoryBytes = List.copyOf(stageMemoryBytes);
  }
}
