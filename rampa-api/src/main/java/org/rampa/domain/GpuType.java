package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.List;
import org.immutables.value.Value;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.GpuSharing;

/**
 * A GPU model (T4, A100-SXM4-80GB, MI300X ...) with the numbers the performance model needs.
 *
 * <p>Peaks are dense FP16/BF16 tensor rates (NVIDIA's headline figures assume 2:4 sparsity and are
 * twice as high). The efficiency factors say which fraction of the peak compute and memory
 * bandwidth real inference kernels reach; the catalog calibrates them on MLPerf results.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableGpuType.class)
@JsonDeserialize(as = ImmutableGpuType.class)
public abstract class GpuType {

  public abstract String name();

  /** Dense FP16/BF16 tensor peak, in FLOP per second. */
  public abstract double peakFlopsPerSecond();

  public abstract long memoryBytes();

  public abstract double memoryBandwidthBytesPerSecond();

  /** Fraction of {@link #peakFlopsPerSecond()} reached by real kernels, in (0, 1]. */
  @Value.Default
  public double computeEfficiency() {
    return 0.4;
  }

  /** Fraction of {@link #memoryBandwidthBytesPerSecond()} reached by real kernels, in (0, 1]. */
  @Value.Default
  public double memoryEfficiency() {
    return 0.7;
  }

  /** Fixed cost per layer (kernel launches, synchronisation), added to every layer's time. */
  @Value.Default
  public Duration layerOverhead() {
    return Duration.ZERO;
  }

  /** MIG profile names this type supports (empty when it has no MIG). */
  public abstract List<String> migProfiles();

  /**
   * How this type can be divided (MIG, MPS, CU masks, NPU templates), as declared in code or JSON
   * ({@code "sharing"}); whole use only when not declared. The catalog's types carry the catalog's
   * sharing ({@code partitioning.csv}, {@code mig-geometry.csv}).
   */
  @Value.Default
  public GpuSharing sharing() {
    return GpuSharing.none();
  }

  /** {@link #sharing()} on this type's memory: what the ledger, the menus and the verifier divide. */
  @Value.Lazy
  public GpuPartitioning partitioning() {
    return sharing().on(name(), memoryBytes());
  }

  public final double effectiveFlopsPerSecond() {
    return computeEfficiency() * peakFlopsPerSecond();
  }

  public final double effectiveBandwidthBytesPerSecond() {
    return memoryEfficiency() * memoryBandwidthBytesPerSecond();
  }

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("gpuType.name", name());
    String p = "gpuType[" + name() + "].";
    Invalid.requireFinitePositive(p + "peakFlopsPerSecond", peakFlopsPerSecond());
    if (memoryBytes() <= 0) {
      throw Invalid.value(p + "memoryBytes", memoryBytes(), "must be > 0");
    }
    Invalid.requireFinitePositive(p + "memoryBandwidthBytesPerSecond", memoryBandwidthBytesPerSecond());
    requireFraction(p + "computeEfficiency", computeEfficiency());
    requireFraction(p + "memoryEfficiency", memoryEfficiency());
    Invalid.requireStepTime(p + "layerOverhead", layerOverhead());
    // MIG profiles and templates must fit the card: checked here, where both are known
    partitioning();
  }

  private static void requireFraction(String field, double value) {
    if (!(value > 0 && value <= 1)) {
      throw Invalid.value(field, value, "must lie in (0, 1]", "you passed a percentage instead of a fraction");
    }
  }

  public static ImmutableGpuType.Builder builder() {
    return ImmutableGpuType.builder();
  }
}
