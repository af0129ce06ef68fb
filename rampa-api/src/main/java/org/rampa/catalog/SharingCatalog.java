package org.rampa.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.PartitionTemplate;

/**
 * How each catalog GPU type can be shared: its MIG geometry (real SM counts per profile, allowed
 * starts, sources and confidence from {@code mig-geometry.csv}), MPS, AMD CU counts
 * ({@code partitioning.csv}), and one modelled NPU type with hard templates ({@code npu-types.csv};
 * every number of it is modelled, not measured).
 */
public final class SharingCatalog {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private static final SharingCatalog STANDARD = load(GpuCatalog.standard());

  private final Map<String, MigGeometry> geometries;
  private final Map<String, GpuPartitioning> partitionings;
  private final Map<String, GpuType> npuTypes;

  private SharingCatalog(Map<String, MigGeometry> geometries, Map<String, GpuPartitioning> partitionings, Map<String, GpuType> npuTypes) {
    this.geometries = Collections.unmodifiableMap(geometries);
    this.partitionings = Collections.unmodifiableMap(partitionings);
    this.npuTypes = Collections.unmodifiableMap(npuTypes);
  }

  public static SharingCatalog standard() {
    return STANDARD;
  }

  /** Names of the MIG geometries ("A100-80GB", "H100-SXM5-80GB" ...). */
  public Set<String> geometryNames() {
    return geometries.keySet();
  }

  public MigGeometry geometry(String name) {
    MigGeometry g = geometries.get(name);
    if (g == null) {
      throw Invalid.value("migGeometry", name, "is not in the MIG geometry catalog", "choose one of " + geometries.keySet());
    }
    return g;
  }

  /** Every type with a partitioning: the GPU catalog's types and the modelled NPU types. */
  public Set<String> gpuTypes() {
    return partitionings.keySet();
  }

  public GpuPartitioning partitioning(String gpuType) {
    GpuPartitioning p = partitionings.get(gpuType);
    if (p == null) {
      throw Invalid.value("gpuType", gpuType, "is not in the GPU catalog", "choose one of " + partitionings.keySet());
    }
    return p;
  }

  /**
   * How {@code type} can be divided: its catalog partitioning when the catalog has a type of that
   * name and memory, else whole use only (a type defined in a document, or a catalog name with
   * other memory, has no geometry RAMPA could trust).
   */
  public GpuPartitioning partitioningFor(GpuType type) {
    GpuPartitioning p = partitionings.get(type.name());
    return p != null && p.memoryBytes() == type.memoryBytes() ? p : GpuPartitioning.wholeOnly(type.name(), type.memoryBytes());
  }

  /** The modelled NPU types (not in {@link GpuCatalog}: nothing about them is measured). */
  public List<GpuType> npuTypes() {
    return List.copyOf(npuTypes.values());
  }

  private static SharingCatalog load(GpuCatalog gpus) {
    Map<String, MigGeometry> geometries = loadGeometries();
    Map<String, GpuPartitioning> partitionings = new LinkedHashMap<>();
    CsvTable t = CsvTable.resource("partitioning.csv");
    for (int r = 0; r < t.size(); r++) {
      String id = t.get(r, "gpu_id");
      GpuType type = gpus.type(id);
      String geometry = t.get(r, "mig_geometry");
      boolean mps = t.get(r, "mps").equals("yes");
      String cus = t.get(r, "compute_units");
      partitionings.put(id, new GpuPartitioning(
          id,
          type.memoryBytes(),
          geometry.isEmpty() ? Optional.empty() : Optional.of(geometries.get(geometry)),
          mps,
          cus.isEmpty() ? 0 : Integer.parseInt(cus),
          0,
          List.of(),
          mps ? GpuPartitioning.MPS_CLIENTS_PER_GPU : 0,
          mps ? GpuPartitioning.DEFAULT_MPS_PROCESS_OVERHEAD_BYTES : 0));
    }
    if (!partitionings.keySet().equals(gpus.ids())) {
      throw new IllegalStateException("partitioning.csv must list exactly the GPU catalog's types; it lists " + partitionings.keySet());
    }
    Map<String, GpuType> npus = new LinkedHashMap<>();
    CsvTable n = CsvTable.resource("npu-types.csv");
    for (int r = 0; r < n.size(); r++) {
      String id = n.get(r, "gpu_id");
      long memory = (long) (n.number(r, "memory_gb") * GIB);
      npus.put(id, GpuType.builder()
          .name(id)
          .peakFlopsPerSecond(n.number(r, "fp16_dense_tflops") * 1e12)
          .memoryBytes(memory)
          .memoryBandwidthBytesPerSecond(n.number(r, "memory_bw_gbps") * 1e9)
          .build());
      List<PartitionTemplate> templates = new ArrayList<>();
      for (String cell : n.get(r, "templates").split(";")) {
        String[] f = cell.split(":");
        templates.add(new PartitionTemplate(f[0], Integer.parseInt(f[1]), (long) (Double.parseDouble(f[2]) * GIB)));
      }
      partitionings.put(id, new GpuPartitioning(id, memory, Optional.empty(), false, 0, (int) n.number(r, "cores"), templates, 0, 0));
    }
    return new SharingCatalog(geometries, partitionings, npus);
  }

  private static Map<String, MigGeometry> loadGeometries() {
    CsvTable t = CsvTable.resource("mig-geometry.csv");
    Map<String, List<MigProfile>> profiles = new LinkedHashMap<>();
    Map<String, Integer> sms = new LinkedHashMap<>();
    for (int r = 0; r < t.size(); r++) {
      String gpu = t.get(r, "gpu");
      sms.put(gpu, (int) t.number(r, "gpu_sm_total"));
      profiles.computeIfAbsent(gpu, k -> new ArrayList<>()).add(new MigProfile(
          t.get(r, "profile"),
          (int) t.number(r, "compute_slices"),
          (int) t.number(r, "memory_slices"),
          (int) t.number(r, "sm_count"),
          (long) t.number(r, "memory_mib_approx") * MIB,
          Arrays.stream(t.get(r, "allowed_start_memory_slices").split("\\|")).map(Integer::valueOf).toList(),
          (int) t.number(r, "max_instances"),
          t.get(r, "confidence"),
          t.get(r, "source")));
    }
    Map<String, MigGeometry> out = new LinkedHashMap<>();
    // A100, H100 and H200 all divide memory into 8 slices (NVIDIA MIG user guide)
    profiles.forEach((gpu, list) -> out.put(gpu, new MigGeometry(gpu, sms.get(gpu), 8, list)));
    return out;
  }
}
