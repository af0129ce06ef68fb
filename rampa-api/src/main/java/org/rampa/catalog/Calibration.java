package org.rampa.catalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rampa.catalog.GpuCatalog.RawGpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.perf.PerformanceModel;

/**
 * Fits the performance model's efficiency factors to measurements, once, when the catalog loads.
 *
 * <ul>
 *   <li><b>Compute efficiency</b> η_c: MLPerf Inference ResNet-50 Offline throughput (large
 *       batches) times the model's FLOPs per image, over the GPU's dense INT8 peak. The measured
 *       runs are INT8; we assume kernels reach the same fraction of the FP16 peak.
 *   <li><b>Memory efficiency</b> η_m: Helix's time for one Llama-2-70B decode layer at batch 2,
 *       which streams the layer's 1.71 GB of FP16 weights once: bytes over time over the
 *       datasheet bandwidth. Helix does not say which A100 it used; we take the 40 GB card.
 *   <li><b>Layer overhead</b>: MLPerf ResNet-50 SingleStream (batch 1) p90 latency minus the
 *       roofline time with the fitted η_c and η_m, spread over the model's 18 blocks.
 * </ul>
 *
 * A GPU without its own measurement takes the mean of measured GPUs on the same chip, else of the
 * same generation, else of all measured GPUs; {@link Basis} records which.
 */
public final class Calibration {

  /** Where each fitted factor of one GPU type comes from. */
  public record Basis(String computeEfficiency, String memoryEfficiency, String layerOverhead) {}

  record Result(double computeEfficiency, double memoryEfficiency, Duration layerOverhead, Basis basis) {}

  private static final Map<String, String> MLPERF_NAMES = Map.of(
      "NVIDIA T4", "T4",
      "NVIDIA A10", "A10",
      "NVIDIA A100-PCIe-80GB", "A100-PCIe-80GB",
      "NVIDIA L4", "L4",
      "NVIDIA H100-PCIe-80GB", "H100-PCIe-80GB",
      "NVIDIA H100-SXM-80GB", "H100-SXM5-80GB");

  /** Sorted, so that means over several measured GPUs add up in one order on every run. */
  private static final Map<String, String> HELIX_FILES = new java.util.TreeMap<>(Map.of(
      "T4", "helix/llama2_70b_t4_decode_bs2time.csv",
      "L4", "helix/llama2_70b_l4_decode_bs2time.csv",
      "V100-SXM2-32GB", "helix/llama2_70b_v100_decode_bs2time.csv",
      "A100-SXM4-40GB", "helix/llama2_70b_a100_decode_bs2time.csv"));

  private static final int HELIX_BATCH = 2;

  private final Map<String, RawGpu> gpus;
  private final Map<String, Double> compute = new LinkedHashMap<>();
  private final Map<String, Double> memory = new LinkedHashMap<>();
  private final Map<String, Double> overheadSeconds = new LinkedHashMap<>();

  private Calibration(Map<String, RawGpu> gpus) {
    this.gpus = gpus;
  }

  static Calibration fit(Map<String, RawGpu> gpus) {
    Calibration c = new Calibration(gpus);
    Model resnet = ModelCatalog.model("resnet50");
    CsvTable mlperf = CsvTable.resource("mlperf-calibration.csv");
    resnetRows(mlperf, "Offline").forEach((id, samplesPerSecond) ->
        c.compute.put(id, samplesPerSecond * resnet.totalFlopsPerSample() / gpus.get(id).int8Ops()));
    double layerBytes = ModelCatalog.decode("llama2-70b", 1).layer(1).weightBytes();
    HELIX_FILES.forEach((id, file) -> {
      double seconds = helixMillis(file, HELIX_BATCH) / 1e3;
      c.memory.put(id, layerBytes / seconds / gpus.get(id).bandwidth());
    });
    PerformanceModel roofline = PerformanceModel.defaults();
    resnetRows(mlperf, "SingleStream").forEach((id, latencyMillis) -> {
      GpuType withoutOverhead = c.type(gpus.get(id), Duration.ZERO);
      double predicted = roofline.stageSeconds(resnet, 0, resnet.size(), withoutOverhead, 1);
      c.overheadSeconds.put(id, Math.max(0, latencyMillis / 1e3 - predicted) / resnet.size());
    });
    return c;
  }

  /** The per-GPU value of the MLPerf ResNet-50 rows of one scenario, by catalog GPU id, in file order. */
  private static Map<String, Double> resnetRows(CsvTable mlperf, String scenario) {
    Map<String, Double> rows = new LinkedHashMap<>();
    for (int r = 0; r < mlperf.size(); r++) {
      String id = MLPERF_NAMES.get(mlperf.get(r, "gpu"));
      if (id != null && mlperf.get(r, "model").startsWith("ResNet-50") && scenario.equals(mlperf.get(r, "scenario"))) {
        rows.put(id, mlperf.number(r, "per_gpu_value"));
      }
    }
    return rows;
  }


  private GpuType type(RawGpu g, Duration overhead) {
    return GpuType.builder()
        .name(g.id())
        .peakFlopsPerSecond(g.denseFlops())
        .memoryBytes(g.memoryBytes())
        .memoryBandwidthBytesPerSecond(g.bandwidth())
        .computeEfficiency(pick(g, compute).value)
        .memoryEfficiency(pick(g, memory).value)
        .layerOverhead(overhead)
        .build();
  }

  Result forGpu(RawGpu g) {
    Pick c = pick(g, compute);
    Pick m = pick(g, memory);
    Pick o = pick(g, overheadSeconds);
    return new Result(c.value, m.value, Duration.ofNanos(Math.round(o.value * 1e9)), new Basis(c.basis, m.basis, o.basis));
  }

  private record Pick(double value, String basis) {}

  private Pick pick(RawGpu g, Map<String, Double> measured) {
    if (measured.containsKey(g.id())) {
      return new Pick(measured.get(g.id()), "measured on " + g.id());
    }
    Pick chip = mean(measured, x -> x.architecture().equals(g.architecture()), "mean of measured " + g.architecture());
    if (chip != null) {
      return chip;
    }
    Pick family = mean(measured, x -> x.family().equals(g.family()), "mean of measured " + g.family() + " GPUs");
    if (family != null) {
      return family;
    }
    return mean(measured, x -> true, "mean of all measured GPUs");
  }

  private Pick mean(Map<String, Double> measured, java.util.function.Predicate<RawGpu> same, String basis) {
    double sum = 0;
    int n = 0;
    StringBuilder from = new StringBuilder();
    for (Map.Entry<String, Double> e : measured.entrySet()) {
      if (same.test(gpus.get(e.getKey()))) {
        sum += e.getValue();
        n++;
        from.append(from.length() == 0 ? "" : ", ").append(e.getKey());
      }
    }
    return n == 0 ? null : new Pick(sum / n, basis + " (" + from + ")");
  }

  private static double helixMillis(String resource, int batch) {
    try (InputStream in = Calibration.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("calibration resource " + resource + " is missing");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = reader.readLine()) != null) {
        String[] f = line.split(",");
        if (Integer.parseInt(f[0].trim()) == batch) {
          return Double.parseDouble(f[1].trim());
        }
      }
      throw new IllegalStateException(resource + " has no row for batch " + batch);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
