package org.rampa.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.share.GpuSharing;
import org.rampa.domain.share.ImmutableGpuSharing;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;

/**
 * Reads the catalog's sharing tables: {@code mig-geometry.csv} (MIG profiles per geometry) and
 * {@code partitioning.csv} (per catalog GPU: its MIG geometry, MPS, CU count). {@link GpuCatalog}
 * attaches the result to its types; it holds no reference to any catalog, so either catalog may
 * be loaded first.
 */
final class SharingTables {

  private static final long MIB = 1L << 20;

  private static final Map<String, MigGeometry> GEOMETRIES = loadGeometries();

  private SharingTables() {}

  static Map<String, MigGeometry> geometries() {
    return GEOMETRIES;
  }

  /** The sharing {@code partitioning.csv} declares for each catalog GPU id; it must list exactly {@code ids}. */
  static Map<String, GpuSharing> byGpu(Set<String> ids) {
    Map<String, GpuSharing> out = new LinkedHashMap<>();
    CsvTable t = CsvTable.resource("partitioning.csv");
    for (int r = 0; r < t.size(); r++) {
      String geometry = t.get(r, "mig_geometry");
      String cus = t.get(r, "compute_units");
      ImmutableGpuSharing.Builder b = GpuSharing.builder()
          .mps(t.get(r, "mps").equals("yes"))
          .computeUnits(cus.isEmpty() ? 0 : Integer.parseInt(cus));
      if (!geometry.isEmpty()) {
        b.mig(GEOMETRIES.get(geometry));
      }
      out.put(t.get(r, "gpu_id"), b.build());
    }
    if (!out.keySet().equals(ids)) {
      throw new IllegalStateException("partitioning.csv must list exactly the GPU catalog's types; it lists " + out.keySet());
    }
    return out;
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
    return Collections.unmodifiableMap(out);
  }
}
