package org.rampa.examples.bound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.MpsShare;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.experiment.Schedulers;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.examples.sim.Simulator;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.StrategyOptions;

class SharedFootprintsTest {

  @Test
  void capacityIsEachTypesGpusInComputeAndMemoryThenTheirSums() {
    // one GPU of each of T4, A10, A100, H100 (in cluster type order)
    Cluster cluster = ClusterPresets.mixed(new int[] {1, 1, 1, 1}, 2);
    double[] none = SharedFootprints.capacity(cluster, 0);
    List<GpuType> types = cluster.gpuTypes();
    assertThat(none).hasSize(2 * types.size() + 2);
    for (int t = 0; t < types.size(); t++) {
      assertThat(none[2 * t]).isCloseTo(2, org.assertj.core.data.Offset.offset(1e-6));
      assertThat(none[2 * t + 1]).isEqualTo(2);
    }
    assertThat(none[2 * types.size()]).isCloseTo(8, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(none[2 * types.size() + 1]).isEqualTo(8);
    // an overcommit of 0.5 lets MPS types' shares sum to 1.5 per GPU; memory and types without MPS keep theirs
    double[] over = SharedFootprints.capacity(cluster, 0.5);
    for (int t = 0; t < types.size(); t++) {
      assertThat(over[2 * t]).isCloseTo(types.get(t).partitioning().mps() ? 3 : 2, org.assertj.core.data.Offset.offset(1e-6));
      assertThat(over[2 * t + 1]).isEqualTo(2);
    }
    assertThatThrownBy(() -> SharedFootprints.capacity(cluster, -0.1)).hasMessageContaining("mpsOvercommit");
  }

  @Test
  void footprintsAreOnePerTypeAPlanFitsOnAloneThenOneForSeveralTypesCountedInTheSumsOnly() {
    Cluster cluster = Presets.cluster("small");
    int types = cluster.gpuTypes().size();
    for (ServiceClass c : WorkloadSpec.named("light").resolve(cluster).classes()) {
      List<double[]> footprints = SharedFootprints.of(c.template(), cluster, 0);
      assertThat(footprints).as(c.template().id()).isNotEmpty();
      for (double[] f : footprints) {
        double compute = 0;
        double memory = 0;
        int onTypes = 0;
        for (int t = 0; t < types; t++) {
          compute += f[2 * t];
          memory += f[2 * t + 1];
          onTypes += f[2 * t] > 0 || f[2 * t + 1] > 0 ? 1 : 0;
        }
        assertThat(onTypes).isLessThanOrEqualTo(1);
        if (onTypes == 1) {
          // a single-type footprint counts in its type and in the sums alike
          assertThat(f[2 * types]).isEqualTo(compute);
          assertThat(f[2 * types + 1]).isEqualTo(memory);
        }
        // every holding keeps at least its stage's memory: nothing fits in no memory
        assertThat(f[2 * types + 1]).as(c.template().id()).isPositive();
      }
    }
  }

  /**
   * The bound's one assumption (SharedFootprints's Javadoc): a stage's time alone on an MPS share
   * never increases with the share. Checked on the grid the bound uses, for every stage of every
   * class of both E4 workloads on every MPS type of the small cluster, with the time tiers E4 uses.
   */
  @Test
  void stageTimesNeverIncreaseWithTheMpsShareOnTheE4Workloads() {
    Cluster cluster = Presets.cluster("small");
    PerformanceModel model = PerformanceModel.withTransfers(TransferMode.NONE);
    int checked = 0;
    for (String workload : List.of("light", "standard")) {
      for (ServiceClass c : WorkloadSpec.named(workload).resolve(cluster).classes()) {
        Model m = c.template().model();
        int batch = c.template().slo().batchSize();
        for (GpuType type : cluster.gpuTypes()) {
          if (!type.partitioning().mps()) {
            continue;
          }
          List<DeviceKind> kinds = new ArrayList<>();
          for (int k = 1; k <= SharedFootprints.MPS_GRID; k++) {
            kinds.add(DeviceKind.of(type, new MpsShare((double) k / SharedFootprints.MPS_GRID, 0)));
          }
          for (int i = 0; i < m.size(); i++) {
            StageCursor cursor = model.cursor(m, batch, i, kinds);
            while (cursor.canAdd()) {
              cursor.add();
              for (int k = 1; k < kinds.size(); k++) {
                assertThat(cursor.seconds(k)).as("%s [%d, %d) on %s at share %d/%d", m.name(), i, cursor.to(), type.name(), k + 1,
                    SharedFootprints.MPS_GRID).isLessThanOrEqualTo(cursor.seconds(k - 1));
                checked++;
              }
            }
          }
        }
      }
    }
    assertThat(checked).isPositive();
  }

  /**
   * On small seeded traces over a cluster of one GPU per type, where capacity binds, no simulated
   * scheduler (whole GPUs, sharing, sharing with moves) admits more than the bound with sharing.
   */
  @Test
  void noSimulatedSchedulerAdmitsMoreThanTheBoundWithSharing() {
    Cluster cluster = ClusterPresets.mixed(new int[] {1, 1, 1, 1}, 1);
    boolean binds = false;
    for (String name : List.of("light", "standard")) {
      WorkloadForecast workload = WorkloadSpec.named(name).resolve(cluster);
      double overcommit = ClusterState.empty(cluster).mpsOvercommit();
      List<List<double[]>> options = new ArrayList<>();
      for (ServiceClass c : workload.classes()) {
        options.add(SharedFootprints.of(c.template(), cluster, overcommit));
      }
      double[] capacity = SharedFootprints.capacity(cluster, overcommit);
      Simulator simulator = new Simulator(cluster, workload);
      for (long seed = 1; seed <= 3; seed++) {
        double load = name.equals("light") ? 1000 : 6;
        ArrivalTrace trace = ArrivalTrace.poisson(workload, load / 3600, 3600, name.equals("light") ? 120 : 50, seed);
        OfflineBound.Result bound = OfflineBound.of(trace, options, capacity, -1);
        assertThat(bound.proven()).isTrue();
        binds |= bound.admissions() < trace.arrivals().size();
        for (String scheduler : List.of("rampa-greedy/capability", "rampa-greedy/capability+sharing",
            "rampa-greedy/capability+sharing" + Schedulers.MOVES_SUFFIX)) {
          int admitted = simulator.run(Schedulers.named(scheduler, StrategyOptions.defaults()), trace, load, seed).admitted();
          assertThat(admitted).as("%s on %s, seed %d", scheduler, name, seed).isLessThanOrEqualTo(bound.admissions());
        }
      }
    }
    assertThat(binds).as("the bound binds on some trace, so the comparison says something").isTrue();
  }
}
