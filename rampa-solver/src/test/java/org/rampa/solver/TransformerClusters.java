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
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.Stage;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.StrategyOptions;

/**
 * The benchmark workload: uniform Llama-2-7B-like transformer blocks (202.4 M parameters per
 * block, 404.8 MB of FP16 weights, 0.4048 GFLOP per token, 8192 B of activation per token) at a
 * sequence length of {@value #SEQUENCE} tokens and batch 1, on clusters of 4-GPU nodes with one of
 * four GPU types per node (T4, A10, A100-80GB, H100-SXM), half the GPUs held at random.
 */
final class TransformerClusters {

  static final int SEQUENCE = 512;
  private static final long GB = 1_000_000_000L;

  static final List<GpuType> TYPES = List.of(
      type("T4", 65e12, 16 * GB, 320e9),
      type("A10", 125e12, 24 * GB, 600e9),
      type("A100-80GB", 312e12, 80 * GB, 2039e9),
      type("H100-SXM", 989e12, 80 * GB, 3350e9));

  /** Importance per type: the scarce, capable GPUs cost more to take. */
  static final StaticImportance IMPORTANCE =
      StaticImportance.byType(Map.of("T4", 1.0, "A10", 2.0, "A100-80GB", 5.0, "H100-SXM", 9.0));

  private static GpuType type(String name, double flops, long memory, double bandwidth) {
    return GpuType.builder().name(name).peakFlopsPerSecond(flops).memoryBytes(memory)
        .memoryBandwidthBytesPerSecond(bandwidth).build();
  }

  static Model transformer(int blocks) {
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      layers.add(Layer.builder()
          .name("block" + i)
          .flopsPerSample(0.4048e9 * SEQUENCE)
          .weightBytes(404_800_000L)
          .outputBytesPerSample(8192L * SEQUENCE)
          .build());
    }
    return Model.of("llama-2-7b-like-" + blocks, layers);
  }

  /** {@code gpus / 4} nodes of 4 GPUs, a random type per node, NVLink inside, 100 GbE between. */
  static Cluster cluster(int gpus, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    var b = Cluster.builder().gpuTypes(TYPES).network(Link.of("ethernet-100G", 12.5e9, Duration.ofNanos(10_000)));
    for (int n = 0; n < gpus / 4; n++) {
      String node = "n" + n;
      b.addNodes(Node.of(node, Link.of("nvlink", 300e9, Duration.ofNanos(2_000))));
      String type = TYPES.get(r.nextInt(TYPES.size())).name();
      for (int g = 0; g < 4; g++) {
        b.addGpus(Gpu.of(node + "g" + g, type, node));
      }
    }
    return b.build();
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
      holds.add(Plan.builder()
          .serviceId("background-" + i)
          .addStages(Stage.builder().from(0).to(1).addGpus(gpus.get(i).id()).computeTime(Duration.ZERO).memoryBytes(0).build())
          .period(Duration.ZERO).throughput(0).latency(Duration.ZERO).build());
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
