package org.rampa.perf.share;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rampa.domain.ServingRuntime;

/**
 * Reads the measured share tables RAMPA ships: ParvaGPU's A100-80GB MIG profiles (MIT) and
 * MuxServe's A100-80GB MPS table (Apache-2.0); licences and notices sit next to the files. Neither
 * source states the A100's form factor, so both answer for the catalog's two A100 80 GB types.
 * ParvaGPU ran PyTorch in eager mode, MuxServe its own LLM engine: each series carries that runtime
 * ({@link ServingRuntime#PYTORCH_EAGER}, {@link ServingRuntime#MUXSERVE}).
 */
final class PublishedShareTables {
  private PublishedShareTables() {}

  static final List<String> A100_80GB = List.of("A100-SXM4-80GB", "A100-PCIe-80GB");

  static final List<String> PARVAGPU_MODELS = List.of(
      "bert", "densenet121", "densenet169", "densenet201", "inceptionv3", "mobilenetv2",
      "resnet101", "resnet152", "resnet50", "vgg16", "vgg19");

  /**
   * ParvaGPU's instance sizes (compute slices) and the SMs of the A100-80GB profiles they are
   * (1g.10gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb), of the card's {@link #A100_SMS}: NVML's counts,
   * as the sharing catalog's MIG geometry has them. Written here rather than read from that catalog,
   * which sits above this package; {@code CalibratedFloorsTest} requires the two to agree.
   */
  static final Map<Integer, Integer> PARVAGPU_SMS = Map.of(1, 14, 2, 28, 3, 42, 4, 56, 7, 98);

  static final int A100_SMS = 108;

  /** The A100-80GB profiles of ParvaGPU's instance sizes (compute slices). */
  static final Map<Integer, String> PARVAGPU_PROFILES = Map.of(
      1, "1g.10gb", 2, "2g.20gb", 3, "3g.40gb", 4, "4g.40gb", 7, "7g.80gb");

  /** The A100-80GB profile of a ParvaGPU series' share (its compute fraction). */
  static String parvaGpuProfile(double share) {
    for (Map.Entry<Integer, Integer> size : PARVAGPU_SMS.entrySet()) {
      if (Math.abs((double) size.getValue() / A100_SMS - share) < 1e-9) {
        return PARVAGPU_PROFILES.get(size.getKey());
      }
    }
    throw new IllegalArgumentException("share " + share + " is none of ParvaGPU's instance sizes");
  }

  /**
   * One series per ParvaGPU model, batch and process count over the five instance sizes; the share
   * of an instance is its SM count over the card's (14/108 … 98/108), the time of one batch is
   * batch / per-process throughput (the latency column is rounded to 1 ms). Rows of throughput 0
   * are configurations ParvaGPU did not run and are skipped. A configuration measured on one
   * instance size only (48 of them, all on the 7g instance: large batches and many processes that
   * did not fit or were not run on smaller ones) is a one-share series.
   */
  static List<ShareSeries> parvaGpu() {
    List<ShareSeries> out = new ArrayList<>();
    for (String model : PARVAGPU_MODELS) {
      // (batch, processes) -> share -> seconds
      Map<List<Integer>, TreeMap<Double, Double>> points = new LinkedHashMap<>();
      for (String[] row : csvRows("parvagpu/" + model + ".csv")) {
        int slices = Integer.parseInt(row[0]);
        int batch = Integer.parseInt(row[1]);
        int processes = Integer.parseInt(row[2]);
        double throughput = Double.parseDouble(row[3]);
        if (throughput == 0) {
          continue; // ParvaGPU writes 0 for configurations it did not run (too many processes for the instance)
        }
        double share = (double) PARVAGPU_SMS.get(slices) / A100_SMS;
        points.computeIfAbsent(List.of(batch, processes), k -> new TreeMap<>()).put(share, batch / throughput);
      }
      points.forEach((key, byShare) -> out.add(new ShareSeries(model, A100_80GB, ShareSeries.Kind.MIG, key.get(1), key.get(0),
          List.copyOf(byShare.keySet()), List.copyOf(byShare.values()), ServingRuntime.PYTORCH_EAGER)));
    }
    return out;
  }

  /**
   * One series per MuxServe model, tensor-parallel degree, batch, sequence length and phase over the
   * MPS percentages. Single-GPU series are named like catalog models ("llama-7b-prefill-512",
   * "llama-7b-decode-512"); tensor-parallel ones carry their degree ("llama-7b-tp2-prefill-512"),
   * since a stage on one share is not a tensor-parallel group.
   */
  static List<ShareSeries> muxServe() {
    JsonNode root;
    try (InputStream in = open("muxserve/llama.json")) {
      root = new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the MuxServe table", e);
    }
    // series name + batch -> share -> seconds
    Map<String, TreeMap<Double, Double>> points = new LinkedHashMap<>();
    Map<String, Integer> batches = new LinkedHashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> models = root.fields(); models.hasNext(); ) {
      Map.Entry<String, JsonNode> model = models.next();
      for (Iterator<Map.Entry<String, JsonNode>> tps = model.getValue().fields(); tps.hasNext(); ) {
        Map.Entry<String, JsonNode> tp = tps.next();
        for (Iterator<Map.Entry<String, JsonNode>> pcts = tp.getValue().fields(); pcts.hasNext(); ) {
          Map.Entry<String, JsonNode> pct = pcts.next();
          double share = Integer.parseInt(pct.getKey()) / 100.0;
          for (Iterator<Map.Entry<String, JsonNode>> bs = pct.getValue().fields(); bs.hasNext(); ) {
            Map.Entry<String, JsonNode> b = bs.next();
            for (Iterator<Map.Entry<String, JsonNode>> seqs = b.getValue().fields(); seqs.hasNext(); ) {
              Map.Entry<String, JsonNode> seq = seqs.next();
              for (String phase : List.of("prefill", "decoding")) {
                JsonNode ms = seq.getValue().get(phase);
                if (ms == null || !ms.isNumber() || ms.asDouble() <= 0) {
                  continue; // MuxServe writes -1 for configurations it did not run (1246 of 10240 entries)
                }
                String name = model.getKey() + (tp.getKey().equals("1") ? "" : "-tp" + tp.getKey())
                    + (phase.equals("prefill") ? "-prefill-" : "-decode-") + seq.getKey();
                String key = name + "@" + b.getKey();
                names.put(key, name);
                batches.put(key, Integer.parseInt(b.getKey()));
                points.computeIfAbsent(key, k -> new TreeMap<>()).put(share, ms.asDouble() / 1000);
              }
            }
          }
        }
      }
    }
    List<ShareSeries> out = new ArrayList<>();
    // one-share series too (one: llama-7b-prefill-256 at batch 256, measured at 100 % only)
    points.forEach((key, byShare) -> out.add(new ShareSeries(names.get(key), A100_80GB, ShareSeries.Kind.MPS, 1, batches.get(key),
        List.copyOf(byShare.keySet()), List.copyOf(byShare.values()), ServingRuntime.MUXSERVE)));
    return out;
  }

  private static List<String[]> csvRows(String resource) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(open(resource), StandardCharsets.UTF_8))) {
      return r.lines().skip(1).filter(l -> !l.isBlank()).map(l -> l.split(",")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  private static InputStream open(String resource) {
    InputStream in = PublishedShareTables.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("share table resource " + resource + " is missing from the rampa-api jar");
    }
    return in;
  }
}
