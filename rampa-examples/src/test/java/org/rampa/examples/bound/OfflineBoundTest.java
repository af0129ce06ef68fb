package org.rampa.examples.bound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.experiment.Schedulers;
import org.rampa.examples.sim.Arrival;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.examples.sim.Simulator;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.strategy.StrategyOptions;

class OfflineBoundTest {

  @Test
  void capacityBindsOnlyWhileServicesOverlap() {
    // one type of 2 GPUs, one class that needs 1 of them: three overlapping arrivals, then one
    // after all have left
    List<List<int[]>> options = List.of(List.of(new int[] {1}));
    ArrivalTrace trace = new ArrivalTrace(List.of(new Arrival(0, 0, 0, 10), new Arrival(1, 1, 0, 10), new Arrival(2, 2, 0, 10),
        new Arrival(3, 20, 0, 10)));
    OfflineBound.Result bound = OfflineBound.of(trace, options, new int[] {2}, -1);
    assertThat(bound.admissions()).isEqualTo(3);
    assertThat(bound.proven()).isTrue();
    assertThat(bound.lpRelaxation()).isEqualTo(3.0, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void aServiceLeavingAtAnArrivalInstantFreesItsGpusForIt() {
    List<List<int[]>> options = List.of(List.of(new int[] {1, 0}, new int[] {0, 2}));
    // the second arrival comes exactly when the first leaves, as the simulator releases first
    ArrivalTrace trace = new ArrivalTrace(List.of(new Arrival(0, 0, 0, 5), new Arrival(1, 5, 0, 5), new Arrival(2, 6, 0, 5)));
    assertThat(OfflineBound.of(trace, options, new int[] {1, 2}, -1).admissions()).isEqualTo(3);
    assertThat(OfflineBound.of(trace, options, new int[] {1, 1}, -1).admissions()).isEqualTo(2);
  }

  @Test
  void fractionalFootprintsTakeAPartOfAGpuEach() {
    // one GPU's compute; each service is charged 0.3 of it: three fit at once, a fourth only after they left
    List<List<double[]>> options = List.of(List.of(new double[] {0.3}));
    ArrivalTrace trace = new ArrivalTrace(List.of(new Arrival(0, 0, 0, 10), new Arrival(1, 1, 0, 10), new Arrival(2, 2, 0, 10),
        new Arrival(3, 3, 0, 10), new Arrival(4, 20, 0, 10)));
    OfflineBound.Result bound = OfflineBound.of(trace, options, new double[] {1}, -1);
    assertThat(bound.admissions()).isEqualTo(4);
    assertThat(bound.proven()).isTrue();
    assertThat(bound.lpRelaxation()).isEqualTo(1 + 1 / 0.3, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void aSeveralTypesFootprintCountsOnlyInTheSums() {
    // components: type A's compute, type B's compute, their sum; one GPU of each. The class runs on A
    // alone (0.6), on B alone (0.6) or over both (0.7 in all): one on A, one on B and one over both
    // sum to 1.9; two over both and one on A to 2.0; a fourth breaks a type or the sum.
    List<List<double[]>> options = List.of(List.of(new double[] {0.6, 0, 0.6}, new double[] {0, 0.6, 0.6}, new double[] {0, 0, 0.7}));
    ArrivalTrace trace = new ArrivalTrace(List.of(new Arrival(0, 0, 0, 10), new Arrival(1, 1, 0, 10), new Arrival(2, 2, 0, 10),
        new Arrival(3, 3, 0, 10)));
    assertThat(OfflineBound.of(trace, options, new double[] {1, 1, 2}, -1).admissions()).isEqualTo(3);
    // without the several-types footprint only one fits per type
    assertThat(OfflineBound.of(trace, List.of(options.get(0).subList(0, 2)), new double[] {1, 1, 2}, -1).admissions()).isEqualTo(2);
  }

  @Test
  void noSchedulerAdmitsMoreThanTheBound() {
    Cluster cluster = Presets.cluster("small");
    WorkloadForecast workload = WorkloadSpec.standardMix().resolve(cluster);
    List<List<int[]>> options = new ArrayList<>();
    for (ServiceClass c : workload.classes()) {
      options.add(GpuCountOptions.of(c.template(), cluster));
    }
    Simulator simulator = new Simulator(cluster, workload);
    for (long seed = 1; seed <= 2; seed++) {
      ArrivalTrace trace = ArrivalTrace.poisson(workload, 40.0 / 3600, 3600, 120, seed);
      OfflineBound.Result root = OfflineBound.of(trace, options, GpuCountOptions.capacity(cluster), OfflineBound.ROOT_ONLY);
      OfflineBound.Result proven = OfflineBound.of(trace, options, GpuCountOptions.capacity(cluster), -1);
      assertThat(proven.proven()).isTrue();
      assertThat(root.admissions()).isGreaterThanOrEqualTo(proven.admissions()).isLessThanOrEqualTo((int) Math.floor(root.lpRelaxation() + 1e-6));
      for (String name : List.of("performance-first", "first-fit", "rampa-greedy/capability", "rampa-dp/scarcity")) {
        int admitted = simulator.run(Schedulers.named(name, StrategyOptions.defaults()), trace, 40, seed).admitted();
        assertThat(admitted).as("%s, seed %d", name, seed).isLessThanOrEqualTo(proven.admissions());
      }
    }
  }
}
