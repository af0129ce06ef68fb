package org.rampa.perf;

import org.rampa.domain.GpuType;
import org.rampa.domain.Layer;

/**
 * The roofline terms of one layer at one batch size on a whole GPU: the time its FLOPs take at the
 * type's effective compute rate, the time its DRAM traffic takes at the effective bandwidth, and
 * that traffic in bytes. {@link PerformanceModel#layerSeconds} takes the larger term plus the
 * type's overhead; the share-time and interference models scale the two terms separately.
 */
public record Roofline(double computeSeconds, double memorySeconds, double dramBytes) {

  /** The terms of {@code layer} at {@code batch} on one whole GPU of {@code type}. */
  public static Roofline of(Layer layer, GpuType type, int batch) {
    double bytes = dramBytes(layer, batch);
    return new Roofline(batch * layer.flopsPerSample() / type.effectiveFlopsPerSecond(), bytes / type.effectiveBandwidthBytesPerSecond(), bytes);
  }

  /** Bytes one batch moves to and from DRAM in {@code layer}: weights plus per-sample output and state. */
  public static double dramBytes(Layer layer, int batch) {
    return layer.weightBytes() + (double) batch * (layer.outputBytesPerSample() + layer.stateBytesPerSample());
  }

  /** The bound term: the larger of compute and memory time. */
  public double boundSeconds() {
    return Math.max(computeSeconds, memorySeconds);
  }

  /** True when the memory term bounds the layer. */
  public boolean memoryBound() {
    return memorySeconds >= computeSeconds;
  }
}
