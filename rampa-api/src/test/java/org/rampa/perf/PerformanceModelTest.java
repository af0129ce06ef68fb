package org.rampa.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Layer;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.LatencyProfile;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;

class PerformanceModelTest {

  /** A GPU with round numbers: 100 TFLOP/s effective, 1 TB/s effective, 1 µs per layer. */
  static final GpuType ROUND = GpuType.builder().name("round").peakFlopsPerSecond(200e12).computeEfficiency(0.5)
      .memoryBytes(40L << 30).memoryBandwidthBytesPerSecond(2e12).memoryEfficiency(0.5)
      .layerOverhead(Duration.ofNanos(1_000)).build();

  static Layer layer(String name, double flops, long weights, long out) {
    return Layer.builder().name(name).flopsPerSample(flops).weightBytes(weights).outputBytesPerSample(out).build();
  }

  @Test
  void rooflineTakesTheSlowerOfComputeAndMemoryPlusOverhead() {
    PerformanceModel pm = PerformanceModel.defaults();
    // compute-bound: 8 * 1e12 / 100e12 = 80 ms; memory (1e9 + 8e6) / 1e12 = 1.008 ms
    assertThat(pm.layerSeconds(layer("c", 1e12, 1_000_000_000L, 1_000_000L), ROUND, 8)).isCloseTo(0.080001, within(1e-12));
    // memory-bound: compute 8e9/100e12 = 80 µs; memory (4e9 + 8 * 1e6) / 1e12 = 4.008 ms
    assertThat(pm.layerSeconds(layer("m", 1e9, 4_000_000_000L, 1_000_000L), ROUND, 8)).isCloseTo(0.004009, within(1e-12));
  }

  @Test
  void measuredProfileOverridesTheRooflineAndInterpolatesInBatch() {
    Layer measured = Layer.builder().from(layer("p", 1e12, 0, 0)).addProfiles(LatencyProfile.of("round",
        LatencyPoint.of(1, Duration.ofMillis(2)), LatencyPoint.of(5, Duration.ofMillis(10)))).build();
    PerformanceModel pm = PerformanceModel.defaults();
    assertThat(pm.layerSeconds(measured, ROUND, 1)).isCloseTo(0.002, within(1e-12));
    assertThat(pm.layerSeconds(measured, ROUND, 3)).isCloseTo(0.006, within(1e-12));
    assertThat(pm.layerSeconds(measured, ROUND, 7)).isCloseTo(0.014, within(1e-12)); // extrapolated along the last segment
  }

  @Test
  void handComputedTwoStagePipelineAcrossNodes() {
    Model m = Model.of("m", List.of(layer("a", 1e12, 1000, 10_000_000L), layer("b", 2e12, 1000, 1000)));
    Link network = Link.of("net", 1e10, Duration.ofNanos(10_000));
    Cluster c = Cluster.builder().addGpuTypes(ROUND).network(network)
        .addNodes(Node.of("n0", Link.of("nv", 1e11, Duration.ofNanos(1_000))), Node.of("n1", Link.of("nv", 1e11, Duration.ofNanos(1_000))))
        .addGpus(Gpu.of("g0", "round", "n0"), Gpu.of("g1", "round", "n1"), Gpu.of("g2", "round", "n1")).build();
    ServiceRequest r = ServiceRequest.builder().id("s").model(m).slo(Slo.of(1, Duration.ofSeconds(1), 2)).build();
    PlanEstimate e = PerformanceModel.defaults().estimate(r, List.of(StageAssignment.of(0, 1, "g0"), StageAssignment.of(1, 2, "g1", "g2")), c);
    // T0 = 2e12/100e12 + 1 µs = 20.001 ms; T1 = 4e12/100e12 + 1 µs = 40.001 ms over 2 replicas
    assertThat(e.stageComputeSeconds().get(0)).isCloseTo(0.020001, within(1e-12));
    assertThat(e.stageLoadSeconds().get(1)).isCloseTo(0.0200005, within(1e-12));
    // network (different nodes): 10 µs + 2 * 1e7 B / 1e10 B/s = 2.01 ms
    assertThat(e.transferSeconds().get(0)).isCloseTo(0.00201, within(1e-12));
    assertThat(e.periodSeconds()).isCloseTo(0.020001, within(1e-12));
    assertThat(e.throughput()).isCloseTo(2 / 0.020001, within(1e-9));
    assertThat(e.latencySeconds()).isCloseTo(0.020001 + 0.00201 + 0.040001, within(1e-12));
    // serial transfers: each side of the cut is busy for the transfer too
    PlanEstimate serial = PerformanceModel.withTransfers(TransferMode.SERIAL)
        .estimate(r, List.of(StageAssignment.of(0, 1, "g0"), StageAssignment.of(1, 2, "g1", "g2")), c);
    assertThat(serial.periodSeconds()).isCloseTo(0.020001 + 0.00201, within(1e-12));
    // intra-node: g1 -> g2 uses the node's link
    assertThat(PerformanceModel.linkBetween(c, List.of("g1"), List.of("g2")).name()).isEqualTo("nv");
    assertThat(PerformanceModel.linkBetween(c, List.of("g0"), List.of("g1")).name()).isEqualTo("net");
  }

