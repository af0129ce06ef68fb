package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SloRule;
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.MeasuredShareTable;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.strategy.SolveStatus;

/**
 * ParvaGPU's six scenarios under its literal SLO rule, every planner: each plan passes the verifier
 * under that rule, and each of its MIG segments passes the comparison ParvaGPU's own code makes on
 * its tables' latency column (whole ms, strictly below 0.9 × ⌊SLO⌋ / 2), read here from the CSV.
 */
class ParvaGpuLiteralRuleTest {

  /** (model, instance slices, batch, processes) → the latency column in whole ms. */
  private static final Map<String, Long> COLUMN = latencyColumn();

  @Test
  void everyPlannersPlanOnEveryScenarioPassesParvaGpusLiteralRule() {
    List<String> names = new ArrayList<>(List.of("exact"));
    names.addAll(ColocationPlanners.NAMES);
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      ColocationProblem p = ParvaGpuScenarios.scenario(k, 1000, ColocationObjective.MIN_GPUS, SloRule.parvaGpuLiteral());
      StringBuilder line = new StringBuilder("literal rule, scenario " + k + ":");
      for (String name : names) {
        ColocationPlanner planner = name.equals("exact")
            ? VerifiedColocationPlanner.of(new PatternColocationPlanner(ColocationPlanners.named("heuristic")))
            : ColocationPlanners.named(name);
        ColocationResult r = planner.plan(p, Duration.ofSeconds(name.equals("exact") ? 30 : 5));
        if (name.startsWith("even-mps") || name.equals("gpu-lets")) {
          // ParvaGPU measured MIG instances only: no time for an MPS share of its models
          assertThat(r.status()).as(name).isEqualTo(SolveStatus.NO_PLAN_FOUND);
          continue;
        }
        assertThat(r.status().hasPlan()).as(name + " on scenario " + k + ": " + r.reason()).isTrue();
        assertThat(ColocationVerifier.check(p, r.plan().orElseThrow())).as(name + " on scenario " + k).isEmpty();
        for (GpuConfiguration g : r.plan().orElseThrow().gpus()) {
          if (g.timeShared()) {
            continue; // a round of several tenants has no row in ParvaGPU's tables; the verifier judged the round
          }
          for (Segment s : g.segments()) {
            ColocationService svc = p.service(s.service());
            long latency = column(s);
            // configurator.c: target_ltc < slo_ltc / 2 * 0.9 with slo_ltc = atoi(SLO); in integers 20 L < 9 ⌊SLO⌋
            assertThat(20 * latency).as(name + " on scenario " + k + ": " + s).isLessThan(9 * svc.slo().toMillis());
          }
        }
        line.append(' ').append(name).append('=').append(r.plan().orElseThrow().gpuCount());
        if (name.equals("exact")) {
          line.append(' ').append(r.status()).append(" bound ").append(r.bound().orElse(Double.NaN));
        }
      }
      System.out.println(line);
    }
  }

  @Test
  void theBatchTimeRoundedToWholeMillisecondsIsTheLatencyColumnOnEveryRowTheScenariosSearch() {
    int rows = 0;
    for (String model : ParvaGpuScenarios.MODELS) {
      for (String[] r : csv(model)) {
        int batch = Integer.parseInt(r[1]);
        double throughput = Double.parseDouble(r[3]);
        if (throughput == 0 || !ParvaGpuScenarios.BATCHES.contains(batch)) {
          continue;
        }
        rows++;
        assertThat(Math.round(batch / throughput * 1e3)).as(model + " " + String.join(",", r)).isEqualTo(Math.round(Double.parseDouble(r[4]) * 1e3));
      }
    }
    assertThat(rows).isGreaterThan(1000);
  }

  @Test
  void theReadingsDisagreeOnNineSearchedConfigurationsInBothDirections() {
    List<String> literalOnly = new ArrayList<>();
    List<String> rampaOnly = new ArrayList<>();
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      ColocationProblem p = ParvaGpuScenarios.scenario(k, 1, ColocationObjective.MIN_GPUS);
      for (ColocationService svc : p.services()) {
        for (String[] r : csv(svc.id())) {
          int batch = Integer.parseInt(r[1]);
          double throughput = Double.parseDouble(r[3]);
          if (throughput == 0 || !ParvaGpuScenarios.BATCHES.contains(batch)) {
            continue;
          }
          double seconds = batch / throughput;
          boolean rampa = SloRule.parvaGpu().admits(seconds, svc);
          boolean literal = SloRule.parvaGpuLiteral().admits(seconds, svc);
          String where = "scenario " + k + " " + svc.id() + " " + r[0] + "g x " + batch + " x " + r[2];
          if (literal && !rampa) {
            literalOnly.add(where);
          } else if (rampa && !literal) {
            rampaOnly.add(where);
          }
        }
      }
    }
    assertThat(literalOnly).containsExactlyInAnyOrder("scenario 3 resnet50 3g x 16 x 5", "scenario 4 resnet50 3g x 16 x 5",
        "scenario 5 densenet121 1g x 2 x 4");
    assertThat(rampaOnly).containsExactlyInAnyOrder("scenario 1 resnet50 7g x 128 x 2", "scenario 2 resnet50 7g x 128 x 2",
        "scenario 6 resnet50 7g x 128 x 2", "scenario 5 resnet50 2g x 8 x 3", "scenario 5 resnet50 3g x 8 x 5", "scenario 5 resnet50 4g x 16 x 3");
  }

  private static long column(Segment s) {
    String profile;
    int processes;
    if (s.placement() instanceof MigSliceMps m) {
      profile = m.profile();
      processes = m.processes();
    } else {
      profile = ((MigSlice) s.placement()).profile();
      processes = 1;
    }
    Long ms = COLUMN.get(s.service() + "," + profile.charAt(0) + "," + s.batch() + "," + processes);
    assertThat(ms).as("table row of " + s).isNotNull();
    return ms;
  }

  private static Map<String, Long> latencyColumn() {
    Map<String, Long> out = new HashMap<>();
    for (String model : ParvaGpuScenarios.MODELS) {
      for (String[] r : csv(model)) {
        if (Double.parseDouble(r[3]) > 0) {
          out.put(model + "," + r[0] + "," + r[1] + "," + r[2], Math.round(Double.parseDouble(r[4]) * 1e3));
        }
      }
    }
    return out;
  }

  /** ParvaGPU's table of {@code model} as shipped in rampa-api: instance slices, batch, processes, throughput, latency (s). */
  private static List<String[]> csv(String model) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        MeasuredShareTable.class.getResourceAsStream("parvagpu/" + model + ".csv"), StandardCharsets.UTF_8))) {
      return r.lines().skip(1).filter(l -> !l.isBlank()).map(l -> l.split(",")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
