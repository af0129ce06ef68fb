package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.RandomInstances;

class MarginalAcceptanceLossTest {

  private static final long GB = 1L << 30;

  /** Holds one whole GPU for a dummy service. */
  static ClusterState hold(ClusterState state, String gpu) {
    return state.allocate(RandomInstances.holdPlan("hold-" + gpu, gpu));
  }

  /** One layer too big for a 24 GB GPU but fine on an 80 GB one, with an easy SLO. */
  private static ServiceRequest bigLayerService(SplittableRandom r, String id) {
    List<Layer> layers = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    int big = r.nextInt(n);
    for (int i = 0; i < n; i++) {
      layers.add(Layer.builder().name("l" + i).flopsPerSample(1e9)
          .weightBytes(i == big ? (30 + r.nextInt(40)) * GB : GB).outputBytesPerSample(1000).build());
    }
    return ServiceRequest.builder().id(id).model(Model.of("big-" + id, layers))
        .slo(org.rampa.domain.Slo.of(1, Duration.ofSeconds(10), 1)).maxStages(n).build();
  }

  @Test
  void theGpuEveryForecastServiceNeedsCostsMoreThanOneNoServiceCanUse() {
    for (long seed = 0; seed < 40; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      SplittableRandom r = ri.random();
      var types = RandomInstances.threeTypes(); // slow 16 GB, mid 24 GB, fast 80 GB
      var b = Cluster.builder().gpuTypes(types).network(RandomInstances.network());
      int nodes = 3 + r.nextInt(5);
      for (int n = 0; n < nodes; n++) {
        String type = n == 0 ? "fast" : types.get(r.nextInt(3)).name();
        b.addNodes(Node.of("n" + n, RandomInstances.nvlink()));
        for (int g = 0; g < 1 + r.nextInt(4); g++) {
          b.addGpus(Gpu.of("n" + n + "g" + g, type, "n" + n));
        }
      }
      Cluster cluster = b.build();
      ClusterState state = ClusterState.empty(cluster);
      String theFastOne = "n0g0";
      for (Gpu g : cluster.gpus()) {
        if (g.type().equals("fast") && !g.id().equals(theFastOne)) {
          state = hold(state, g.id());
        }
      }
      var forecast = WorkloadForecast.builder();
      for (int c = 0; c < 1 + r.nextInt(4); c++) {
        forecast.add(bigLayerService(r, "c" + c), 0.5 + r.nextDouble());
      }
      GpuCosts costs = ImportanceModels.marginalAcceptanceLoss(forecast.build()).evaluate(state);

      assertThat(costs.of(theFastOne)).as("seed %d: the only GPU that can hold any forecast service", seed).isEqualTo(1.0);
      for (Gpu g : cluster.gpus()) {
        if (!g.type().equals("fast")) {
          assertThat(costs.of(g.id())).as("seed %d: %s cannot hold any forecast service", seed, g.id()).isZero();
        }
      }
    }
  }

