package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.examples.bound.OfflineBound;
import org.rampa.examples.sim.RunResult;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.strategy.StrategyOptions;

class AdmissionExperimentTest {

  private static ExperimentResult run(int threads) {
    Cluster cluster = Presets.cluster("small");
    var settings = new AdmissionExperiment.Settings(cluster, WorkloadSpec.standardMix().resolve(cluster), List.of(16.0, 40.0), 60,
        3600, 3, 3, List.of("performance-first", "rampa-greedy/scarcity", "rampa-greedy/marginal-loss"), StrategyOptions.defaults(),
        threads, OfflineBound.ROOT_ONLY);
    return new AdmissionExperiment(settings).run(() -> {});
  }

  @Test
  void parallelRunsGiveTheSequentialResultsInTheSameOrder() {
    ExperimentResult sequential = run(1);
    ExperimentResult parallel = run(4);
    assertThat(parallel.runs()).hasSameSizeAs(sequential.runs()).hasSize(2 * 3 * 3);
    for (int i = 0; i < sequential.runs().size(); i++) {
      RunResult a = sequential.runs().get(i);
      RunResult b = parallel.runs().get(i);
      // everything but the wall-clock timings
      assertThat(b.scheduler()).isEqualTo(a.scheduler());
      assertThat(b.offeredLoad()).isEqualTo(a.offeredLoad());
      assertThat(b.seed()).isEqualTo(a.seed());
      assertThat(b.admitted()).isEqualTo(a.admitted());
      assertThat(b.violations()).isEqualTo(a.violations());
      assertThat(b.admittedByClass()).isEqualTo(a.admittedByClass());
      assertThat(b.arrivalsByClass()).isEqualTo(a.arrivalsByClass());
      assertThat(b.gpuHoursByType()).isEqualTo(a.gpuHoursByType());
      assertThat(b.utilisationByType()).isEqualTo(a.utilisationByType());
      assertThat(b.meanFreeGpusPerNode()).isEqualTo(a.meanFreeGpusPerNode());
      assertThat(b.statuses()).isEqualTo(a.statuses());
      assertThat(b.rejectionReasons()).isEqualTo(a.rejectionReasons());
      assertThat(b.freeGpusAtRejection()).isEqualTo(a.freeGpusAtRejection());
    }
    assertThat(parallel.bounds()).isEqualTo(sequential.bounds()).hasSize(2 * 3);
  }

  @Test
  void seedsMakeDifferentTracesAndTheStatisticsPairThemPerSeed() {
    ExperimentResult result = run(2);
    List<RunResult> pf = result.runs("performance-first", 40.0);
    assertThat(pf).extracting(RunResult::seed).containsExactly(3L, 4L, 5L);
    assertThat(pf).extracting(RunResult::arrivalsByClass).doesNotHaveDuplicates();
    Interval admitted = result.admitted("performance-first", 40.0);
    assertThat(admitted.mean()).isEqualTo(pf.stream().mapToInt(RunResult::admitted).average().orElseThrow());
    List<RunResult> scarcity = result.runs("rampa-greedy/scarcity", 40.0);
    // the gain is the geometric mean of the per-seed ratios, as a percentage
    double meanLog = (logRatio(scarcity, pf, 0) + logRatio(scarcity, pf, 1) + logRatio(scarcity, pf, 2)) / 3;
    assertThat(result.gainPercent("rampa-greedy/scarcity", "performance-first", 40.0).orElseThrow().mean())
        .isEqualTo(100 * (Math.exp(meanLog) - 1), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(result.gainPercent("rampa-greedy/scarcity", "rampa-exact/capability", 40.0)).as("a reference that did not run").isEmpty();
    for (RunResult r : result.runs()) {
      assertThat(r.admitted()).isLessThanOrEqualTo(result.bound(r.offeredLoad(), r.seed()).orElseThrow().admissions());
    }
  }

  private static double logRatio(List<RunResult> a, List<RunResult> b, int i) {
    return Math.log((double) a.get(i).admitted() / b.get(i).admitted());
  }
}