  @Test
  void skipConnectionsAreChargedAtEveryCutTheyCross() {
    Model m = Model.of("skip", List.of(
        layer("a", 1, 0, 100), layer("b", 1, 0, 10), layer("c", 1, 0, 1),
        Layer.builder().from(layer("d", 1, 0, 1)).addInputs(2, 0).build()));
    assertThat(m.cutBytesPerSample(1)).isEqualTo(100);       // a
    assertThat(m.cutBytesPerSample(2)).isEqualTo(100 + 10);  // a (skip to d) + b
    assertThat(m.cutBytesPerSample(3)).isEqualTo(100 + 1);   // a (skip to d) + c
    // a second source in the middle reads the model's input, not the layer before it
    Model twoSources = Model.of("two-sources", List.of(layer("a", 1, 0, 100),
        Layer.builder().from(layer("b", 1, 0, 10)).addInputs(Layer.MODEL_INPUT).build(),
        Layer.builder().from(layer("c", 1, 0, 1)).addInputs(0, 1).build()));
    assertThat(twoSources.cutBytesPerSample(1)).isEqualTo(100);
    assertThat(twoSources.cutBytesPerSample(2)).isEqualTo(100 + 10);
    assertThat(twoSources.inputsOf(1)).isEmpty();
  }

  @Test
  void moreLayersAreNeverFaster() {
    Property.forSeeds("more layers never faster", 200, seed -> {
      RandomInstances gen = new RandomInstances(seed);
      Model m = gen.model(2 + gen.random().nextInt(10), 5, 0.3);
      GpuType t = RandomInstances.threeTypes().get(gen.random().nextInt(3));
      int b = 1 + gen.random().nextInt(32);
      int to = 1 + gen.random().nextInt(m.size());
      PerformanceModel pm = PerformanceModel.defaults();
      for (int extra = to + 1; extra <= m.size(); extra++) {
        assertThat(pm.stageSeconds(m, 0, extra, t, b)).isGreaterThanOrEqualTo(pm.stageSeconds(m, 0, to, t, b));
      }
    });
  }

