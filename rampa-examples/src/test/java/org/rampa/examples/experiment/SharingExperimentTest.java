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
import org.rampa.Rampa;
import org.rampa.domain.Cluster;
import org.rampa.domain.ServiceRequest;
import org.rampa.examples.sim.RunResult;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;

class SharingExperimentTest {

  private final Cluster cluster = Presets.cluster("small");

  /**
   * Light services at twice the load 48 whole GPUs can hold (only sharing can admit the surplus), 2 seeds, the sharing
   * planners under {@code margin}; every run audited, and no violation or audit finding in any.
   */
  private List<SharingExperiment.WorkloadResult> lightRuns(String margin) {
    StrategyOptions options = SharingOptions.off().withMargin(margin).applyTo(StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).build());
    var settings = new SharingExperiment.Settings(cluster, Map.of("light", List.of(96.0)), 60, 3600, 1, 2,
        List.of("performance-first", "rampa-greedy/capability"), options, 2);
    SharingExperiment experiment = new SharingExperiment(settings);
    assertThat(experiment.taskCount()).isEqualTo(3 * 2);
    List<SharingExperiment.WorkloadResult> results = experiment.run(() -> {});
    ExperimentResult r = results.get(0).result();
    assertThat(r.schedulers()).containsExactly("performance-first", "rampa-greedy/capability", "rampa-greedy/capability+sharing");
    for (RunResult run : r.runs()) {
      assertThat(run.violations()).as(run.scheduler()).isZero();
      // an incumbent committed without its request would be reported here: sharing plans go through the guard; and the
      // audit judges under the margin the planner used, so a margined plan is no finding
      assertThat(run.capacity().audited()).isTrue();
      assertThat(run.capacity().auditFindings()).as(run.scheduler()).isEmpty();
      assertThat(run.capacity().meanStrandedGpuEquivalents()).isBetween(0.0, run.capacity().meanFreeGpuEquivalents());
      assertThat(run.capacity().sharedPlans() > 0).as(run.scheduler()).isEqualTo(run.capacity().sharing());
    }
    assertThat(r.admitted("rampa-greedy/capability+sharing", 96.0).mean()).isGreaterThan(r.admitted("rampa-greedy/capability", 96.0).mean());
    return results;
  }

  @Test
  void underTheDefaultMarginsSharingStillAdmitsMoreWithEveryAdmissionAuditedAndNoFinding() {
    ExperimentResult margined = lightRuns(SharingOptions.DEFAULT_MARGIN).get(0).result();
    ExperimentResult nominal = lightRuns("none").get(0).result();
    // the planners on whole GPUs are untouched by a sharing margin: the same admissions, seed by seed
    for (String whole : List.of("performance-first", "rampa-greedy/capability")) {
      assertThat(margined.runs(whole, 96.0)).extracting(RunResult::admitted).as(whole)
          .isEqualTo(nominal.runs(whole, 96.0).stream().map(RunResult::admitted).toList());
    }
  }

  @Test
  void sharingRunsOnTheSameArrivalsAdmitMoreWithEveryAdmissionAuditedAndNoViolation(@TempDir Path dir) throws Exception {
    // on the nominal times (margin none) sharing admits at least as many as whole GPUs on every seed here
    List<SharingExperiment.WorkloadResult> results = lightRuns("none");
    ExperimentResult r = results.get(0).result();
    List<RunResult> whole = r.runs("rampa-greedy/capability", 96.0);
    List<RunResult> shared = r.runs("rampa-greedy/capability+sharing", 96.0);
    for (int i = 0; i < whole.size(); i++) {
      assertThat(shared.get(i).arrivalsByClass()).isEqualTo(whole.get(i).arrivalsByClass());
      assertThat(shared.get(i).admitted()).isGreaterThanOrEqualTo(whole.get(i).admitted());
    }

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

  @Test
  void sharingPlannersPlanUnderTheMarginTheOptionsNameAndWholeGpuPlannersTakeNoSharingOption() {
    ServiceRequest request = WorkloadSpec.named("light").resolve(cluster).classes().get(0).template();
    StrategyOptions none = SharingOptions.off().withMargin("none").applyTo(StrategyOptions.defaults());
    assertThat(none.extra()).containsExactly(Map.entry("sharingMargin", "none"));
    // without sharingMargin the sharing planners take the default margins; with none, the nominal times
    assertThat(margins("rampa-greedy/capability+sharing", StrategyOptions.defaults(), request)).isEqualTo(TierMargins.defaults());
    assertThat(margins("rampa-greedy/capability+sharing+moves", StrategyOptions.defaults(), request)).isEqualTo(TierMargins.defaults());
    assertThat(margins("rampa-greedy/capability+sharing", none, request)).isEqualTo(TierMargins.none());
    assertThat(margins("rampa-dp/capability+sharing", SharingOptions.off().withMargin("0.1").applyTo(StrategyOptions.defaults()), request))
        .isEqualTo(TierMargins.uniform(0.1));
    for (String whole : List.of("performance-first", "rampa-greedy/capability")) {
      Rampa.Placer placer = Schedulers.named(whole, none).create(cluster).placer();
      assertThat(placer.problem(request).options().extra()).as(whole).doesNotContainKeys("sharing", "sharingMargin");
      assertThat(placer.problem(request).performance().shareMargins()).isEqualTo(TierMargins.none());
    }
  }

  private TierMargins margins(String planner, StrategyOptions options, ServiceRequest request) {
    return Schedulers.named(planner, options).create(cluster).placer().problem(request).performance().shareMargins();
  }
}
