package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.Stage;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;

/** Each strategy follows its own rule on small hand-made clusters. */
class StrategyRulesTest {

  private static final long GB = 1L << 30;

  /** n0: two "slow" (16 GB) GPUs; n1: two "fast" (80 GB) GPUs. */
  static Cluster cluster() {
    var b = Cluster.builder().gpuTypes(RandomInstances.threeTypes()).network(RandomInstances.network());
    b.addNodes(Node.of("n0", RandomInstances.nvlink()), Node.of("n1", RandomInstances.nvlink()));
    b.addGpus(Gpu.of("n0g0", "slow", "n0"), Gpu.of("n0g1", "slow", "n0"), Gpu.of("n1g0", "fast", "n1"), Gpu.of("n1g1", "fast", "n1"));
    return b.build();
  }

  /** Layers with the given TFLOPs per sample and GB of weights. */
  static Model model(double[] tflops, double[] weightGb) {
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < tflops.length; i++) {
      layers.add(Layer.builder().name("l" + i).flopsPerSample(tflops[i] * 1e12).weightBytes((long) (weightGb[i] * GB))
          .outputBytesPerSample(1_000_000).build());
    }
    return Model.of("m", layers);
  }

  static PlacementResult place(String strategy, Model model, double throughput, Duration latency, ClusterState state) {
    ServiceRequest request = ServiceRequest.builder().id("s").model(model).slo(Slo.of(throughput, latency, 1)).maxStages(4).build();
    StaticImportance importance = StaticImportance.byType(Map.of("slow", 1.0, "fast", 10.0));
    PlacementProblem problem = new PlacementProblem(request, state, importance, PerformanceModel.defaults(), StrategyOptions.defaults());
    PlacementResult r = Strategies.named(strategy).place(problem);
    r.plan().ifPresent(p -> HeuristicStrategiesTest.assertVerified(problem, p, strategy));
    return r;
  }

  private static final Model SMALL = model(new double[] {1, 1, 1, 1}, new double[] {1, 1, 1, 1});

  @Test
  void greedyTakesTheCheapGpuWhenTheSloAllowsAndTheFastOneWhenItMust() {
    // 4 TFLOP on "slow" (26 TFLOP/s effective) takes about 0.154 s
    PlacementResult loose = place("greedy", SMALL, 2, Duration.ofSeconds(1), ClusterState.empty(cluster()));
    assertThat(loose.plan().get().gpuIds()).containsExactly("n0g0");
    PlacementResult tight = place("greedy", SMALL, 2, Duration.ofMillis(100), ClusterState.empty(cluster()));
    assertThat(tight.plan().get().gpuIds()).hasSize(1).allMatch(g -> g.startsWith("n1"));
  }

  @Test
  void greedyAddsReplicasOnlyWhenThroughputNeedsThem() {
    // 0.154 s per request on one slow GPU: 10 req/s needs more than one GPU
    PlacementResult r = place("greedy", SMALL, 10, Duration.ofSeconds(1), ClusterState.empty(cluster()));
    Plan plan = r.plan().get();
    assertThat(plan.throughput()).isGreaterThanOrEqualTo(10);
    assertThat(plan.gpuIds()).hasSizeGreaterThan(1);
  }

  @Test
  void performanceFirstTakesTheFastestGpuAndFirstFitTheFirstOne() {
    assertThat(place("performance-first", SMALL, 2, Duration.ofSeconds(1), ClusterState.empty(cluster())).plan().get().gpuIds())
        .containsExactly("n1g0");
    assertThat(place("first-fit", SMALL, 2, Duration.ofSeconds(1), ClusterState.empty(cluster())).plan().get().gpuIds())
        .containsExactly("n0g0");
    // too slow on the first GPUs in cluster order: first-fit moves on to the next GPUs that fit
    assertThat(place("first-fit", SMALL, 2, Duration.ofMillis(50), ClusterState.empty(cluster())).plan().get().gpuIds())
        .containsExactly("n1g0");
  }

  @Test
  void fewestGpusFitsALargeModelOnOneLargeGpu() {
    Model large = model(new double[] {1, 1, 1, 1}, new double[] {6, 6, 6, 6}); // 24 GB: no single slow GPU
    PlacementResult r = place("fewest-gpus", large, 1, Duration.ofSeconds(2), ClusterState.empty(cluster()));
    assertThat(r.plan().get().gpuIds()).containsExactly("n1g0");
    assertThat(r.status()).isEqualTo(SolveStatus.FEASIBLE);
  }

  @Test
  void evenSplitCutsEqualLayerCountsAndComputeBalancedEqualCompute() {
    // 40 GB of weights forces two stages on the slow GPUs once the fast ones are taken
    Model m = model(new double[] {3, 1, 1, 1}, new double[] {10, 10, 10, 10});
    ClusterState state = ClusterState.empty(cluster());
    state = hold(state, "n1g0");
    state = hold(state, "n1g1");
    // 40 GB on two 16 GB GPUs cannot fit at all
    assertThat(place("even-split", m, 0.1, Duration.ofSeconds(5), state).status()).isEqualTo(SolveStatus.INFEASIBLE);
    Model fits = model(new double[] {3, 1, 1, 1}, new double[] {6, 4, 4, 4});
    PlacementResult evenResult = place("even-split", fits, 0.1, Duration.ofSeconds(5), state);
    assertThat(evenResult.status()).as(evenResult.reason()).isEqualTo(SolveStatus.FEASIBLE);
    Plan even = evenResult.plan().get();
    assertThat(even.stages()).extracting(Stage::to).containsExactly(2, 4);
    Plan balanced = place("compute-balanced", fits, 0.1, Duration.ofSeconds(5), state).plan().get();
    assertThat(balanced.stages()).extracting(Stage::to).containsExactly(1, 4);
  }

  @Test
  void infeasibleResultsSayWhy() {
    Model huge = model(new double[] {1}, new double[] {100});
    PlacementResult r = place("greedy", huge, 1, Duration.ofSeconds(1), ClusterState.empty(cluster()));
    assertThat(r.status()).isEqualTo(SolveStatus.INFEASIBLE);
    assertThat(r.reason()).contains("layer 0").contains("largest free GPU (fast)");
  }

  @Test
  void greedyAndDpKeepConsecutiveStagesOnOneNodeWhenTransfersMatter() {
    // two nodes of two "slow" GPUs (16 GiB): 24 GiB of weights need two stages; a 2 GB activation
    // takes 160 ms over the network (12.5 GB/s) but 7 ms over NVLink (300 GB/s), and the SLO allows
    // a period of 100 ms; GPUs listed alternating between the nodes
    var b = Cluster.builder().gpuTypes(RandomInstances.threeTypes()).network(RandomInstances.network());
    b.addNodes(Node.of("a", RandomInstances.nvlink()), Node.of("b", RandomInstances.nvlink()));
    b.addGpus(Gpu.of("a0", "slow", "a"), Gpu.of("b0", "slow", "b"), Gpu.of("a1", "slow", "a"), Gpu.of("b1", "slow", "b"));
    Cluster cluster = b.build();
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      layers.add(Layer.builder().name("l" + i).flopsPerSample(0.1e12).weightBytes(6 * GB).outputBytesPerSample(2_000_000_000L).build());
    }
    Model m = Model.of("wide", layers);
    for (String strategy : List.of("greedy", "dp")) {
      PlacementResult r = place(strategy, m, 10, Duration.ofSeconds(1), ClusterState.empty(cluster));
      assertThat(r.status().hasPlan()).as(strategy + ": " + r.reason()).isTrue();
      Plan plan = r.plan().get();
      assertThat(plan.stages()).as(strategy).hasSize(2);
      assertThat(plan.gpuIds().stream().map(g -> cluster.gpu(g).node()).distinct()).as(strategy).hasSize(1);
    }
  }

  static ClusterState hold(ClusterState state, String gpu) {
    return state.allocate(RandomInstances.holdPlan("bg-" + gpu, gpu));
  }
}
