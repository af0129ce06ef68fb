package org.rampa.scenarios;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;

/**
 * ParvaGPU's own published deployments of its six SLO scenarios (SC'24 artefact, MIT; copied
 * unchanged next to the scenario files): per GPU (node, GPU in node) the segments it runs, each a
 * model on a MIG instance of a size in compute slices at a "placement", with a batch size and a
 * number of MPS processes.
 *
 * <p>ParvaGPU's placement is an index in its own seven-slot bookkeeping, not always an NVIDIA
 * memory-slice start: its allocator puts a 3g instance at 4 and still hands a 1g instance slot 6,
 * which overlaps the 3g's memory slices 4 … 7 on a real A100, while slot 1 would have been free.
 * {@link #asPublished} keeps the column as the start (so the verifier can say where it is illegal);
 * {@link #plan} keeps it where the GPU's layout is legal and otherwise gives the same instances
 * the first legal starts (largest instances first), which is what creating the instances without
 * explicit placements yields, so the deployment is judged on its sizes, batches and processes.
 */
public final class ParvaGpuDeployments {
  private ParvaGpuDeployments() {}

  /** One published row: a segment of {@code model} on GPU {@code gpu} of node {@code node}. */
  public record Row(int node, int gpu, String model, int placement, int instanceSize, int batch, int processes) {}

  /** The published rows of scenario {@code k} (1 … 6), in file order. */
  public static List<Row> rows(int k) {
    if (k < 1 || k > ParvaGpuScenarios.SCENARIOS) {
      throw Invalid.value("parvagpuScenario", k, "must lie in [1, " + ParvaGpuScenarios.SCENARIOS + "]", "ParvaGPU published six deployments");
    }
    String file = "SLO" + k + "_ParvaGPU_deploy.csv";
    try (InputStream in = ParvaGpuDeployments.class.getResourceAsStream("parvagpu/" + file)) {
      if (in == null) {
        throw new IllegalStateException("ParvaGPU deployment file " + file + " is missing from the rampa-scenarios jar");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      return r.lines().skip(1).filter(l -> !l.isBlank()).map(l -> {
        String[] c = l.trim().split(",");
        return new Row(Integer.parseInt(c[0]), Integer.parseInt(c[1]), c[2], Integer.parseInt(c[3]), Integer.parseInt(c[4]),
            Integer.parseInt(c[5]), Integer.parseInt(c[6]));
      }).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The number of GPUs ParvaGPU's deployment of scenario {@code k} uses. */
  public static int gpuCount(int k) {
    return byGpu(rows(k)).size();
  }

  /** Scenario {@code k}'s deployment with ParvaGPU's placement column taken as the MIG start, as published. */
  public static ColocationPlan asPublished(int k) {
    List<GpuConfiguration> gpus = new ArrayList<>();
    for (List<Row> gpu : byGpu(rows(k)).values()) {
      gpus.add(new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, gpu.stream().map(r -> segment(r, r.placement())).toList()));
    }
    return new ColocationPlan(gpus, 1);
  }

  /**
   * Scenario {@code k}'s deployment with legal MIG starts: a GPU whose published placements form a
   * legal layout keeps them; otherwise its instances get the first legal starts, largest first.
   * A GPU whose instance sizes fit no legal layout keeps its published placements (the verifier then
   * names the layout as illegal).
   */
  public static ColocationPlan plan(int k) {
    MigGeometry a100 = geometry();
    List<GpuConfiguration> gpus = new ArrayList<>();
    for (List<Row> gpu : byGpu(rows(k)).values()) {
      List<MigSlice> published = gpu.stream().map(r -> new MigSlice(profile(a100, r.instanceSize()).name(), r.placement())).toList();
      List<Row> rows = gpu;
      List<Integer> starts = gpu.stream().map(Row::placement).toList();
      if (MigLayout.check(a100, published).isPresent()) {
        rows = gpu.stream().sorted(Comparator.comparingInt(Row::instanceSize).reversed()).toList();
        starts = legalStarts(a100, rows, 0, new ArrayList<>()).orElse(rows.stream().map(Row::placement).toList());
      }
      List<Segment> segments = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        segments.add(segment(rows.get(i), starts.get(i)));
      }
      gpus.add(new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, segments));
    }
    return new ColocationPlan(gpus, 1);
  }

  /** GPUs ParvaGPU's placement column puts in an illegal MIG layout, as "node/gpu" labels. */
  public static List<String> illegalPublishedLayouts(int k) {
    MigGeometry a100 = geometry();
    List<String> out = new ArrayList<>();
    byGpu(rows(k)).forEach((label, gpu) -> {
      List<MigSlice> published = gpu.stream().map(r -> new MigSlice(profile(a100, r.instanceSize()).name(), r.placement())).toList();
      MigLayout.check(a100, published).ifPresent(v -> out.add(label));
    });
    return out;
  }

  /** The A100-80GB profile ParvaGPU's instance size (compute slices) names: the smallest-memory profile of that many slices. */
  static MigProfile profile(MigGeometry geometry, int computeSlices) {
    return geometry.profiles().stream().filter(p -> p.computeSlices() == computeSlices).min(Comparator.comparingInt(MigProfile::memorySlices))
        .orElseThrow(() -> Invalid.value("instanceSize", computeSlices, "is no MIG profile's compute-slice count on " + geometry.name()));
  }

  private static Optional<List<Integer>> legalStarts(MigGeometry g, List<Row> rows, int i, List<Integer> chosen) {
    if (i == rows.size()) {
      return Optional.of(List.copyOf(chosen));
    }
    MigProfile p = profile(g, rows.get(i).instanceSize());
    for (int start : p.allowedStarts()) {
      chosen.add(start);
      List<MigSlice> partial = new ArrayList<>();
      for (int j = 0; j <= i; j++) {
        partial.add(new MigSlice(profile(g, rows.get(j).instanceSize()).name(), chosen.get(j)));
      }
      if (MigLayout.check(g, partial).isEmpty()) {
        Optional<List<Integer>> rest = legalStarts(g, rows, i + 1, chosen);
        if (rest.isPresent()) {
          return rest;
        }
      }
      chosen.remove(chosen.size() - 1);
    }
    return Optional.empty();
  }

  private static Segment segment(Row r, int start) {
    String profile = profile(geometry(), r.instanceSize()).name();
    Placement p = r.processes() == 1 ? new MigSlice(profile, start) : new MigSliceMps(profile, start, r.processes(), 0);
    return new Segment(r.model(), p, r.batch());
  }

  private static Map<String, List<Row>> byGpu(List<Row> rows) {
    Map<String, List<Row>> out = new LinkedHashMap<>();
    rows.forEach(r -> out.computeIfAbsent(r.node() + "/" + r.gpu(), x -> new ArrayList<>()).add(r));
    return out;
  }

  private static MigGeometry geometry() {
    return SharingCatalog.standard().partitioning(ParvaGpuScenarios.GPU_TYPE).requireMig();
  }
}
