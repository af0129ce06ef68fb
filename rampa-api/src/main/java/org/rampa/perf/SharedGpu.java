package org.rampa.perf;

import java.util.Objects;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * A part of one GPU of {@code type} (an MPS share, a MIG slice, a CU mask, a partition template),
 * whose partitioning is {@code gpu}. Stage times on it come from the share-time tiers (docs/SHARING.md
 * section 2), never from the whole-GPU time divided by a share.
 */
public record SharedGpu(GpuType type, GpuPartitioning gpu, Placement placement) implements DeviceKind {

  public SharedGpu {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(placement, "placement");
    if (placement instanceof Whole) {
      throw new IllegalArgumentException("a whole GPU is a WholeGpu, so that its time stays the whole-GPU model's");
    }
    if (!gpu.gpuType().equals(type.name())) {
      throw new IllegalArgumentException("partitioning of " + gpu.gpuType() + " given for type " + type.name());
    }
    placement.requireOn(gpu);
  }

  @Override
  public long memoryBytes() {
    return placement.memoryBytes(gpu);
  }

  @Override
  public String name() {
    return type.name() + " " + placement.label();
  }
}