  /**
   * Four stages of 60 GiB, each needing its own 80 GiB GPU, with 10 GB per sample between stages:
   * 33 ms per cut over NVLink, 0.8 s over the network. About 0.3 s on one node against a 0.6 s
   * bound, so only a node with four free GPUs can serve it.
   */
  private static ServiceRequest needsAWholeNode() {
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      layers.add(Layer.builder().name("l" + i).flopsPerSample(1e9).weightBytes(60 * GB).outputBytesPerSample(10_000_000_000L).build());
    }
    return ServiceRequest.builder().id("whole-node").model(Model.of("whole-node", layers))
        .slo(org.rampa.domain.Slo.of(1, Duration.ofMillis(600), 1)).maxStages(4).build();
  }

  @Test
  void onlyTheGpusOfTheLastFullyFreeNodeCarryTheLoss() {
    for (long seed = 0; seed < 20; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      SplittableRandom r = ri.random();
      var b = Cluster.builder().addGpuTypes(RandomInstances.threeTypes().get(2)).network(RandomInstances.network());
      int nodes = 2 + r.nextInt(5);
      for (int n = 0; n < nodes; n++) {
        b.addNodes(Node.of("n" + n, RandomInstances.nvlink()));
        for (int g = 0; g < 4; g++) {
          b.addGpus(Gpu.of("n" + n + "g" + g, "fast", "n" + n));
        }
      }
      Cluster cluster = b.build();
      int fullyFree = 1 + r.nextInt(2); // nodes n0 (and n1) stay whole; the others lose 1..4 GPUs
      ClusterState state = ClusterState.empty(cluster);
      for (int n = fullyFree; n < nodes; n++) {
        for (int g = 0, held = 1 + r.nextInt(4); g < held; g++) {
          state = hold(state, "n" + n + "g" + g);
        }
      }
      WorkloadForecast forecast = WorkloadForecast.builder().add(needsAWholeNode(), 1).build();
      GpuCosts costs = ImportanceModels.marginalAcceptanceLoss(forecast).evaluate(state);
      for (Gpu g : state.freeGpus()) {
        boolean onWholeNode = Integer.parseInt(g.node().substring(1)) < fullyFree;
        double expected = onWholeNode && fullyFree == 1 ? 1.0 : 0.0;
        assertThat(costs.of(g.id())).as("seed %d, %d fully free node(s), gpu %s", seed, fullyFree, g.id()).isEqualTo(expected);
      }
    }
  }

  /** The model's answer against a direct computation that removes every GPU, no equivalence classes. */
  @Test
  void equivalenceClassesGiveTheSameCostsAsRemovingEachGpu() {
    int positive = 0;
    for (long seed = 0; seed < 25; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(3 + ri.random().nextInt(5), 4, 1 + ri.random().nextInt(3));
      ClusterState state = ri.partiallyAllocated(cluster, 0.3 + 0.6 * ri.random().nextDouble());
      WorkloadForecast forecast = TestInstances.forecast(ri, 1 + ri.random().nextInt(4));
      PerformanceModel perf = TestInstances.performance(ri);
      Placeability oracle = Placeability.singleType(perf);
      int samples = 50;
      long drawSeed = ri.random().nextLong();
      GpuCosts costs = ImportanceModels.marginalAcceptanceLoss(() -> forecast, oracle, samples, drawSeed).evaluate(state);

      int[] draws = new int[forecast.classes().size()];
      SplittableRandom random = new SplittableRandom(drawSeed);
      for (int i = 0; i < samples; i++) {
        draws[forecast.sampleIndex(random)]++;
      }
      for (Gpu g : cluster.gpus()) {
        double expected = 0;
        if (state.isFree(g.id())) {
          ClusterState without = hold(state, g.id());
          for (int c = 0; c < draws.length; c++) {
            ServiceRequest r = forecast.classes().get(c).template();
            if (oracle.canPlace(r, state) && !oracle.canPlace(r, without)) {
              expected += draws[c];
            }
          }
          expected /= samples;
        }
        assertThat(costs.of(g.id())).as("seed %d gpu %s", seed, g.id()).isCloseTo(expected, within(1e-12));
        if (expected > 0) {
          positive++;
        }
      }
    }
    assertThat(positive).as("GPUs with a positive loss").isPositive();
  }

  @Test
  void anEmptyForecastCostsNothingAndARepeatedStateHitsTheCache() {
    RandomInstances ri = new RandomInstances(7);
    Cluster cluster = ri.cluster(5, 4, 3);
    ClusterState state = ri.partiallyAllocated(cluster, 0.5);
    assertThat(ImportanceModels.marginalAcceptanceLoss(WorkloadForecast.empty()).evaluate(state).of(cluster.gpus().get(0).id()))
        .isZero();
    WorkloadForecast forecast = TestInstances.forecast(ri, 3);
    var model = (MarginalAcceptanceLoss) ImportanceModels.marginalAcceptanceLoss(forecast);
    GpuCosts first = model.evaluate(state);
    long calls = model.oracleCalls.get();
    GpuCosts second = model.evaluate(state);
    assertThat(model.oracleCalls.get()).isEqualTo(calls);
    assertThat(model.cacheHits.get()).isEqualTo(1);
    for (Gpu g : cluster.gpus()) {
      assertThat(second.of(g.id())).isEqualTo(first.of(g.id()));
    }
  }

  @Test
  void drawCountsOutsideTheirBoundsAreRefusedAtTheCall() {
    WorkloadForecast forecast = WorkloadForecast.of(List.of());
    Placeability oracle = Placeability.singleType(PerformanceModel.defaults());
    for (int samples : new int[] {0, -1, ImportanceModels.MAX_SAMPLES + 1, Integer.MAX_VALUE}) {
      assertThatThrownBy(() -> ImportanceModels.marginalAcceptanceLoss(() -> forecast, oracle, samples, 1))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("marginalAcceptanceLoss.samples = " + samples);
    }
  }
}
