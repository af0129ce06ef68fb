package org.rampa.solver;

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
 * The benchmark workload: uniform Llama-2-7B-like transformer blocks (202.4 M parameters per
 * block, 404.8 MB of FP16 weights, 0.4048 GFLOP per token, 8192 B of activation per token) at a
 * sequence length of {@value #SEQUENCE} tokens and batch 1, on clusters of 4-GPU nodes with one of
 * four GPU types per node (T4, A10, A100-80GB, H100-SXM), half the GPUs held at random.
 */
final class TransformerClusters {

  static final int SEQUENCE = 512;
  private static final long GB = 1_000_000_000L;

  static final List<GpuType> TYPES = ReferenceWorkloads.fourTypes();

  /** Importance per type: the scarce, capable GPUs cost more to take. */
  static final StaticImportance IMPORTANCE =
      StaticImportance.byType(Map.of("T4", 1.0, "A10", 2.0, "A100-80GB", 5.0, "H100-SXM", 9.0));

  static Model transformer(int blocks) {
    return ReferenceWorkloads.promptTransformer(blocks, SEQUENCE);
  }

  /** {@code gpus / 4} nodes of 4 GPUs, a random type per node, NVLink inside, 100 GbE between. */
  static Cluster cluster(int gpus, long seed) {
    return ReferenceWorkloads.randomFleet(gpus / 4, seed);
  }

  /** Exactly half of the GPUs held by background services, chosen at random. */
  static ClusterState halfAllocated(Cluster cluster, long seed) {
    List<Gpu> gpus = new ArrayList<>(cluster.gpus());
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = gpus.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      Gpu tmp = gpus.get(i);
      gpus.set(i, gpus.get(j));
      gpus.set(j, tmp);
    }
    List<Plan> holds = new ArrayList<>();
    for (int i = 0; i < gpus.size() / 2; i++) {
      holds.add(RandomInstances.holdPlan("background-" + i, gpus.get(i).id()));
    }
    ClusterState state = ClusterState.empty(cluster).allocateAll(holds);
    return state;
  }

  static PlacementProblem problem(int gpus, int blocks, long seed) {
    return problem(gpus, blocks, seed, false);
  }

  /**
   * At most 8 stages. Moderate SLO: 20 requests/s within 250 ms (32 blocks) or 8 requests/s within
   * 400 ms (80 blocks): too fast for one T4 or A10 and, at 80 blocks, for one A100. Tight SLO: 60
   * requests/s within 60 ms (32 blocks) or 25 requests/s within 150 ms (80 blocks): only H100s, or
   * A100s split into several stages or replicated, keep up.
   */
  static PlacementProblem problem(int gpus, int blocks, long seed, boolean tight) {
    Cluster cluster = cluster(gpus, seed);
    boolean large = blocks > 40;
    Slo slo = tight
        ? Slo.of(large ? 25 : 60, Duration.ofMillis(large ? 150 : 60), 1)
        : Slo.of(large ? 8 : 20, Duration.ofMillis(large ? 400 : 250), 1);
    ServiceRequest request = ServiceRequest.builder()
        .id("llm-" + blocks)
        .model(transformer(blocks))
        .slo(slo)
        .maxStages(8)
        .build();
    return new PlacementProblem(request, halfAllocated(cluster, seed + 1), IMPORTANCE, PerformanceModel.defaults(),
        StrategyOptions.builder().timeLimit(Duration.ofSeconds(60)).seed(seed).build());
  }

  private TransformerClusters() {}
}
