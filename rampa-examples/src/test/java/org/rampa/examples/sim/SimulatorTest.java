package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.domain.Cluster;
import org.rampa.examples.experiment.Planners;
import org.rampa.examples.experiment.Presets;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.StrategyOptions;

class SimulatorTest {

  private final Cluster cluster = Presets.cluster("small");
  private final Workload workload = Workload.of(WorkloadSpec.standardMix(), cluster);
  private final Simulator simulator = new Simulator(cluster, workload, PerformanceModel.defaults());

  private ArrivalTrace trace(long seed) {
    return ArrivalTrace.poisson(workload, 24.0 / 3600, 3600, 150, seed);
  }

  @Test
  void sameSeedGivesIdenticalResults() {
    for (String planner : List.of("rampa-greedy/scarcity", "performance-first")) {
      PlannerSpec spec = Planners.named(planner, StrategyOptions.defaults());
      RunResult a = simulator.run(spec, trace(5), 24);
      RunResult b = simulator.run(spec, trace(5), 24);
      assertThat(b.admitted()).isEqualTo(a.admitted());
      assertThat(b.admittedByClass()).isEqualTo(a.admittedByClass());
      assertThat(b.gpuHoursByType()).isEqualTo(a.gpuHoursByType());
      assertThat(b.rejectionReasons()).isEqualTo(a.rejectionReasons());
    }
    assertThat(trace(5).arrivals()).isEqualTo(trace(5).arrivals());
    assertThat(trace(5).arrivals()).isNotEqualTo(trace(6).arrivals());
  }

  @Test
  void everyAdmittedPlanPassedTheVerifierAndTheBookkeepingAddsUp() {
    RunResult r = simulator.run(Planners.named("rampa-greedy/capability", StrategyOptions.defaults()), trace(9), 24);
    assertThat(r.violations()).isZero();
    assertThat(r.admitted()).isPositive().isLessThanOrEqualTo(r.arrivals());
    assertThat(r.arrivalsByClass().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(r.arrivals());
    assertThat(r.admittedByClass().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(r.admitted());
    int rejected = r.rejectionReasons().values().stream().mapToInt(Integer::intValue).sum();
    assertThat(rejected).isEqualTo(r.arrivals() - r.admitted());
    r.utilisationByType().values().forEach(u -> assertThat(u).isBetween(0.0, 1.0));
    assertThat(r.statuses().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(r.arrivals());
  }

  @Test
  void aTraceWrittenToCsvReplaysIdentically(@TempDir Path dir) {
    ArrivalTrace original = trace(3);
    Path file = dir.resolve("trace.csv");
    original.write(file);
    ArrivalTrace replayed = ArrivalTrace.read(file, workload.classes().size());
    assertThat(replayed.arrivals()).hasSameSizeAs(original.arrivals());
    PlannerSpec spec = Planners.named("rampa-greedy/uniform", StrategyOptions.defaults());
    assertThat(simulator.run(spec, replayed, 24).admitted()).isEqualTo(simulator.run(spec, original, 24).admitted());
  }

  @Test
  void aMalformedTraceNamesTheLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.csv");
    Files.writeString(file, "arrival_s,class,lifetime_s\n1.0,0,5\n0.5,0,5\n");
    assertThatThrownBy(() -> ArrivalTrace.read(file, 3)).hasMessageContaining("line 3").hasMessageContaining("time order");
    Files.writeString(file, "arrival_s,class,lifetime_s\n1.0,7,5\n");
    assertThatThrownBy(() -> ArrivalTrace.read(file, 3)).hasMessageContaining("line 2 class = 7");
  }
}
