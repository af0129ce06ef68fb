package org.rampa.colocation;

import org.rampa.domain.Invalid;

/**
 * Which stage of a pipelined service a segment runs: stage {@code stage} of the service's partition
 * number {@code partition} (an index into {@link ColocationService#partitions()}).
 */
public record PipelineStage(int partition, int stage) {

  public PipelineStage {
    if (partition < 0) {
      throw Invalid.value("segment.stage.partition", partition, "must be >= 0");
    }
    if (stage < 0) {
      throw Invalid.value("segment.stage.stage", stage, "must be >= 0");
    }
  }
}
