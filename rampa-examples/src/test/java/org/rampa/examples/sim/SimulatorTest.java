package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.Rampa;
import org.rampa.domain.Cluster;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.experiment.Schedulers;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;

class SimulatorTest {

  private final Cluster cluster = Presets.cluster("small");
  private final WorkloadForecast workload = WorkloadSpec.standardMix().resolve(cluster);
  private final Simulator simulator = new Simulator(cluster, workload);

  private ArrivalTrace trace(long seed) {
    return ArrivalTrace.poisson(workload, 24.0 / 3600, 3600, 150, seed);
  }

  @Test
  void sameSeedGivesIdenticalResults() {
    for (String planner : List.of("rampa-greedy/scarcity", "performance-first")) {
      SchedulerSpec spec = Schedulers.named(planner, StrategyOptions.defaults());
      RunResult a = simulator.run(spec, trace(5), 24, 1);
      RunResult b = simulator.run(spec, trace(5), 24, 1);
      assertThat(b.admitted()).isEqualTo(a.admitted());
      assertThat(b.admittedByClass()).isEqualTo(a.admittedByClass());
      assertThat(b.gpuHoursByType()).isEqualTo(a.gpuHoursByType());
      assertThat(b.rejectionReasons()).isEqualTo(a.rejectionReasons());
    }
    assertThat(trace(5).arrivals()).isEqualTo(trace(5).arrivals());
    assertThat(trace(5).arrivals()).isNotEqualTo(trace(6).arrivals());
  }

  @Test
  void everyAdmittedPlanWasVerifiedAndCommittedAndTheBookkeepingAddsUp() {
    RunResult r = simulator.run(Schedulers.named("rampa-greedy/capability", StrategyOptions.defaults()), trace(9), 24, 1);
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
  void aSchedulerWithSharingOnAdmitsThroughTheGuardWithoutViolations() {
    StrategyOptions sharing = SharingOptions.on().applyTo(StrategyOptions.defaults());
    RunResult r = simulator.run(Schedulers.named("rampa-greedy/capability", sharing), trace(9), 24, 1);
    assertThat(r.violations()).isZero();
    assertThat(r.admitted()).isPositive();
    assertThat(r.rejectionReasons().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(r.arrivals() - r.admitted());
    RunResult whole = simulator.run(Schedulers.named("rampa-greedy/capability", StrategyOptions.defaults()), trace(9), 24, 1);
    System.out.printf("rampa-greedy/capability, small preset, trace 9: sharing off admits %d/%d (%.1f GPU-hours), on %d/%d (%.1f GPU-hours)%n",
        whole.admitted(), whole.arrivals(), whole.gpuHoursByType().values().stream().mapToDouble(Double::doubleValue).sum(),
        r.admitted(), r.arrivals(), r.gpuHoursByType().values().stream().mapToDouble(Double::doubleValue).sum());
  }

  @Test
  void aPlanTheVerifierRejectsIsCountedAsAViolationAndNotAdmitted() {
    // a broken strategy: every service on the cluster's first GPU, covering only the first layer
    PlacementStrategy broken = new PlacementStrategy() {
      @Override
      public String name() {
        return "broken";
      }

      @Override
      public PlacementResult place(PlacementProblem problem) {
        return PlacementResult.builder().status(SolveStatus.FEASIBLE).strategy(name()).solveTime(Duration.ZERO)
            .plan(RandomInstances.holdPlan(problem.request().id(), cluster.gpus().get(0).id())).build();
      }
    };
    Rampa.Placer planner = Rampa.on(cluster).strategy(broken);
    RunResult r = simulator.run(new SchedulerSpec("broken", c -> () -> planner), trace(2), 24, 1);
    assertThat(r.admitted()).isZero();
    assertThat(r.violations()).isEqualTo(r.arrivals());
    assertThat(r.rejectionReasons()).containsOnlyKeys("plan rejected by the verifier: COVERAGE");
  }

  @Test
  void aTraceWrittenToCsvReplaysIdentically(@TempDir Path dir) {
    ArrivalTrace original = trace(3);
    Path file = dir.resolve("trace.csv");
    original.write(file);
    ArrivalTrace replayed = ArrivalTrace.read(file, workload.classes().size());
    assertThat(replayed.arrivals()).hasSameSizeAs(original.arrivals());
    SchedulerSpec spec = Schedulers.named("rampa-greedy/uniform", StrategyOptions.defaults());
    assertThat(simulator.run(spec, replayed, 24, 1).admitted()).isEqualTo(simulator.run(spec, original, 24, 1).admitted());
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
