package org.rampa.domain.share;

import java.util.List;
import java.util.Optional;
import org.rampa.domain.Invalid;

/**
 * How a GPU type can be divided: its memory, its MIG geometry (if any), whether it runs MPS, its CU
 * count for CU masking (AMD; 0 when not offered), its NPU cores and partition templates (0 and
 * none when not an NPU), and the MPS limits: clients per GPU and the context memory each process
 * costs (docs/SHARING.md section 1: about 0.5 GiB, an assumption).
 */
public record GpuPartitioning(
    String gpuType,
    long memoryBytes,
    Optional<MigGeometry> mig,
    boolean mps,
    int computeUnits,
    int npuCores,
    List<PartitionTemplate> templates,
    int mpsClientLimit,
    long mpsProcessOverheadBytes) {

  /** NVIDIA's limit of MPS clients per GPU since Volta. */
  public static final int MPS_CLIENTS_PER_GPU = 48;

  /** Context memory per MPS process: an assumption (docs/SHARING.md section 1), not a measurement. */
  public static final long DEFAULT_MPS_PROCESS_OVERHEAD_BYTES = 512L << 20;

  public GpuPartitioning {
    Invalid.requireNonBlank("partitioning.gpuType", gpuType);
    String p = "partitioning[" + gpuType + "].";
    if (memoryBytes <= 0) {
      throw Invalid.value(p + "memoryBytes", memoryBytes, "must be > 0");
    }
    Invalid.requireNonNegative(p + "computeUnits", computeUnits);
    Invalid.requireNonNegative(p + "npuCores", npuCores);
    templates = Invalid.listOf(p + "templates", templates);
    for (PartitionTemplate t : templates) {
      if (t.cores() > npuCores) {
        throw Invalid.value(p + "templates[" + t.name() + "].cores", t.cores(), "exceeds the card's " + npuCores + " cores");
      }
      if (t.memoryBytes() > memoryBytes) {
        throw Invalid.value(p + "templates[" + t.name() + "].memoryBytes", t.memoryBytes(), "exceeds the card's " + memoryBytes + " bytes");
      }
    }
    Invalid.requireNonNegative(p + "mpsClientLimit", mpsClientLimit);
    Invalid.requireNonNegative(p + "mpsProcessOverheadBytes", mpsProcessOverheadBytes);
    for (MigProfile m : mig.map(MigGeometry::profiles).orElse(List.of())) {
      if (m.memoryBytes() > memoryBytes) {
        throw Invalid.value(p + "mig.profiles[" + m.name() + "].memoryBytes", m.memoryBytes(), "exceeds the card's " + memoryBytes + " bytes");
      }
    }
  }

  /** A GPU type that can only be held whole. */
  public static GpuPartitioning wholeOnly(String gpuType, long memoryBytes) {
    return new GpuPartitioning(gpuType, memoryBytes, Optional.empty(), false, 0, 0, List.of(), 0, 0);
  }

  public MigGeometry requireMig() {
    return mig.orElseThrow(() -> Invalid.value("mig", gpuType, "this GPU type has no MIG geometry",
        "use an MPS share, or a MIG-capable type (A100, H100, H200)"));
  }

  public int requireComputeUnits() {
    if (computeUnits == 0) {
      throw Invalid.value("cuMask", gpuType, "this GPU type offers no CU masking", "use an AMD MI100, MI210 or MI250X");
    }
    return computeUnits;
  }

  public int requireCores() {
    if (npuCores == 0) {
      throw Invalid.value("template", gpuType, "this type has no partition templates");
    }
    return npuCores;
  }

  public PartitionTemplate template(String name) {
    for (PartitionTemplate t : templates) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    requireCores();
    throw Invalid.value("template", name, "is not a partition template of " + gpuType,
        "choose one of " + templates.stream().map(PartitionTemplate::name).toList());
  }

  /**
   * How many more MPS clients of compute share {@code level} fit beside {@code clients} running ones
   * in {@code freeShare} of the compute: ⌊free / level⌋ within the client limit. One rule for the share
   * cost's stranded capacity and the defragmenter's room; the tolerance is there because thirds do
   * not sum to 1 exactly.
   */
  public int mpsCopiesFitting(double freeShare, int clients, double level) {
    return Math.min((int) Math.floor(freeShare / level + 1e-9), Math.max(0, mpsClientLimit - clients));
  }
}
