package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.testing.RandomInstances;

/** Each construction-time rule: the error names the field, the value and the rule. */
class ValidationTest {

  private static ImmutableLayer.Builder layer() {
    return Layer.builder().name("conv").flopsPerSample(1e9).weightBytes(1000).outputBytesPerSample(100);
  }

  @Test
  void emptyModel() {
    assertThatThrownBy(() -> Model.of("m", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("model[m].layers").hasMessageContaining("at least one layer").hasMessageContaining("Maybe");
  }

  @Test
  void negativeFlops() {
    assertThatThrownBy(() -> layer().flopsPerSample(-1).build())
        .hasMessageContaining("layer[conv].flopsPerSample = -1.0").hasMessageContaining(">= 0");
  }

  @Test
  void nanFlops() {
    assertThatThrownBy(() -> layer().flopsPerSample(Double.NaN).build())
        .hasMessageContaining("layer[conv].flopsPerSample = NaN").hasMessageContaining("finite");
  }

  @Test
  void negativeBytes() {
    assertThatThrownBy(() -> layer().weightBytes(-5).build()).hasMessageContaining("layer[conv].weightBytes = -5");
    assertThatThrownBy(() -> layer().outputBytesPerSample(-7).build()).hasMessageContaining("layer[conv].outputBytesPerSample = -7");
  }

  @Test
  void layerConsumingALaterLayer() {
    Layer a = layer().name("a").build();
    Layer b = layer().name("b").addInputs(1).build();
    assertThatThrownBy(() -> Model.of("m", List.of(a, b)))
        .hasMessageContaining("model[m].layers[1].inputs = 1").hasMessageContaining("topological order");
  }

  @Test
  void zeroBandwidth() {
    assertThatThrownBy(() -> Link.of("pcie", 0, Duration.ZERO))
        .hasMessageContaining("link[pcie].bandwidthBytesPerSecond = 0.0").hasMessageContaining("> 0").hasMessageContaining("Maybe");
  }

  private static ImmutableCluster.Builder cluster() {
    return Cluster.builder()
        .addGpuTypes(RandomInstances.threeTypes().get(0))
        .network(RandomInstances.network())
        .addNodes(Node.of("n0", RandomInstances.nvlink()));
  }

  @Test
  void duplicateGpuIds() {
    assertThatThrownBy(() -> cluster().addGpus(Gpu.of("g0", "slow", "n0"), Gpu.of("g0", "slow", "n0")).build())
        .hasMessageContaining("cluster.gpus.id = g0").hasMessageContaining("unique");
  }

  @Test
  void duplicateNodeIds() {
    assertThatThrownBy(() -> cluster().addNodes(Node.of("n0", RandomInstances.nvlink())).addGpus(Gpu.of("g0", "slow", "n0")).build())
        .hasMessageContaining("cluster.nodes.id = n0").hasMessageContaining("unique");
  }

  @Test
  void gpuOnUnknownNode() {
    assertThatThrownBy(() -> cluster().addGpus(Gpu.of("g0", "slow", "n9")).build())
        .hasMessageContaining("gpu[g0].node = n9").hasMessageContaining("unknown node").hasMessageContaining("Maybe add a node");
  }

  @Test
  void gpuOfUnknownType() {
    assertThatThrownBy(() -> cluster().addGpus(Gpu.of("g0", "H100", "n0")).build())
        .hasMessageContaining("gpu[g0].type = H100").hasMessageContaining("unknown GPU type");
  }

  @Test
  void sloWithNonPositiveThroughput() {
    assertThatThrownBy(() -> Slo.of(0, Duration.ofMillis(10), 1))
        .hasMessageContaining("slo.requiredThroughput = 0.0").hasMessageContaining("> 0");
    assertThatThrownBy(() -> Slo.of(-3, Duration.ofMillis(10), 1)).hasMessageContaining("slo.requiredThroughput = -3.0");
  }

  @Test
  void sloWithNonPositiveLatency() {
    assertThatThrownBy(() -> Slo.of(10, Duration.ZERO, 1))
        .hasMessageContaining("slo.latencyBound = PT0S").hasMessageContaining("positive duration");
    assertThatThrownBy(() -> Slo.of(10, Duration.ofMillis(-1), 1)).hasMessageContaining("slo.latencyBound = PT-0.001S");
  }

  @Test
  void batchSizeBelowOne() {
    assertThatThrownBy(() -> Slo.of(10, Duration.ofMillis(10), 0))
        .hasMessageContaining("slo.batchSize = 0").hasMessageContaining(">= 1");
  }

  @Test
  void efficiencyGivenAsPercentage() {
    assertThatThrownBy(() -> GpuType.builder().name("t").peakFlopsPerSecond(1e12).memoryBytes(1).memoryBandwidthBytesPerSecond(1e9)
            .computeEfficiency(40).build())
        .hasMessageContaining("gpuType[t].computeEfficiency = 40.0").hasMessageContaining("Maybe you passed a percentage");
  }

  @Test
  void latencyProfileOutOfOrder() {
    assertThatThrownBy(() -> LatencyProfile.of("T4",
            LatencyPoint.of(8, Duration.ofMillis(2)), LatencyPoint.of(4, Duration.ofMillis(1))))
        .hasMessageContaining("latencyProfile[T4].points[1].batch = 4").hasMessageContaining("strictly increasing");
  }
}
