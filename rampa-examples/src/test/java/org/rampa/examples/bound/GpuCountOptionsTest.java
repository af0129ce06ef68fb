package org.rampa.examples.bound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.ImmutableStrategyOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.TinyPlacementProblems;
import org.rampa.verify.PlanVerifier;

class GpuCountOptionsTest {

  @Test
  void everyFeasibleSetOfGpusHoldsAnOptionAndEveryOptionIsRealisable() {
    int[] checked = new int[2];
    Property.forSeeds("minimal GPU vectors against brute force", 150, seed -> {
      PlacementProblem tiny = TinyPlacementProblems.generate(seed, 5, 6);
      Cluster cluster = tiny.state().cluster();
      List<int[]> options = GpuCountOptions.of(tiny.request(), cluster);
      for (int[] a : options) {
        for (int[] b : options) {
          assertThat(a != b && GpuCountOptions.atMost(a, b)).as("options are pairwise incomparable").isFalse();
        }
      }
      List<Gpu> gpus = cluster.gpus();
      List<int[]> feasibleWithoutTransfers = new ArrayList<>();
      for (int mask = 1; mask < (1 << gpus.size()); mask++) {
        ClusterState onlyMask = onlyFree(cluster, mask);
        // the problem's own transfer mode: a plan any strategy could return, topology and links included
        Optional<BruteForcePlacement.Optimum> real = BruteForcePlacement.solve(problem(tiny, onlyMask, tiny.performance().transferMode()));
        if (real.isPresent()) {
          Plan plan = real.get().plan();
          assertThat(new PlanVerifier(tiny.performance()).verify(tiny.request(), plan, onlyMask).ok()).isTrue();
          int[] used = gpusPerType(cluster, plan);
          assertThat(options).as("a verified plan using %s", Arrays.toString(used))
              .anyMatch(o -> GpuCountOptions.atMost(o, used));
          checked[0]++;
        }
        if (BruteForcePlacement.solve(problem(tiny, onlyMask, TransferMode.NONE)).isPresent()) {
          feasibleWithoutTransfers.add(count(cluster, mask));
        }
      }
      // minimal: each option is the GPU count of some set that is feasible when transfers are free
      for (int[] o : options) {
        assertThat(feasibleWithoutTransfers).as("option %s is realisable", Arrays.toString(o)).anyMatch(v -> Arrays.equals(v, o));
        checked[1]++;
      }
    });
    // the generator must produce feasible instances, or the property holds vacuously
    assertThat(checked[0]).as("verified plans checked").isGreaterThan(500);
    assertThat(checked[1]).as("options checked").isGreaterThan(50);
  }

  private static PlacementProblem problem(PlacementProblem tiny, ClusterState state, TransferMode transfers) {
    return PlacementProblem.of(tiny.request(), state, tiny.importance(), ImmutableStrategyOptions.copyOf(tiny.options()).withTransfers(transfers));
  }

  /** The state in which exactly the GPUs of {@code mask} are free, the others held by dummy services. */
  private static ClusterState onlyFree(Cluster cluster, int mask) {
    ClusterState state = ClusterState.empty(cluster);
    for (int i = 0; i < cluster.gpus().size(); i++) {
      if ((mask & (1 << i)) == 0) {
        state = state.allocate(RandomInstances.holdPlan("hold" + i, cluster.gpus().get(i).id()));
      }
    }
    return state;
  }

  private static int[] count(Cluster cluster, int mask) {
    int[] v = new int[cluster.gpuTypes().size()];
    for (int i = 0; i < cluster.gpus().size(); i++) {
      if ((mask & (1 << i)) != 0) {
        v[typeIndex(cluster, cluster.gpus().get(i).type())]++;
      }
    }
    return v;
  }

  private static int[] gpusPerType(Cluster cluster, Plan plan) {
    int[] v = new int[cluster.gpuTypes().size()];
    for (Stage s : plan.stages()) {
      for (String g : s.gpus()) {
        v[typeIndex(cluster, cluster.gpu(g).type())]++;
      }
    }
    return v;
  }

  private static int typeIndex(Cluster cluster, String type) {
    for (int t = 0; t < cluster.gpuTypes().size(); t++) {
      if (cluster.gpuTypes().get(t).name().equals(type)) {
        return t;
      }
    }
    throw new AssertionError(type);
  }
}
