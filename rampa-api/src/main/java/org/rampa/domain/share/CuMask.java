package org.rampa.domain.share;

import org.rampa.domain.Invalid;

/**
 * AMD CU masking per stream (MI100/MI200): {@code computeUnits} of the card's CUs and a memory
 * reservation. Like MPS, memory is not isolated and the bus is shared.
 */
public record CuMask(int computeUnits, long memoryBytes) implements Placement {

  public CuMask {
    if (computeUnits < 1) {
      throw Invalid.value("cuMask.computeUnits", computeUnits, "must be >= 1");
    }
    Invalid.requireNonNegative("cuMask.memoryBytes", memoryBytes);
  }

  @Override
  public double computeFraction(GpuPartitioning gpu) {
    return (double) computeUnits / gpu.requireComputeUnits();
  }

  @Override
  public double bandwidthFraction(GpuPartitioning gpu) {
    return 1;
  }

  @Override
  public long memoryBytes(GpuPartitioning gpu) {
    return memoryBytes;
  }

  @Override
  public boolean isolated() {
    return false;
  }

  @Override
  public void requireOn(GpuPartitioning gpu) {
    int card = gpu.requireComputeUnits();
    if (computeUnits > card) {
      throw Invalid.value("cuMask.computeUnits", computeUnits, "exceeds the " + card + " CUs of " + gpu.gpuType());
    }
    if (memoryBytes > gpu.memoryBytes()) {
      throw Invalid.value("cuMask.memoryBytes", memoryBytes, "exceeds the card's " + gpu.memoryBytes() + " bytes on " + gpu.gpuType());
    }
  }

  @Override
  public String label() {
    return "cu-mask " + computeUnits;
  }
}
