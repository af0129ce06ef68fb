package org.rampa.colocation;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.Whole;

/**
 * What one GPU of {@code gpuType} runs: its segments (one whole, a set of MPS shares, a MIG layout,
 * or several whole segments time-sharing the GPU).
 */
public record GpuConfiguration(String gpuType, List<Segment> segments) {

  public GpuConfiguration {
    Invalid.requireNonBlank("configuration.gpuType", gpuType);
    segments = List.copyOf(segments);
    if (segments.isEmpty()) {
      throw Invalid.value("configuration[" + gpuType + "].segments", segments, "must not be empty", "leave an unused GPU out of the plan");
    }
  }

  /**
   * True when several whole segments share this GPU in time (no spatial share): they run one after
   * another in a round-robin round, each batch alone on the whole GPU at full speed. A segment then
   * completes one batch per round, so its throughput is batch / round and its latency is judged on
   * the round (a request may wait for the other tenants' turns), see {@link ColocationPerformance}.
   * A service appearing k times runs k batches per round.
   */
  public boolean timeShared() {
    return segments.size() > 1 && segments.stream().allMatch(s -> s.placement() instanceof Whole);
  }
}
