package org.rampa.colocation;

import java.util.Objects;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;

/** {@code count} GPUs of one type in the cluster (e.g. 250 nodes × 4 = 1000), with how the type can be shared. */
public record GpuPool(GpuType type, GpuPartitioning partitioning, int count) {

  public GpuPool {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(partitioning, "partitioning");
    if (!partitioning.gpuType().equals(type.name())) {
      throw Invalid.value("pool.partitioning", partitioning.gpuType(), "is the partitioning of another type than " + type.name());
    }
    if (count < 0) {
      throw Invalid.value("pool[" + type.name() + "].count", count, "must be >= 0");
    }
  }
}
