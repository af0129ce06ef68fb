package org.rampa.colocation;

import java.util.List;
import org.rampa.domain.Invalid;

/** What one GPU of {@code gpuType} runs: its segments (one whole, a set of MPS shares, or a MIG layout). */
public record GpuConfiguration(String gpuType, List<Segment> segments) {

  public GpuConfiguration {
    Invalid.requireNonBlank("configuration.gpuType", gpuType);
    segments = List.copyOf(segments);
    if (segments.isEmpty()) {
      throw Invalid.value("configuration[" + gpuType + "].segments", segments, "must not be empty", "leave an unused GPU out of the plan");
    }
  }
}
