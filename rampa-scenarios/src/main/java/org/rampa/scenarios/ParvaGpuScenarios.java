package org.rampa.scenarios;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SloRule;
import org.rampa.domain.ImmutableLayer;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.MeasuredShareTable;

/**
 * ParvaGPU's six published SLO scenarios (SC'24; MIT) as co-location problems on its measured
 * A100-80GB MIG profiles, under its SLO rule (a segment's batch ≤ 0.9 × SLO / 2). Times come from
 * the measured tier only ({@link MeasuredShareTable#published()}): these are PyTorch-eager runs, and
 * neither the fitted nor the analytic tier describes that runtime, so a configuration ParvaGPU did
 * not measure is not offered. Batches are those ParvaGPU's README suggests (1 … 128; its tables
 * also hold 256, which none of its published deployments uses); processes per instance are 1 … 5,
 * every count its tables measure: its README limits the search to 3 "to consider out-of-memory
 * issues", but its own published deployments run 4 (scenario 5) and 5 (scenarios 3 to 6), so a
 * scenario searches what ParvaGPU deployed ({@link ParvaGpuDeployments}). Memory: ParvaGPU's tables list only configurations that ran, so a process reserves only
 * the MPS context (an assumption, docs/SHARING.md section 1); the models enter by name only.
 */
public final class ParvaGpuScenarios {
  private ParvaGpuScenarios() {}

  public static final int SCENARIOS = 6;

  /** The GPU type the tables answer for (they answer both A100 80 GB types identically). */
  public static final String GPU_TYPE = "A100-SXM4-80GB";

  /** ParvaGPU's eleven measured models, in its scenario files' column order. */
  public static final List<String> MODELS = List.of(
      "bert", "densenet121", "densenet169", "densenet201", "inceptionv3", "mobilenetv2",
      "resnet101", "resnet152", "resnet50", "vgg16", "vgg19");

  // ParvaGPU's README's search space: batches 1 … 128 in powers of two and at most three processes
  // per instance, "to consider out-of-memory issues" its tables cannot show
  public static final List<Integer> BATCHES = List.of(1, 2, 4, 8, 16, 32, 64, 128);
  private static final List<Integer> PROCESSES = List.of(1, 2, 3);

  /** The most MPS processes ParvaGPU's README's search runs in one instance. */
  public static final int MAX_PROCESSES = 3;

  /** The most MPS processes per instance ParvaGPU's tables measure and its published deployments run. */
  public static final int MEASURED_PROCESSES = 5;

  private static final List<Integer> MEASURED_PROCESS_COUNTS = List.of(1, 2, 3, 4, 5);

  /** Scenario {@code k} (1 … 6) on {@code gpus} A100-80GB GPUs, 1 … {@value #MEASURED_PROCESSES} processes per instance. */
  public static ColocationProblem scenario(int k, int gpus, ColocationObjective objective) {
    return scenario(k, gpus, objective, SloRule.parvaGpu());
  }

  /**
   * Scenario {@code k} under {@code rule}: {@link SloRule#parvaGpu()} (RAMPA's reading of
   * ParvaGPU's rule) or {@link SloRule#parvaGpuLiteral()} (the comparison ParvaGPU's code makes).
   */
  public static ColocationProblem scenario(int k, int gpus, ColocationObjective objective, SloRule rule) {
    if (k < 1 || k > SCENARIOS) {
      throw Invalid.value("parvagpuScenario", k, "must lie in [1, " + SCENARIOS + "]", "ParvaGPU published six scenarios");
    }
    List<String> latency = rows("SLO_latency.csv").get(k - 1);
    List<String> rate = rows("SLO_req_rate.csv").get(k - 1);
    List<ColocationService> services = new ArrayList<>();
    for (int i = 0; i < MODELS.size(); i++) {
      if (latency.get(i).equals("N/A")) {
        continue;
      }
      String name = MODELS.get(i);
      Duration slo = Duration.ofNanos(Math.round(Double.parseDouble(latency.get(i)) * 1e6));
      services.add(new ColocationService(name, measuredOnly(name), BATCHES, MEASURED_PROCESS_COUNTS, Double.parseDouble(rate.get(i)), slo, 0, 1));
    }
    return problem(services, gpus, objective, rule);
  }

  /**
   * A service of ParvaGPU's model {@code name} on its measured tables with the given batches,
   * the README's process counts (1 … 3), no memory beyond the MPS context, weight 1.
   */
  public static ColocationService service(String name, List<Integer> batches, double rate, Duration slo) {
    if (!MODELS.contains(name)) {
      throw Invalid.value("model", name, "is not one of ParvaGPU's measured models", "use one of " + MODELS);
    }
    return new ColocationService(name, measuredOnly(name), batches, PROCESSES, rate, slo, 0, 1);
  }

  /** Scenario {@code k}'s latency SLO of {@code model}; empty when the scenario leaves it out ("N/A"). */
  public static Optional<Duration> slo(int k, String model) {
    if (k < 1 || k > SCENARIOS) {
      throw Invalid.value("parvagpuScenario", k, "must lie in [1, " + SCENARIOS + "]", "ParvaGPU published six scenarios");
    }
    String ms = rows("SLO_latency.csv").get(k - 1).get(MODELS.indexOf(model));
    return ms.equals("N/A") ? Optional.empty() : Optional.of(Duration.ofNanos(Math.round(Double.parseDouble(ms) * 1e6)));
  }

  /** {@code services} on {@code gpus} A100-80GB GPUs under ParvaGPU's SLO rule, measured tier only. */
  public static ColocationProblem problem(List<ColocationService> services, int gpus, ColocationObjective objective) {
    return problem(services, gpus, objective, SloRule.parvaGpu());
  }

  /** {@code services} on {@code gpus} A100-80GB GPUs under {@code rule}, measured tier only. */
  public static ColocationProblem problem(List<ColocationService> services, int gpus, ColocationObjective objective, SloRule rule) {
    GpuPool pool = new GpuPool(GpuCatalog.standard().type(GPU_TYPE), SharingCatalog.standard().partitioning(GPU_TYPE), gpus);
    return new ColocationProblem(services, List.of(pool), MeasuredShareTable.published(), InterferenceModel.defaults(),
        rule, MpsAdmission.strict(), objective);
  }

  /** A model known by its name only, served by PyTorch eager as ParvaGPU ran it: its measured tables answer for it; no other tier is asked. */
  private static Model measuredOnly(String name) {
    return Model.of(name, List.of(ImmutableLayer.builder().name(name).flopsPerSample(0).weightBytes(0).outputBytesPerSample(0).build()))
        .servedBy(ServingRuntime.PYTORCH_EAGER);
  }

  private static List<List<String>> rows(String file) {
    try (InputStream in = ParvaGpuScenarios.class.getResourceAsStream("parvagpu/" + file)) {
      if (in == null) {
        throw new IllegalStateException("ParvaGPU scenario file " + file + " is missing from the rampa-scenarios jar");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      return r.lines().filter(l -> !l.isBlank()).map(l -> List.of(l.trim().split(","))).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
