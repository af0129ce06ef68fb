package org.rampa.colocation;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * What one GPU of {@code gpuType} runs: its segments (one whole, a set of MPS shares, a MIG layout,
 * or several segments time-sharing the whole GPU or one MIG instance).
 */
public record GpuConfiguration(String gpuType, List<Segment> segments) {

  public GpuConfiguration {
    Invalid.requireNonBlank("configuration.gpuType", gpuType);
    segments = Invalid.listOf("gpu.segments", segments);
    if (segments.isEmpty()) {
      throw Invalid.value("configuration[" + gpuType + "].segments", segments, "must not be empty", "leave an unused GPU out of the plan");
    }
  }

  /**
   * True when several segments share one part of this GPU in time (no spatial share): they all sit
   * on the same whole GPU or the same MIG instance (one process each) and run one after another in
   * a round-robin round, each batch alone on the part at full speed. A segment then completes one
   * batch per round, so its throughput is batch / round and its latency is judged on the round (a
   * request may wait for the other tenants' turns), see {@link ColocationPerformance}. A service
   * appearing k times runs k batches per round.
   */
  public boolean timeShared() {
    if (segments.size() < 2) {
      return false;
    }
    Placement first = segments.get(0).placement();
    return (first instanceof Whole || first instanceof MigSlice) && segments.stream().allMatch(s -> s.placement().equals(first));
  }
}
