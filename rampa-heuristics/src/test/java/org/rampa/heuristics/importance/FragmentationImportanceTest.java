package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.importance.GpuCosts;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.ReferenceWorkloads;

/**
 * Definition under test: a node is <em>fully free</em> when none of its GPUs is held, and
 * <em>fragmented</em> when some but not all are. Taking a free GPU from a fully free node must cost
 * more than taking a free GPU from a fragmented node with as many GPUs of that type.
 */
class FragmentationImportanceTest {

  @Test
  void aFullyFreeNodesGpuCostsMoreThanAFragmentedNodesGpu() {
    int compared = 0;
    for (long seed = 0; seed < 100; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(4 + ri.random().nextInt(8), 8, 3); // one type per node
      ClusterState state = ri.partiallyAllocated(cluster, ri.random().nextDouble());
      GpuCosts costs = ImportanceModels.fragmentation().evaluate(state);
      for (Gpu a : state.freeGpus()) {
        for (Gpu b : state.freeGpus()) {
          int size = cluster.gpusOn(a.node()).size();
          if (size == cluster.gpusOn(b.node()).size() && fullyFree(state, a.node()) && fragmented(state, b.node())) {
            assertThat(costs.of(a.id())).as("seed %d: %s (fully free node) vs %s", seed, a.id(), b.id())
                .isGreaterThan(costs.of(b.id()));
            compared++;
          }
        }
      }
      int largest = cluster.nodes().stream().mapToInt(n -> cluster.gpusOn(n.id()).size()).max().orElseThrow();
      for (Gpu g : cluster.gpus()) {
        long b = cluster.gpusOn(g.node()).stream().filter(x -> state.isFree(x.id()) || x == g).count();
        assertThat(costs.of(g.id())).as("seed %d gpu %s", seed, g.id())
            .isCloseTo((2.0 * b - 1) / (2.0 * largest - 1), within(1e-12));
      }
    }
    assertThat(compared).isGreaterThan(100);
  }

  @Test
  void fourGpuNodes() {
    Cluster cluster = ReferenceWorkloads.fleet(2, 4);
    ClusterState state = ClusterState.empty(cluster);
    for (int g = 0; g < 3; g++) {
      state = MarginalAcceptanceLossTest.hold(state, "node1-gpu" + g);
    }
    GpuCosts costs = ImportanceModels.fragmentation().evaluate(state);
    assertThat(costs.of("node0-gpu0")).isEqualTo(1.0); // block of 4: loses 16 - 9 = 7 of at most 7
    assertThat(costs.of("node1-gpu3")).isCloseTo(1.0 / 7, within(1e-12)); // last free GPU: loses 1 - 0
  }

  private static boolean fullyFree(ClusterState s, String node) {
    return s.cluster().gpusOn(node).stream().allMatch(g -> s.isFree(g.id()));
  }

  private static boolean fragmented(ClusterState s, String node) {
    return s.cluster().gpusOn(node).stream().anyMatch(g -> s.isFree(g.id()))
        && s.cluster().gpusOn(node).stream().anyMatch(g -> !s.isFree(g.id()));
  }
}
