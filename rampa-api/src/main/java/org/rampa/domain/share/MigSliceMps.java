package org.rampa.domain.share;

import org.rampa.domain.Invalid;

/**
 * {@code processes} MPS processes of one stage inside one MIG instance (ParvaGPU's "segment"), each
 * reserving {@code processMemoryBytes}. Compute, bandwidth and memory are the instance's; the
 * processes share it, and MIG isolates the instance from the rest of the card.
 */
public record MigSliceMps(String profile, int start, int processes, long processMemoryBytes) implements Placement {

  public MigSliceMps {
    Invalid.requireNonBlank("migMps.profile", profile);
    Invalid.requireNonNegative("migMps.start", start);
    if (processes < 1) {
      throw Invalid.value("migMps.processes", processes, "must be >= 1", "use 1 for a plain MIG slice");
    }
    Invalid.requireNonNegative("migMps.processMemoryBytes", processMemoryBytes);
  }

  /** The MIG instance these processes run in. */
  public MigSlice slice() {
    return new MigSlice(profile, start);
  }

  @Override
  public double computeFraction(GpuPartitioning gpu) {
    return slice().computeFraction(gpu);
  }

  @Override
  public double shareEquivalent(GpuPartitioning gpu) {
    return slice().shareEquivalent(gpu);
  }

  @Override
  public double bandwidthFraction(GpuPartitioning gpu) {
    return slice().bandwidthFraction(gpu);
  }

  @Override
  public long memoryBytes(GpuPartitioning gpu) {
    return slice().memoryBytes(gpu);
  }

  @Override
  public boolean isolated() {
    return true;
  }

  @Override
  public void requireOn(GpuPartitioning gpu) {
    slice().requireOn(gpu);
    if (!gpu.mps()) {
      throw Invalid.value("migMps", gpu.gpuType(), "this GPU type has no MPS");
    }
  }

  @Override
  public String label() {
    return profile + "@" + start + " x" + processes + " mps";
  }
}
