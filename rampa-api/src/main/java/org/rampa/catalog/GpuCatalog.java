package org.rampa.catalog;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Link;
import org.rampa.domain.share.GpuSharing;

/**
 * Real GPU types (NVIDIA T4 ... B200, AMD MI100 ... MI300X) from the project's GPU catalog, with
 * dense FP16/BF16 peaks, memory, bandwidth, scale-up links, MIG profiles, sources and confidence
 * notes (rows marked UNVERIFIED keep that mark in {@link Entry#confidenceNotes()}), and efficiency
 * factors calibrated on measurements ({@link Calibration}).
 */
public final class GpuCatalog {

  private static final double GB = 1e9;
  /** Vendor "GB" of device memory are binary (an "80 GB" A100 has 80 GiB). */
  private static final long GIB = 1L << 30;

  /** One catalog row. */
  public record Entry(
      GpuType type,
      String vendor,
      String architecture,
      Link intraNodeLink,
      OptionalDouble pricePerHourUsd,
      String sources,
      String confidenceNotes,
      Calibration.Basis calibration) {}

  private static final GpuCatalog STANDARD = load();

  private final Map<String, Entry> entries;

  private GpuCatalog(Map<String, Entry> entries) {
    this.entries = Collections.unmodifiableMap(entries);
  }

  public static GpuCatalog standard() {
    return STANDARD;
  }

  public Set<String> ids() {
    return entries.keySet();
  }

  public List<GpuType> types() {
    return entries.values().stream().map(Entry::type).toList();
  }

  public GpuType type(String id) {
    return entry(id).type();
  }

  public Entry entry(String id) {
    Entry e = entries.get(id);
    if (e == null) {
      throw Invalid.value("gpuType", id, "is not in the GPU catalog", "choose one of " + entries.keySet());
    }
    return e;
  }

  private static GpuCatalog load() {
    CsvTable t = CsvTable.resource("gpu-catalog.csv");
    Map<String, RawGpu> raw = new LinkedHashMap<>();
    for (int r = 0; r < t.size(); r++) {
      String id = t.get(r, "gpu_id");
      raw.put(id, new RawGpu(
          id,
          t.get(r, "architecture"),
          t.number(r, "fp16_bf16_dense_tensor_tflops") * 1e12,
          parseOps(t.get(r, "int8_dense_tops")),
          (long) (t.number(r, "memory_gb") * GIB),
          t.number(r, "memory_bw_gbps") * GB));
    }
    Calibration calibration = Calibration.fit(raw);
    Map<String, GpuSharing> sharing = SharingTables.byGpu(raw.keySet());
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (int r = 0; r < t.size(); r++) {
      String id = t.get(r, "gpu_id");
      RawGpu g = raw.get(id);
      Calibration.Result c = calibration.forGpu(g);
      GpuType type = GpuType.builder()
          .name(id)
          .peakFlopsPerSecond(g.denseFlops())
          .memoryBytes(g.memoryBytes())
          .memoryBandwidthBytesPerSecond(g.bandwidth())
          .computeEfficiency(c.computeEfficiency())
          .memoryEfficiency(c.memoryEfficiency())
          .layerOverhead(c.layerOverhead())
          .migProfiles(migProfiles(t.get(r, "mig_profiles")))
          .sharing(sharing.get(id))
          .build();
      String price = t.get(r, "price_usd_per_gpu_hour");
      entries.put(id, new Entry(
          type,
          t.get(r, "vendor"),
          g.architecture(),
          intraNodeLink(id, t.number(r, "scaleup_bw_gbps_bidir_per_gpu"), t.get(r, "host_pcie_gen")),
          price.matches("[0-9.]+") ? OptionalDouble.of(Double.parseDouble(price)) : OptionalDouble.empty(),
          t.get(r, "sources"),
          t.get(r, "confidence_notes"),
          c.basis()));
    }
    return new GpuCatalog(entries);
  }

  /** A raw catalog row before calibration. {@code int8Ops} is NaN when the catalog has none. */
  record RawGpu(String id, String architecture, double denseFlops, double int8Ops, long memoryBytes, double bandwidth) {
    /** "Ampere GA100" -> "Ampere": the generation, for calibration fallbacks. */
    String family() {
      return architecture.split("[ (]")[0].toLowerCase(Locale.ROOT);
    }
  }

  private static double parseOps(String tops) {
    return tops.isEmpty() ? Double.NaN : Double.parseDouble(tops) * 1e12;
  }

  private static List<String> migProfiles(String cell) {
    if (cell.isBlank()) {
      return List.of();
    }
    return java.util.Arrays.stream(cell.split(";"))
        .map(String::trim)
        .map(p -> p.replaceAll(" x\\d+$", ""))
        .filter(p -> p.matches("\\d+g\\.\\d+gb(\\+me)?"))
        .toList();
  }

  /**
   * The link between GPUs of one server: the scale-up fabric (NVLink, Infinity Fabric) at half its
   * bidirectional per-GPU bandwidth, else PCIe of the host generation. Latencies are typical
   * values (2 µs for a scale-up fabric, 5 µs through PCIe), not catalog measurements.
   */
  private static Link intraNodeLink(String id, double scaleUpBidirGbps, String pcie) {
    if (scaleUpBidirGbps > 0) {
      return Link.of(id + "-scale-up", scaleUpBidirGbps / 2 * GB, Duration.ofNanos(2_000));
    }
    double perDirection = pcie.startsWith("Gen5") ? 64 : pcie.startsWith("Gen4") ? 32 : 16;
    return Link.of(id + "-pcie", perDirection * GB, Duration.ofNanos(5_000));
  }
}
