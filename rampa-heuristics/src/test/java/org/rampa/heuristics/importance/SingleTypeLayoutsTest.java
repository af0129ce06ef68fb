package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.PlanVerifier;

class SingleTypeLayoutsTest {

  private static final int GPUS = 6;

  /** Oracle: every split into at most K_max stages, every replica vector, judged by the verifier. */
  private static int bruteForceFewestGpus(ServiceRequest request, Cluster cluster, PerformanceModel perf) {
    int layers = request.model().size();
    int[] best = {Integer.MAX_VALUE};
    PlanVerifier verifier = new PlanVerifier(perf);
    ClusterState empty = ClusterState.empty(cluster);
    List<List<Integer>> splits = new ArrayList<>();
    splits(1, layers, new ArrayList<>(List.of(0)), Math.min(layers, request.maxStages()), splits);
    for (List<Integer> bounds : splits) {
      int stages = bounds.size() - 1;
      int[] replicas = new int[stages];
      java.util.Arrays.fill(replicas, 1);
      while (true) {
        int total = java.util.Arrays.stream(replicas).sum();
        if (total <= GPUS && total < best[0]) {
          List<StageAssignment> assignment = new ArrayList<>();
          int next = 0;
          for (int k = 0; k < stages; k++) {
            List<String> gpus = new ArrayList<>();
            for (int i = 0; i < replicas[k]; i++) {
              gpus.add("g" + next++);
            }
            assignment.add(StageAssignment.whole(bounds.get(k), bounds.get(k + 1), gpus));
          }
          Plan plan = perf.plan(request, assignment, cluster, 0, "brute");
          if (verifier.verify(request, plan, empty).ok()) {
            best[0] = total;
          }
        }
        int k = 0;
        while (k < stages && ++replicas[k] > GPUS) {
          replicas[k++] = 1;
        }
        if (k == stages) {
          break;
        }
      }
    }
    return best[0] == Integer.MAX_VALUE ? -1 : best[0];
  }

  private static void splits(int from, int layers, List<Integer> bounds, int maxStages, List<List<Integer>> out) {
    if (bounds.size() - 1 == maxStages) {
      return;
    }
    for (int to = from; to <= layers; to++) {
      bounds.add(to);
      if (to == layers) {
        out.add(List.copyOf(bounds));
      } else {
        splits(to + 1, layers, bounds, maxStages, out);
      }
      bounds.remove(bounds.size() - 1);
    }
  }

  @Test
  void fewestGpusEqualsBruteForceOnTinyInstances() {
    int feasible = 0;
    int infeasible = 0;
    for (long seed = 0; seed < 80; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      GpuType type = RandomInstances.threeTypes().get(ri.random().nextInt(3));
      var b = Cluster.builder().addGpuTypes(type).network(RandomInstances.network()).addNodes(Node.of("n", RandomInstances.nvlink()));
      for (int g = 0; g < GPUS; g++) {
        b.addGpus(Gpu.of("g" + g, type.name(), "n"));
      }
      Cluster cluster = b.build();
      var r = ri.random();
      ServiceRequest request = ri.request("s", ri.model(1 + r.nextInt(5), 1 + r.nextDouble() * 30, 0.3),
          5 + r.nextInt(400), java.time.Duration.ofMillis(2 + r.nextInt(100)), 1 + r.nextInt(3), 1 + r.nextInt(3));
      PerformanceModel perf = TestInstances.performance(ri);

      Optional<StageLayout> layout = new SingleTypeLayouts(perf).fewestGpus(request, type, RandomInstances.nvlink(), GPUS);
      int expected = bruteForceFewestGpus(request, cluster, perf);

      assertThat(layout.map(StageLayout::gpus).orElse(-1)).as("seed %d, %s", seed, perf.transferMode()).isEqualTo(expected);
      if (layout.isPresent()) {
        feasible++;
        List<String> ids = new ArrayList<>();
        for (int g = 0; g < layout.get().gpus(); g++) {
          ids.add("g" + g);
        }
        Plan plan = perf.plan(request, layout.get().assign(ids), cluster, 0, "layout");
        assertThat(new PlanVerifier(perf).verify(request, plan, ClusterState.empty(cluster)).violations())
            .as("seed %d", seed).isEmpty();
      } else {
        infeasible++;
      }
    }
    assertThat(feasible).as("feasible instances").isGreaterThan(10);
    assertThat(infeasible).as("infeasible instances").isGreaterThan(5);
  }
}
