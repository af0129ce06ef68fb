package org.rampa.domain.share;

import org.rampa.domain.Invalid;

/**
 * An NVIDIA MPS share (active-thread percentage, static SM partition or green context): a fraction
 * of the SMs and a memory reservation. MPS does not isolate memory: the reservation is what the
 * user must enforce (MPS pinned-memory limit, HAMi, a cgroup), and the bus is shared.
 */
public record MpsShare(double fraction, long memoryBytes) implements Placement {

  public MpsShare {
    if (!(fraction > 0 && fraction <= 1)) {
      throw Invalid.value("mps.fraction", fraction, "must lie in (0, 1]", "you passed a percentage instead of a fraction");
    }
    Invalid.requireNonNegative("mps.memoryBytes", memoryBytes);
  }

  @Override
  public double computeFraction(GpuPartitioning gpu) {
    return fraction;
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
    if (!gpu.mps()) {
      throw Invalid.value("mps", gpu.gpuType(), "this GPU type has no MPS", "use a CU mask on AMD or a template on an NPU");
    }
    if (memoryBytes > gpu.memoryBytes()) {
      throw Invalid.value("mps.memoryBytes", memoryBytes, "exceeds the card's " + gpu.memoryBytes() + " bytes on " + gpu.gpuType());
    }
  }

  @Override
  public String label() {
    return "mps " + fraction;
  }
}
