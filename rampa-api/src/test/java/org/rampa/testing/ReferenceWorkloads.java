package org.rampa.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;

/**
 * A realistic fleet and workload for benchmarks and scenario tests: four GPU generations (dense
 * FP16 peaks, memory, bandwidth as published), 4-GPU nodes of one type each, and CNN- and
 * transformer-like models whose sizes follow the reference model catalog (ResNet-50, BERT-large,
 * Llama-2-7B, Llama-2-70B). Numbers are per sample (an image, a sequence, or a generated token).
 */
public final class ReferenceWorkloads {
  private ReferenceWorkloads() {}

  private static final long MB = 1_000_000L;
  private static final long GB = 1_000_000_000L;

  public static GpuType t4() {
    return RandomInstances.type("T4", 65e12, 16 * GB, 320e9);
  }

  public static GpuType a10() {
    return RandomInstances.type("A10", 125e12, 24 * GB, 600e9);
  }

  public static GpuType a100() {
    return RandomInstances.type("A100-80GB", 312e12, 80 * GB, 2039e9);
  }

  public static GpuType h100() {
    return RandomInstances.type("H100-SXM", 989e12, 80 * GB, 3350e9);
  }

  public static List<GpuType> fourTypes() {
    return List.of(t4(), a10(), a100(), h100());
  }

  public static Link pcie() {
    return Link.of("pcie4", 32e9, Duration.ofNanos(5_000));
  }

  /**
   * {@code nodes} nodes of {@code gpusPerNode} GPUs; node i has type i mod 4 (T4, A10, A100, H100).
   * T4 and A10 nodes talk over PCIe, A100 and H100 nodes over NVLink; 100 Gb/s Ethernet between nodes.
   */
  public static Cluster fleet(int nodes, int gpusPerNode) {
    List<GpuType> types = fourTypes();
    var b = Cluster.builder().gpuTypes(types).network(RandomInstances.network());
    for (int n = 0; n < nodes; n++) {
      GpuType t = types.get(n % types.size());
      String node = "node" + n;
      b.addNodes(Node.of(node, n % types.size() < 2 ? pcie() : RandomInstances.nvlink()));
      for (int g = 0; g < gpusPerNode; g++) {
        b.addGpus(Gpu.of(node + "-gpu" + g, t.name(), node));
      }
    }
    return b.build();
  }

  /**
   * The benchmark fleet: {@code nodes} nodes of 4 GPUs of one random {@link #fourTypes()} type each
   * (seeded), NVLink (300 GB/s, 2 µs) inside nodes, 100 GbE (12.5 GB/s, 10 µs) between them.
   */
  public static Cluster randomFleet(int nodes, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<GpuType> types = fourTypes();
    var b = Cluster.builder().gpuTypes(types).network(RandomInstances.network());
    for (int n = 0; n < nodes; n++) {
      String node = String.format("n%03d", n);
      b.addNodes(Node.of(node, Link.of("nvlink", 300e9, Duration.ofNanos(2_000))));
      String type = types.get(r.nextInt(types.size())).name();
      for (int g = 0; g < 4; g++) {
        b.addGpus(Gpu.of(node + "g" + g, type, node));
      }
    }
    return b.build();
  }

  /**
   * {@code blocks} Llama-2-7B-like blocks serving a prompt of {@code tokens} tokens per request:
   * 404.8 MB of FP16 weights, 0.4048 GFLOP and 8192 B of activation per token per block.
   */
  public static Model promptTransformer(int blocks, int tokens) {
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      layers.add(Layer.builder().name("block" + i).flopsPerSample(0.4048e9 * tokens).weightBytes(404_800_000L)
          .outputBytesPerSample(8192L * tokens).build());
    }
    return Model.of("llama-2-7b-like-" + blocks, layers);
  }

  /** ResNet-50-like: 18 layers, about 8.2 GFLOP and 100 MB of FP16-plus-overhead weights per image. */
  public static Model resnet50Like() {
    double[] gflops = {0.24, 0.45, 0.45, 0.45, 0.52, 0.52, 0.52, 0.52, 0.48, 0.48, 0.48, 0.48, 0.48, 0.48, 0.45, 0.45, 0.45, 0.02};
    long[] weightsMb = {1, 1, 1, 1, 2, 2, 2, 3, 5, 5, 5, 5, 5, 6, 12, 12, 14, 19};
    long[] outputKb = {1600, 1600, 1600, 1600, 800, 800, 800, 800, 400, 400, 400, 400, 400, 400, 200, 200, 200, 4};
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < gflops.length; i++) {
      layers.add(Layer.builder().name("conv" + i).flopsPerSample(gflops[i] * 1e9)
          .weightBytes(weightsMb[i] * MB).outputBytesPerSample(outputKb[i] * 1000).build());
    }
    return Model.of("resnet50-like", layers);
  }

  /** BERT-large-like: 24 encoder blocks of 25 MB weights, 9.7 GFLOP per 384-token sequence each. */
  public static Model bertLargeLike() {
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      layers.add(Layer.builder().name("encoder" + i).flopsPerSample(9.7e9)
          .weightBytes(25 * MB).outputBytesPerSample(384 * 1024 * 2).build());
    }
    return Model.of("bert-large-like", layers);
  }

  /**
   * Llama-2-7B-like decoding: 32 blocks of 404.8 MB weights and 0.4048 GFLOP per token, 8 KB
   * hidden state out, and a 2048-token KV cache (32 MB per block) per request.
   */
  public static Model llama7bLike() {
    return decoder("llama2-7b-like", 32, 404.8e6, 8_192, 2 * 2048 * 4096 * 2L);
  }

  /** Llama-2-70B-like decoding: 80 blocks of 1.71 GB (140 GB in all: needs at least two 80 GB GPUs). */
  public static Model llama70bLike() {
    return decoder("llama2-70b-like", 80, 1.71e9, 16_384, 2 * 2048 * 1024 * 2L);
  }

  private static Model decoder(String name, int blocks, double weightBytes, long hiddenBytes, long kvBytes) {
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      layers.add(Layer.builder().name("block" + i).flopsPerSample(weightBytes) // 2 FLOP per FP16 parameter
          .weightBytes((long) weightBytes).outputBytesPerSample(hiddenBytes).stateBytesPerSample(kvBytes).build());
    }
    return Model.of(name, layers);
  }

  public static ServiceRequest request(String id, Model model, double throughput, Duration latency, int batch) {
    return ServiceRequest.builder().id(id).model(model).slo(Slo.of(throughput, latency, batch)).maxStages(8).build();
  }

  /** Six service classes with their relative arrival weights, CNNs most frequent. */
  public static List<ServiceRequest> sixClasses() {
    return List.of(
        request("resnet50-interactive", resnet50Like(), 200, Duration.ofMillis(50), 1),
        request("resnet50-batch", resnet50Like(), 6000, Duration.ofMillis(200), 16),
        request("bert-large", bertLargeLike(), 400, Duration.ofMillis(150), 4),
        request("llama7b-chat", llama7bLike(), 20, Duration.ofMillis(60), 1),
        request("llama7b-batch", llama7bLike(), 200, Duration.ofMillis(150), 8),
        request("llama70b-chat", llama70bLike(), 10, Duration.ofMillis(120), 1));
  }

  /** Relative weights of {@link #sixClasses()}. */
  public static double[] sixClassWeights() {
    return new double[] {0.3, 0.15, 0.2, 0.15, 0.1, 0.1};
  }
}