  @Test
  void aFasterGpuTypeIsNeverSlower() {
    Property.forSeeds("faster type never slower", 200, seed -> {
      RandomInstances gen = new RandomInstances(seed);
      Model m = gen.model(1 + gen.random().nextInt(10), 5, 0.3);
      GpuType slow = RandomInstances.threeTypes().get(gen.random().nextInt(3));
      double f = 1 + gen.random().nextDouble() * 3;
      GpuType fast = GpuType.builder().from(slow).name("faster").peakFlopsPerSecond(slow.peakFlopsPerSecond() * f)
          .memoryBandwidthBytesPerSecond(slow.memoryBandwidthBytesPerSecond() * (1 + gen.random().nextDouble())).build();
      int b = 1 + gen.random().nextInt(64);
      PerformanceModel pm = PerformanceModel.defaults();
      assertThat(pm.stageSeconds(m, 0, m.size(), fast, b)).isLessThanOrEqualTo(pm.stageSeconds(m, 0, m.size(), slow, b));
    });
  }

  @Test
  void largerBatchNeverLowersThePeriodAndThroughputIsBatchOverPeriod() {
    Property.forSeeds("batch monotone; throughput = b / P", 200, seed -> {
      RandomInstances gen = new RandomInstances(seed);
      Cluster c = gen.cluster(3, 3, 3);
      Model m = gen.model(2 + gen.random().nextInt(8), 2, 0.3);
      List<Gpu> gpus = c.gpus();
      int cut = 1 + gen.random().nextInt(m.size() - 1);
      List<StageAssignment> stages = gpus.size() >= 2
          ? List.of(StageAssignment.of(0, cut, gpus.get(0).id()), StageAssignment.of(cut, m.size(), gpus.get(gpus.size() - 1).id()))
          : List.of(StageAssignment.of(0, m.size(), gpus.get(0).id()));
      TransferMode mode = TransferMode.values()[gen.random().nextInt(3)];
      PerformanceModel pm = PerformanceModel.withTransfers(mode);
      double previous = 0;
      for (int b = 1; b <= 64; b *= 2) {
        ServiceRequest r = gen.request("s", m, 1, Duration.ofSeconds(10), b, 8);
        PlanEstimate e = pm.estimate(r, stages, c);
        assertThat(e.periodSeconds()).isGreaterThanOrEqualTo(previous);
        assertThat(e.throughput()).isCloseTo(b / e.periodSeconds(), within(1e-9 * e.throughput()));
        previous = e.periodSeconds();
      }
    });
  }

  @Test
  void aSlowedEstimateIsExactlyTheEstimateWithThoseSlowdowns() {
    Cluster cluster = org.rampa.catalog.ClusterPresets.of(java.util.Map.of("A100-SXM4-80GB", 2), 2, org.rampa.catalog.ClusterPresets.NETWORK_100G);
    List<String> gpus = cluster.gpus().stream().map(Gpu::id).toList();
    Model model = org.rampa.catalog.ModelCatalog.decode("llama2-7b", 512);
    Property.forSeeds("slowed = estimate with slowdowns", 50, seed -> {
      java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
      int cut1 = 1 + r.nextInt(model.size() - 2);
      int cut2 = cut1 + 1 + r.nextInt(model.size() - cut1 - 1);
      List<StageAssignment> stages = List.of(
          StageAssignment.whole(0, cut1, gpus.subList(0, 1 + r.nextInt(2))),
          new StageAssignment(cut1, cut2, List.of(gpus.get(2)), new org.rampa.domain.share.MpsShare(0.25 + 0.25 * r.nextInt(3), 20L << 30)),
          new StageAssignment(cut2, model.size(), List.of(gpus.get(3)), new org.rampa.domain.share.MpsShare(0.5, 20L << 30)));
      ServiceRequest request = ServiceRequest.builder().id("s").model(model).slo(Slo.of(1, Duration.ofSeconds(1), 1 + r.nextInt(4))).build();
      List<Double> slowdowns = List.of(1 + r.nextDouble(), 1.0, 1 + 0.05 * r.nextInt(5));
      PerformanceModel performance = PerformanceModel.defaults();
      PlanEstimate alone = performance.estimate(request, stages, cluster);
      assertThat(performance.slowed(request, stages, alone, slowdowns)).isEqualTo(performance.estimate(request, stages, cluster, slowdowns));
    });
  }
}
