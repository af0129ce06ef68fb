package org.rampa.domain.share;

import org.rampa.domain.Invalid;

/**
 * A hard NPU partition from a fixed template (Ascend vNPU style: 1, 2, 4 or 8 AI cores with their
 * memory). Cores, bandwidth and memory are carved out in proportion and isolated.
 */
public record TemplatePartition(String template) implements Placement {

  public TemplatePartition {
    Invalid.requireNonBlank("template", template);
  }

  @Override
  public double computeFraction(GpuPartitioning gpu) {
    return (double) gpu.template(template).cores() / gpu.requireCores();
  }

  @Override
  public double bandwidthFraction(GpuPartitioning gpu) {
    return computeFraction(gpu);
  }

  @Override
  public long memoryBytes(GpuPartitioning gpu) {
    return gpu.template(template).memoryBytes();
  }

  @Override
  public boolean isolated() {
    return true;
  }

  @Override
  public void requireOn(GpuPartitioning gpu) {
    gpu.template(template);
  }

  @Override
  public String label() {
    return "template " + template;
  }
}
