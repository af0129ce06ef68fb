package org.rampa.domain.share;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;
import org.rampa.domain.Invalid;
import org.rampa.domain.ValueStyle;

/**
 * What a GPU type declares about how it can be divided: a MIG geometry, MPS, a CU count for CU
 * masking (AMD), NPU cores with hard partition templates, and the MPS limits. Carried by the type
 * ({@link org.rampa.domain.GpuType#sharing()}), so a type made in code or read from JSON is shared
 * exactly as it says; nothing is looked up by name. Absent fields mean "not offered"; the MPS
 * limits default to NVIDIA's 48 clients and a 512 MiB context per process when {@link #mps()} is on.
 */
@Value.Immutable
@ValueStyle
@JsonSerialize(as = ImmutableGpuSharing.class)
@JsonDeserialize(as = ImmutableGpuSharing.class)
public abstract class GpuSharing {

  private static final GpuSharing NONE = ImmutableGpuSharing.builder().build();

  /** Whole use only: no MIG, no MPS, no CU masks, no templates. */
  public static GpuSharing none() {
    return NONE;
  }

  public static ImmutableGpuSharing.Builder builder() {
    return ImmutableGpuSharing.builder();
  }

  public abstract Optional<MigGeometry> mig();

  @Value.Default
  public boolean mps() {
    return false;
  }

  /** CU count for CU masking; 0 when not offered. */
  @Value.Default
  public int computeUnits() {
    return 0;
  }

  /** NPU cores the templates divide; 0 when not an NPU. */
  @Value.Default
  public int npuCores() {
    return 0;
  }

  public abstract List<PartitionTemplate> templates();

  @Value.Default
  public int mpsClientLimit() {
    return mps() ? GpuPartitioning.MPS_CLIENTS_PER_GPU : 0;
  }

  @Value.Default
  public long mpsProcessOverheadBytes() {
    return mps() ? GpuPartitioning.DEFAULT_MPS_PROCESS_OVERHEAD_BYTES : 0;
  }

  /** The partitioning of a card of {@code memoryBytes} named {@code gpuType} that shares as declared here. */
  public final GpuPartitioning on(String gpuType, long memoryBytes) {
    return new GpuPartitioning(gpuType, memoryBytes, mig(), mps(), computeUnits(), npuCores(), templates(), mpsClientLimit(), mpsProcessOverheadBytes());
  }

  @Value.Check
  protected void check() {
    Invalid.requireNonNegative("sharing.computeUnits", computeUnits());
    Invalid.requireNonNegative("sharing.npuCores", npuCores());
    if (!mps() && mpsClientLimit() != 0) {
      throw Invalid.value("sharing.mpsClientLimit", mpsClientLimit(), "must be 0 when mps is false", "set \"mps\": true to offer MPS shares");
    }
    if (!mps() && mpsProcessOverheadBytes() != 0) {
      throw Invalid.value("sharing.mpsProcessOverheadBytes", mpsProcessOverheadBytes(), "must be 0 when mps is false", "set \"mps\": true to offer MPS shares");
    }
    if (mps() && mpsClientLimit() < 1) {
      throw Invalid.value("sharing.mpsClientLimit", mpsClientLimit(), "must be >= 1 when mps is true", "leave it out for NVIDIA's " + GpuPartitioning.MPS_CLIENTS_PER_GPU);
    }
    Invalid.requireNonNegative("sharing.mpsProcessOverheadBytes", mpsProcessOverheadBytes());
    if (!templates().isEmpty() && npuCores() == 0) {
      throw Invalid.value("sharing.npuCores", npuCores(), "must be >= 1 when templates are declared", "give the NPU's core count");
    }
  }
}
