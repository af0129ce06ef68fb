package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.ReferenceWorkloads;

class ImportanceModelsIntegrationTest {

  /** A forecast learnt from arrivals drives scarcity: the demanded types follow the recent mix. */
  @Test
  void scarcityFollowsASlidingWindow() {
    Cluster fleet = ReferenceWorkloads.fleet(8, 4);
    ClusterState state = ClusterState.empty(fleet);
    SlidingWindowForecast window = SlidingWindowForecast.lastArrivals(10);
    ImportanceModel scarcity = ImportanceModels.scarcity(window::snapshot, PerformanceModel.defaults());
    ServiceRequest llama70b = ReferenceWorkloads.request("l", ReferenceWorkloads.llama70bLike(), 10, Duration.ofMillis(120), 1);
    ServiceRequest resnet = ReferenceWorkloads.request("r", ReferenceWorkloads.resnet50Like(), 200, Duration.ofMillis(50), 1);
    for (int i = 0; i < 10; i++) {
      window.observe(ServiceRequest.builder().from(llama70b).id("l" + i).build());
    }
    GpuCosts onlyLarge = scarcity.evaluate(state);
    assertThat(onlyLarge.of("node0-gpu0")).as("T4 cannot serve a 70B model").isZero();
    assertThat(onlyLarge.of("node2-gpu0")).as("A100").isPositive();
    for (int i = 0; i < 10; i++) {
      window.observe(ServiceRequest.builder().from(resnet).id("r" + i).build());
    }
    GpuCosts onlySmall = scarcity.evaluate(state);
    assertThat(onlySmall.of("node0-gpu0")).as("the 70B arrivals are forgotten; T4 serves ResNet").isPositive();
    assertThat(onlySmall.of("node0-gpu0")).isEqualTo(onlySmall.of("node2-gpu0")); // 1 GPU of any type
  }

  /** Models are shared by concurrent planners: parallel evaluations agree with sequential ones. */
  @Test
  void concurrentEvaluationsAgreeWithSequentialOnes() throws Exception {
    RandomInstances ri = new RandomInstances(11);
    Cluster cluster = ri.cluster(12, 4, 3);
    List<ClusterState> states = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      states.add(ri.partiallyAllocated(cluster, 0.2 + 0.03 * i));
    }
    WorkloadForecast forecast = TestInstances.forecast(ri, 4);
    ImportanceModel shared = ImportanceModels.combination()
        .add(1, ImportanceModels.scarcity(forecast))
        .add(1, ImportanceModels.marginalAcceptanceLoss(forecast))
        .add(1, ImportanceModels.fragmentation())
        .build();
    List<double[]> sequential = new ArrayList<>();
    for (ClusterState s : states) {
      sequential.add(costs(ImportanceModels.combination()
          .add(1, ImportanceModels.scarcity(forecast))
          .add(1, ImportanceModels.marginalAcceptanceLoss(forecast))
          .add(1, ImportanceModels.fragmentation())
          .build().evaluate(s), cluster));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<double[]>> futures = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (ClusterState s : states) {
          futures.add(pool.submit(() -> costs(shared.evaluate(s), cluster)));
        }
      }
      for (int i = 0; i < futures.size(); i++) {
        assertThat(futures.get(i).get()).as("state %d", i % states.size()).containsExactly(sequential.get(i % states.size()));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static double[] costs(GpuCosts costs, Cluster cluster) {
    return cluster.gpus().stream().map(Gpu::id).mapToDouble(costs::of).toArray();
  }
}
