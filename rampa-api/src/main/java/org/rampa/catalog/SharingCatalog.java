package org.rampa.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.GpuSharing;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.PartitionTemplate;

/**
 * How each catalog GPU type can be shared: its MIG geometry (real SM counts per profile, allowed
 * starts, sources and confidence from {@code mig-geometry.csv}), MPS, AMD CU counts
 * ({@code partitioning.csv}), and one modelled NPU type with hard templates ({@code npu-types.csv};
 * every number of it is modelled, not measured). Every catalog type carries its sharing itself
 * ({@link GpuType#sharing()}); this class indexes them by name for tools that browse the catalog.
 * Nothing in the library looks a type's sharing up here: a type from anywhere else is shared as
 * it declares.
 */
public final class SharingCatalog {

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

  /** The partitioning of the catalog type named {@code gpuType} (its {@link GpuType#partitioning()}). */
  public GpuPartitioning partitioning(String gpuType) {
    GpuPartitioning p = partitionings.get(gpuType);
    if (p == null) {
      throw Invalid.value("gpuType", gpuType, "is not in the GPU catalog", "choose one of " + partitionings.keySet());
    }
    return p;
  }

  /** The modelled NPU types (not in {@link GpuCatalog}: nothing about them is measured). */
  public List<GpuType> npuTypes() {
    return List.copyOf(npuTypes.values());
  }

  private static SharingCatalog load(GpuCatalog gpus) {
    Map<String, GpuPartitioning> partitionings = new LinkedHashMap<>();
    gpus.ids().forEach(id -> partitionings.put(id, gpus.type(id).partitioning()));
    Map<String, GpuType> npus = new LinkedHashMap<>();
    CsvTable n = CsvTable.resource("npu-types.csv");
    for (int r = 0; r < n.size(); r++) {
      String id = n.get(r, "gpu_id");
      List<PartitionTemplate> templates = new ArrayList<>();
      for (String cell : n.get(r, "templates").split(";")) {
        String[] f = cell.split(":");
        templates.add(new PartitionTemplate(f[0], Integer.parseInt(f[1]), (long) (Double.parseDouble(f[2]) * GIB)));
      }
      GpuType npu = GpuType.builder()
          .name(id)
          .peakFlopsPerSecond(n.number(r, "fp16_dense_tflops") * 1e12)
          .memoryBytes((long) (n.number(r, "memory_gb") * GIB))
          .memoryBandwidthBytesPerSecond(n.number(r, "memory_bw_gbps") * 1e9)
          .sharing(GpuSharing.builder().npuCores((int) n.number(r, "cores")).templates(templates).build())
          .build();
      npus.put(id, npu);
      partitionings.put(id, npu.partitioning());
    }
    return new SharingCatalog(SharingTables.geometries(), partitionings, npus);
  }
}
