package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.RandomInstances;

class ScarcityImportanceTest {

  @Test
  void aTypesCostRisesWhenItsFreeCapacityFalls() {
    int strict = 0;
    for (long seed = 0; seed < 60; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(3 + ri.random().nextInt(6), 4, 1 + ri.random().nextInt(3));
      ClusterState before = ri.partiallyAllocated(cluster, ri.random().nextDouble() * 0.6);
      WorkloadForecast forecast = TestInstances.forecast(ri, 1 + ri.random().nextInt(4));
      var model = ImportanceModels.scarcity(() -> forecast, TestInstances.performance(ri));
      List<Gpu> free = before.freeGpus();
      if (free.size() < 2) {
        continue;
      }
      Gpu taken = free.get(ri.random().nextInt(free.size()));
      Gpu sameType = free.stream().filter(g -> g.type().equals(taken.type()) && g != taken).findFirst().orElse(null);
      if (sameType == null) {
        continue;
      }
      ClusterState after = MarginalAcceptanceLossTest.hold(before, taken.id());
      GpuCosts costBefore = model.evaluate(before);
      GpuCosts costAfter = model.evaluate(after);
      double b = costBefore.of(sameType.id());
      double a = costAfter.of(sameType.id());
      assertThat(a).as("seed %d type %s", seed, taken.type()).isGreaterThanOrEqualTo(b);
      if (b > 0) {
        assertThat(a).as("seed %d type %s", seed, taken.type()).isGreaterThan(b);
        strict++;
      }
      for (Gpu g : cluster.gpus()) {
        if (!g.type().equals(taken.type())) {
          assertThat(costAfter.of(g.id())).as("seed %d: other types unchanged", seed).isEqualTo(costBefore.of(g.id()));
        }
      }
    }
    assertThat(strict).as("cases with demand for the taken type").isGreaterThan(10);
  }

  /**
   * A class only the 80 GB type can hold puts all its demand on it; a class every type serves
   * with one GPU spreads evenly. Checks D(t) / free(t) by hand.
   */
  @Test
  void demandGoesToTheTypesThatCanServeAClass() {
    List<GpuType> types = RandomInstances.threeTypes();
    var b = Cluster.builder().gpuTypes(types).network(RandomInstances.network());
    for (int n = 0; n < 3; n++) {
      b.addNodes(Node.of("n" + n, RandomInstances.nvlink()));
      for (int g = 0; g < 4; g++) {
        b.addGpus(Gpu.of("n" + n + "g" + g, types.get(n).name(), "n" + n));
      }
    }
    Cluster cluster = b.build();
    ServiceRequest big = request("big", 40L << 30); // fits only the 80 GB "fast" type
    ServiceRequest small = request("small", 1L << 30); // one GPU of any type
    WorkloadForecast forecast = WorkloadForecast.builder().add(big, 1).add(small, 3).build();
    ClusterState state = MarginalAcceptanceLossTest.hold(ClusterState.empty(cluster), "n2g0"); // 3 fast GPUs free
    GpuCosts costs = ImportanceModels.scarcity(forecast).evaluate(state);
    // big: p = 1/4, only "fast", n = 1 -> 0.25 GPUs on fast; small: p = 3/4, n = 1 on each of 3 types -> 0.25 each
    assertThat(costs.of("n0g0")).isCloseTo(0.25 / 4, within(1e-12));
    assertThat(costs.of("n1g0")).isCloseTo(0.25 / 4, within(1e-12));
    assertThat(costs.of("n2g1")).isCloseTo(0.5 / 3, within(1e-12));
    assertThat(new ScarcityImportance(() -> forecast, new SingleTypeLayouts(PerformanceModel.defaults()))
        .demand(forecast, cluster)).isEqualTo(Map.of("slow", 0.25, "mid", 0.25, "fast", 0.5));
  }

  private static ServiceRequest request(String id, long weightBytes) {
    Layer layer = Layer.builder().name("l").flopsPerSample(1e9).weightBytes(weightBytes).outputBytesPerSample(1000).build();
    return ServiceRequest.builder().id(id).model(Model.of(id, List.of(layer)))
        .slo(Slo.of(1, Duration.ofSeconds(1), 1)).build();
  }
}
