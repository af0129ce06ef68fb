package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.domain.Cluster;
import org.rampa.examples.sim.RunResult;
import org.rampa.strategy.StrategyOptions;

class SharingExperimentTest {

  private final Cluster cluster = Presets.cluster("small");

  @Test
  void sharingRunsOnTheSameArrivalsAdmitMoreWithEveryAdmissionAuditedAndNoViolation(@TempDir Path dir) throws Exception {
    // light services at twice the load 48 whole GPUs can hold: only sharing can admit the surplus
    var settings = new SharingExperiment.Settings(cluster, Map.of("light", List.of(96.0)), 60, 3600, 1, 2,
        List.of("performance-first", "rampa-greedy/capability"), StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).build(), 2);
    SharingExperiment experiment = new SharingExperiment(settings);
    assertThat(experiment.taskCount()).isEqualTo(3 * 2);
    List<SharingExperiment.WorkloadResult> results = experiment.run(() -> {});
    ExperimentResult r = results.get(0).result();
    assertThat(r.schedulers()).containsExactly("performance-first", "rampa-greedy/capability", "rampa-greedy/capability+sharing");
    for (RunResult run : r.runs()) {
      assertThat(run.violations()).as(run.scheduler()).isZero();
      // an incumbent committed without its request would be reported here: sharing plans go through the guard
      assertThat(run.capacity().audited()).isTrue();
      assertThat(run.capacity().auditFindings()).as(run.scheduler()).isEmpty();
      assertThat(run.capacity().meanStrandedGpuEquivalents()).isBetween(0.0, run.capacity().meanFreeGpuEquivalents());
      assertThat(run.capacity().sharedPlans() > 0).as(run.scheduler()).isEqualTo(run.capacity().sharing());
    }
    List<RunResult> whole = r.runs("rampa-greedy/capability", 96.0);
    List<RunResult> shared = r.runs("rampa-greedy/capability+sharing", 96.0);
    for (int i = 0; i < whole.size(); i++) {
      assertThat(shared.get(i).arrivalsByClass()).isEqualTo(whole.get(i).arrivalsByClass());
      assertThat(shared.get(i).admitted()).isGreaterThanOrEqualTo(whole.get(i).admitted());
    }
    assertThat(r.admitted("rampa-greedy/capability+sharing", 96.0).mean()).isGreaterThan(r.admitted("rampa-greedy/capability", 96.0).mean());

    List<SharingExperiment.Row> rows = SharingExperiment.summarise(results);
    assertThat(rows).extracting(SharingExperiment.Row::label).containsExactly("performance-first, sharing off",
        "rampa-greedy/capability, sharing off", "rampa-greedy/capability, sharing on");
    assertThat(rows).allSatisfy(row -> assertThat(row.gainOverWhole().isPresent()).isEqualTo(row.sharing()));
    assertThat(rows.get(2).gainOverWhole().orElseThrow().mean()).isEqualTo(r.gainPercent("rampa-greedy/capability+sharing",
        "rampa-greedy/capability", 96.0).orElseThrow().mean());
    // counts of a run's arrivals stay within [0, arrivals], intervals included
    assertThat(rows).allSatisfy(row -> {
      assertThat(row.admitted().high()).isLessThanOrEqualTo(60);
      assertThat(row.sharedPlans().high()).isLessThanOrEqualTo(60);
    });
    SharingExperiment.writeCsv(results, dir.resolve("e4.csv"));
    SharingExperiment.writeSummaryCsv(rows, dir.resolve("e4-summary.csv"));
    SharingExperiment.writeCharts(rows, cluster.gpus().size(), dir);
    List<String> raw = Files.readAllLines(dir.resolve("e4.csv"));
    assertThat(raw).hasSize(1 + 3 * 2);
    assertThat(raw.get(0)).startsWith("workload,planner,sharing,offered_load,seed,");
    assertThat(raw).anyMatch(l -> l.startsWith("light,rampa-greedy/capability,on,96.000,2,"));
    assertThat(Files.readAllLines(dir.resolve("e4-summary.csv"))).hasSize(1 + 3);
    assertThat(dir.resolve("e4-light.png")).isNotEmptyFile();
    assertThat(dir.resolve("e4-light.svg")).isNotEmptyFile();
  }

  @Test
  void onlyPlannersWhoseStrategyCanShareTakeTheSharingSuffix() {
    assertThat(Schedulers.canShare("rampa-greedy/scarcity")).isTrue();
    assertThat(Schedulers.canShare("performance-first")).isFalse();
    assertThat(Schedulers.named("rampa-greedy/scarcity+sharing", StrategyOptions.defaults()).sharing()).isTrue();
    assertThat(Schedulers.named("rampa-greedy/scarcity+fragmentation", StrategyOptions.defaults()).sharing()).isFalse();
    assertThatThrownBy(() -> Schedulers.named("performance-first+sharing", StrategyOptions.defaults()))
        .hasMessageContaining("performance-first+sharing").hasMessageContaining("whole GPUs only");
  }
}
