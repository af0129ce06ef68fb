package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
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
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;

/**
 * Each infeasibility reason names the numbers a scheduler engineer needs, and every strategy gives
 * the same reason for the same failed necessary condition.
 */
class NecessaryConditionsTest {

  private static final long GB = 1_000_000_000L;
  private static final GpuType SMALL = RandomInstances.type("small", 100e12, 16 * GB, 1000e9);
  private static final GpuType BIG = RandomInstances.type("big", 400e12, 80 * GB, 2000e9);
  private static final PerformanceModel PERF = PerformanceModel.defaults();

  /** Node 0: two big GPUs; node 1: four small ones. */
  private static ClusterState cluster() {
    var b = Cluster.builder().gpuTypes(List.of(SMALL, BIG)).network(RandomInstances.network());
    b.addNodes(Node.of("n0", RandomInstances.nvlink()), Node.of("n1", RandomInstances.nvlink()));
    b.addGpus(Gpu.of("big0", "big", "n0"), Gpu.of("big1", "big", "n0"));
    for (int i = 0; i < 4; i++) {
      b.addGpus(Gpu.of("small" + i, "small", "n1"));
    }
    return ClusterState.empty(b.build());
  }

  private static Model model(int layers, long weightBytes, double flops) {
    List<Layer> list = new ArrayList<>();
    for (int i = 0; i < layers; i++) {
      list.add(Layer.builder().name("b" + i).flopsPerSample(flops).weightBytes(weightBytes).outputBytesPerSample(1_000_000).build());
    }
    return Model.of("m", list);
  }

  private static PlacementProblem problem(Model model, double throughput, Duration latency, int maxStages, ClusterState state) {
    ServiceRequest request = ServiceRequest.builder().id("svc").model(model)
        .slo(Slo.of(throughput, latency, 1)).maxStages(maxStages).build();
    return new PlacementProblem(request, state, StaticImportance.uniform(), PERF,
        StrategyOptions.builder().timeLimit(Duration.ofSeconds(20)).build());
  }

  /** Exact's result, after checking that every other strategy gives the same reason. */
  private static PlacementResult place(Model model, double throughput, Duration latency, int maxStages, ClusterState state) {
    PlacementResult result = placeExact(model, throughput, latency, maxStages, state);
    for (String strategy : List.of("greedy", "dp", "performance-first", "first-fit")) {
      PlacementResult other = Strategies.named(strategy).place(problem(model, throughput, latency, maxStages, state));
      assertThat(other.status()).as(strategy + ": " + other).isEqualTo(SolveStatus.INFEASIBLE);
      assertThat(other.reason()).as(strategy).isEqualTo(result.reason());
    }
    return result;
  }

  private static PlacementResult placeExact(Model model, double throughput, Duration latency, int maxStages, ClusterState state) {
    PlacementResult result = ExactStrategy.scip().place(problem(model, throughput, latency, maxStages, state));
    assertThat(result.status()).as(result.toString()).isEqualTo(SolveStatus.INFEASIBLE);
    return result;
  }

  @Test
  void weightsAndStateLargerThanTheLargestFreeGpusTogether() {
    // 4 x 30 GB: two layers fit a big GPU, so 2 stages of big GPUs would do, but only one big GPU is
    // free and the second largest is small.
    ClusterState state = cluster().allocate(RandomInstances.holdPlan("other", "big1"));
    PlacementResult r = place(model(4, 30 * GB, 1e9), 1, Duration.ofSeconds(10), 2, state);
    assertThat(r.reason()).contains("120.00 GB of weights and state in at most 2 stages", "2 largest free GPUs hold 96.00 GB");
  }

  private static String g4(double v) {
    return String.format("%.4g", v);
  }

  @Test
  void layerLargerThanAnyFreeGpu() {
    PlacementResult r = place(model(2, 100 * GB, 1e9), 1, Duration.ofSeconds(10), 4, cluster());
    assertThat(r.reason()).contains("layer 0 (b0)", "100.00 GB", "big", "80.00 GB");
  }

  @Test
  void modelNeedsMoreStagesThanAllowed() {
    PlacementResult r = place(model(4, 30 * GB, 1e9), 1, Duration.ofSeconds(10), 1, cluster());
    assertThat(r.reason()).contains("120.00 GB", "80.00 GB", "at least 2 stages", "maxStages is 1");
  }

