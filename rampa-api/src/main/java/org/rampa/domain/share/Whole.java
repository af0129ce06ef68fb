package org.rampa.domain.share;

/** The GPU alone: all its compute, bandwidth and memory. */
public record Whole() implements Placement {

  @Override
  public double computeFraction(GpuPartitioning gpu) {
    return 1;
  }

  @Override
  public double bandwidthFraction(GpuPartitioning gpu) {
    return 1;
  }

  @Override
  public long memoryBytes(GpuPartitioning gpu) {
    return gpu.memoryBytes();
  }

  @Override
  public boolean isolated() {
    return false;
  }

  @Override
  public void requireOn(GpuPartitioning gpu) {
    // every GPU can be held whole
  }

  @Override
  public String label() {
    return "whole";
  }
}
