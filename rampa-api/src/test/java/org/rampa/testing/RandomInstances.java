package org.rampa.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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

/**
 * Seeded generators of small random instances for property tests and brute-force oracles. The
 * same seed always yields the same instance, so a failure is reproduced from its printed seed.
 */
public final class RandomInstances {

  private static final long GB = 1L << 30;

  private final SplittableRandom random;
  private final long seed;

  public RandomInstances(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  public long seed() {
    return seed;
  }

  public SplittableRandom random() {
    return random;
  }

  /** Three GPU types: slow and small, middle, fast and large (roughly T4, A10, A100-80GB). */
  public static List<GpuType> threeTypes() {
    return List.of(
        type("slow", 65e12, 16 * GB, 320e9),
        type("mid", 125e12, 24 * GB, 600e9),
        type("fast", 312e12, 80 * GB, 2039e9));
  }

  public static GpuType type(String name, double flops, long memory, double bandwidth) {
    return GpuType.builder()
        .name(name)
        .peakFlopsPerSecond(flops)
        .memoryBytes(memory)
        .memoryBandwidthBytesPerSecond(bandwidth)
        .computeEfficiency(0.4)
        .memoryEfficiency(0.7)
        .build();
  }

  public static Link nvlink() {
    return Link.of("nvlink", 300e9, Duration.ofNanos(2_000));
  }

  public static Link network() {
    return Link.of("ethernet-100G", 12.5e9, Duration.ofNanos(10_000));
  }

  /** A cluster of {@code nodes} nodes with 1..maxGpusPerNode GPUs each, one random type per node. */
  public Cluster cluster(int nodes, int maxGpusPerNode, int typeCount) {
    List<GpuType> types = threeTypes().subList(0, typeCount);
    var b = Cluster.builder().gpuTypes(types).network(network());
    for (int n = 0; n < nodes; n++) {
      String node = "n" + n;
      b.addNodes(Node.of(node, nvlink()));
      GpuType t = types.get(random.nextInt(types.size()));
      int gpus = 1 + random.nextInt(maxGpusPerNode);
      for (int g = 0; g < gpus; g++) {
        b.addGpus(Gpu.of(node + "g" + g, t.name(), node));
      }
    }
    return b.build();
  }

  /**
   * A chain of {@code layers} layers whose total weights are {@code totalWeightGb} GB, with random
   * FLOPs, weights and activations (and, with probability {@code skipProbability}, a skip input).
   */
  public Model model(int layers, double totalWeightGb, double skipProbability) {
    double[] share = new double[layers];
    double sum = 0;
    for (int i = 0; i < layers; i++) {
      share[i] = 0.2 + random.nextDouble();
      sum += share[i];
    }
    List<Layer> list = new ArrayList<>();
    for (int i = 0; i < layers; i++) {
      var b = Layer.builder()
          .name("l" + i)
          .flopsPerSample(1e9 * (1 + random.nextInt(200)))
          .weightBytes((long) (totalWeightGb * GB * share[i] / sum))
          .outputBytesPerSample(1_000 + random.nextInt(4_000_000));
      if (i >= 2 && random.nextDouble() < skipProbability) {
        b.addInputs(i - 1, random.nextInt(i - 1));
      }
      list.add(b.build());
    }
    return Model.of("random-" + seed, list);
  }

  /** A request for {@code model} with a random SLO of the given tightness (1 = tight, 10 = loose). */
  public ServiceRequest request(String id, Model model, double throughput, Duration latencyBound, int batch, int maxStages) {
    return ServiceRequest.builder()
        .id(id)
        .model(model)
        .slo(Slo.of(throughput, latencyBound, batch))
        .maxStages(maxStages)
        .build();
  }

  /** The state with a random {@code fraction} of the GPUs held exclusively by dummy services. */
  public ClusterState partiallyAllocated(Cluster cluster, double fraction) {
    List<Plan> holds = new ArrayList<>();
    for (Gpu g : cluster.gpus()) {
      if (random.nextDouble() < fraction) {
        holds.add(holdPlan("background-" + holds.size(), g.id()));
      }
    }
    return ClusterState.empty(cluster).allocateAll(holds);
  }

  /** A plan by which {@code serviceId} simply holds all of GPU {@code gpuId} (background load in tests). */
  public static Plan holdPlan(String serviceId, String gpuId) {
    return Plan.builder()
        .serviceId(serviceId)
        .addStages(Stage.builder().from(0).to(1).addGpus(gpuId).computeTime(Duration.ZERO).memoryBytes(0).build())
        .period(Duration.ZERO)
        .throughput(0)
        .latency(Duration.ZERO)
        .build();
  }

  /** Per-type weights, sometimes overridden per GPU with random (often tied) values, drawn from {@code r}. */
  public static StaticImportance staticImportance(Cluster c, SplittableRandom r) {
    Map<String, Double> byType = new HashMap<>();
    for (GpuType t : c.gpuTypes()) {
      byType.put(t.name(), (double) (1 + r.nextInt(4)));
    }
    StaticImportance importance = StaticImportance.byType(byType);
    if (r.nextBoolean()) {
      Map<String, Double> byGpu = new HashMap<>();
      for (Gpu g : c.gpus()) {
        byGpu.put(g.id(), r.nextBoolean() ? 0.5 + r.nextInt(4) : r.nextDouble() * 5);
      }
      importance = importance.withGpuWeights(byGpu);
    }
    return importance;
  }
}
