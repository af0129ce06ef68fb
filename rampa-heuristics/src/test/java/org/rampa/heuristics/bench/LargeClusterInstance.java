package org.rampa.heuristics.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.ReferenceWorkloads;

/**
 * The benchmark instance: an 80-block Llama-2-7B-like model on a 1000-GPU, 250-node cluster of four
 * GPU types (4 GPUs of one type per node), half of the GPUs held at random.
 *
 * <p>Blocks: 404.8 MB of weights, 0.4048 GFLOP per token, 8192 B of activation per token. A request
 * (one sample) is a 512-token prompt: 207.3 GFLOP and 4 MiB of activation per block.
 */
final class LargeClusterInstance {
  private LargeClusterInstance() {}

  static final int TOKENS = 512;
  private static final long GB = 1_000_000_000L;

  static List<GpuType> types() {
    return ReferenceWorkloads.fourTypes();
  }

  static Cluster cluster(long seed) {
    return ReferenceWorkloads.randomFleet(250, seed);
  }

  /** The state with each GPU held, with probability 1/2, by a background service. */
  static ClusterState halfAllocated(Cluster cluster, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 1);
    List<Plan> holds = new ArrayList<>();
    for (Gpu g : cluster.gpus()) {
      if (r.nextBoolean()) {
        holds.add(RandomInstances.holdPlan("background-" + holds.size(), g.id()));
      }
    }
    return ClusterState.empty(cluster).allocateAll(holds);
  }

  /** {@code state} with its first free GPU held too (by a background service): the state after one more admission. */
  static ClusterState holdOneMore(ClusterState state) {
    Gpu free = state.cluster().gpus().stream().filter(g -> state.servicesOn(g.id()).isEmpty()).findFirst().orElseThrow();
    return state.allocate(RandomInstances.holdPlan("background-extra", free.id()));
  }

  static Model llamaLike() {
    return ReferenceWorkloads.promptTransformer(80, TOKENS);
  }

  /** Importance grows with capability: T4 1, A10 2, A100 4, H100 8. */
  static StaticImportance importance() {
    return StaticImportance.byType(Map.of("T4", 1.0, "A10", 2.0, "A100-80GB", 4.0, "H100-SXM", 8.0));
  }

  /**
   * The type weights with every GPU's weight scaled by a random factor in [0.5, 1.5): GPUs of one
   * type then differ in importance (as under fragmentation- or demand-aware models), so the cheapest
   * plan is no longer just "the cheapest type".
   */
  static StaticImportance perGpuImportance(Cluster cluster, long seed) {
    SplittableRandom r = new SplittableRandom(seed + 2);
    Map<String, Double> typeWeights = Map.of("T4", 1.0, "A10", 2.0, "A100-80GB", 4.0, "H100-SXM", 8.0);
    Map<String, Double> weights = new java.util.HashMap<>();
    for (Gpu g : cluster.gpus()) {
      weights.put(g.id(), typeWeights.get(g.type()) * (0.5 + r.nextDouble()));
    }
    return importance().withGpuWeights(weights);
  }

  static PlacementProblem problem(long seed, double throughput, Duration latency) {
    return problem(seed, throughput, latency, false);
  }

  static PlacementProblem problem(long seed, double throughput, Duration latency, boolean perGpuWeights) {
    Cluster cluster = cluster(seed);
    ServiceRequest request = ServiceRequest.builder().id("llama").model(llamaLike())
        .slo(Slo.of(throughput, latency, 1)).maxStages(8).build();
    return new PlacementProblem(request, halfAllocated(cluster, seed), perGpuWeights ? perGpuImportance(cluster, seed) : importance(),
        PerformanceModel.defaults(),
        StrategyOptions.defaults());
  }
}