  @Test
  void throughputUnattainableEvenWithAllReplicas() {
    Model m = model(2, GB, 1e12);
    double layerOnBig = PERF.layerSeconds(m.layer(0), BIG, 1);
    double best = 2 / layerOnBig; // both free big GPUs as replicas
    PlacementResult r = place(m, best * 1.5, Duration.ofSeconds(10), 4, cluster());
    assertThat(r.reason()).contains("layer 0 (b0)", g4(layerOnBig) + " s", "all 2 free big GPUs", g4(best) + " req/s",
        g4(best * 1.5) + " req/s");
  }

  @Test
  void latencyFloorAboveBound() {
    Model m = model(3, GB, 1e12);
    double floor = 3 * PERF.layerSeconds(m.layer(0), BIG, 1);
    PlacementResult r = place(m, 0.001, Duration.ofNanos((long) (floor * 0.8e9)), 4, cluster());
    assertThat(r.reason()).contains("latency floor " + g4(floor) + " s", "bound " + g4(floor * 0.8 * (1 - 1e-12)).substring(0, 4));
  }

  @Test
  void notEnoughFreeGpus() {
    Model m = model(6, GB, 1e12);
    double compute = 6 * PERF.layerSeconds(m.layer(0), BIG, 1);
    double throughput = 7.5 / compute; // needs 8 GPUs' worth of the fastest compute; 6 are free
    PlacementResult r = place(m, throughput, Duration.ofSeconds(10), 8, cluster());
    assertThat(r.reason()).contains("at least 8 are needed", "only 6 are free", "4 small", "2 big", g4(compute) + " s");
  }

  @Test
  void noFreeGpu() {
    ClusterState state = cluster();
    state = new RandomInstances(1).partiallyAllocated(state.cluster(), 1.0);
    PlacementResult r = place(model(2, GB, 1e9), 1, Duration.ofSeconds(10), 4, state);
    assertThat(r.reason()).contains("no GPU is free", "all 6 GPUs");
  }

  @Test
  void solverProvesThatThroughputAndLatencyConflict() {
    // One layer fits the period on a big GPU; two need both big GPUs (a stage each, or replicas),
    // and the small GPUs are far too slow for the latency bound. With one big GPU held, no plan.
    Model m = model(2, GB, 1e12);
    double onBig = PERF.layerSeconds(m.layer(0), BIG, 1);
    ClusterState state = cluster();
    state = state.allocate(org.rampa.testing.RandomInstances.holdPlan("other", "big1"));
    double throughput = 1 / (1.5 * onBig);
    PlacementResult r = placeExact(m, throughput, Duration.ofNanos((long) (2.5 * onBig * 1e9)), 4, state);
    assertThat(r.reason()).contains("no combination of at most 4 stages on the 5 free GPUs", g4(throughput) + " req/s",
        g4(2.5 * onBig * (1 + 1e-12)).substring(0, 4));
    assertThat(Map.of()).isEmpty();
  }

  /**
   * Issue 20: two A100-80GBs, each with one small service on an MPS half; a newcomer that needs a
   * whole GPU's speed in one stage is infeasible, and the reason speaks of the shares that exist:
   * its weights fit a free share's memory, so memory is not what rules it out.
   */
  @Test
  void underSharingTheReasonSpeaksOfTheSharesNotOfWholeFreeGpus() {
    long gib = 1L << 30;
    Cluster cluster = org.rampa.catalog.ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, org.rampa.catalog.ClusterPresets.NETWORK_100G);
    ClusterState state = ClusterState.empty(cluster);
    for (Gpu g : cluster.gpus()) {
      state = state.allocate(org.rampa.domain.Allocation.of("small-" + g.id(), List.of(org.rampa.domain.Holding.of(g.id(),
          new org.rampa.domain.share.MpsShare(0.5, 2 * gib), 2 * gib))));
    }
    ServiceRequest request = ServiceRequest.builder().id("llama").model(org.rampa.catalog.ModelCatalog.prefill("llama2-7b", 128))
        .slo(Slo.of(10, Duration.ofMillis(15), 1)).maxStages(1).build();
    StrategyOptions options = org.rampa.strategy.SharingOptions.on().applyTo(StrategyOptions.builder().timeLimit(Duration.ofSeconds(20)).build());
    PlacementResult result = Strategies.named("exact").place(PlacementProblem.of(request, state, StaticImportance.uniform(), options));
    assertThat(result.status()).as(result.reason()).isIn(SolveStatus.INFEASIBLE, SolveStatus.NO_PLAN_FOUND);
    assertThat(result.reason()).as("a reason about shares, not whole free GPUs").doesNotContain("to fit memory")
        .doesNotContain("no GPU is free").contains("share");
  }
}
