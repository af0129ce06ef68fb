package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.json.RampaJson;
import org.rampa.testing.Property;

class InterferenceModelTest {

  private final GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");

  private static CoRunner mps(String service, double share, double u, double bytesPerSecond) {
    return new CoRunner(service, new MpsShare(share, 0), share, u, u, bytesPerSecond);
  }

  private static CoRunner mig(String service) {
    return new CoRunner(service, new MigSlice("3g.40gb", 0), 42.0 / 108, 0.5, 0.5, 1e11);
  }

  @Test
  void noneIsOne() {
    assertThat(new NoInterference().slowdown(a100, mps("a", 0.5, 0.5, 0), List.of(mps("b", 0.5, 0.9, 0)))).isEqualTo(1);
  }

  @Test
  void defaultIsLinearFivePercentPerContendedCoRunnerAndNoneUnderIsolation() {
    InterferenceModel d = InterferenceModel.defaults();
    CoRunner self = mps("a", 0.4, 0.5, 0);
    assertThat(d.slowdown(a100, self, List.of())).isEqualTo(1);
    assertThat(d.slowdown(a100, self, List.of(mps("b", 0.3, 0.5, 0), mps("c", 0.3, 0.5, 0)))).isCloseTo(1.10, within(1e-12));
    CoRunner cu = new CoRunner("cu", new CuMask(60, 0), 0.5, 0.5, 0.5, 0);
    assertThat(d.slowdown(a100, cu, List.of(new CoRunner("cu2", new CuMask(60, 0), 0.5, 0.5, 0.5, 0)))).isCloseTo(1.05, within(1e-12));
    assertThat(d.slowdown(a100, mig("m"), List.of(mig("n"), mig("o")))).isEqualTo(1);
    CoRunner npu = new CoRunner("t", new TemplatePartition("vir04"), 0.5, 0.5, 0.5, 0);
    assertThat(d.slowdown(a100, npu, List.of(npu))).isEqualTo(1);
    assertThat(new LinearInterference(0.10).slowdown(a100, self, List.of(mps("b", 0.3, 0.5, 0)))).isCloseTo(1.10, within(1e-12));
    assertThatThrownBy(() -> new LinearInterference(-0.01)).hasMessageContaining("linearInterference.gamma = -0.01");
  }

  @Test
  void gpuLetsRegressionUsesThePerDeviceCoefficientsAndRefusesOthers() {
    GpuLetsInterference model = new GpuLetsInterference(Map.of(a100.name(), GpuLetsInterference.RTX_2080_TI));
    CoRunner self = mps("a", 0.5, 0.6, 0);
    CoRunner other = mps("b", 0.5, 0.8, 0);
    double expected = 0.89537 + 0.11291 * 0.5 * 0.6 + 0.71596 * 0.5 * 0.8 + 0.35487 * 0.5 * 0.6 + 0.08820 * 0.5 * 0.8;
    assertThat(model.slowdown(a100, self, List.of(other))).isCloseTo(expected, within(1e-12));
    // alone, the fitted constant is below 1: clipped
    assertThat(model.slowdown(a100, mps("a", 0.1, 0.1, 0), List.of())).isEqualTo(1);
    // the same pair under the RTX 3080's coefficients interferes far less: never reuse blindly
    GpuLetsInterference other3080 = new GpuLetsInterference(Map.of(a100.name(), GpuLetsInterference.RTX_3080));
    assertThat(other3080.slowdown(a100, self, List.of(other))).isLessThan(expected);
    GpuType l4 = GpuCatalog.standard().type("L4");
    assertThatThrownBy(() -> model.slowdown(l4, self, List.of(other)))
        .hasMessageContaining("gpuLets.coefficients = L4").hasMessageContaining("Maybe calibrate them on this device");
    assertThat(model.slowdown(a100, mig("m"), List.of(other))).isEqualTo(1);
  }

  @Test
  void bandwidthOverflowSlowsEveryoneByTheOversubscription() {
    double bw = a100.effectiveBandwidthBytesPerSecond();
    BandwidthOverflow model = new BandwidthOverflow();
    assertThat(model.slowdown(a100, mps("a", 0.5, 1, 0.4 * bw), List.of(mps("b", 0.5, 1, 0.5 * bw)))).isEqualTo(1);
    assertThat(model.slowdown(a100, mps("a", 0.5, 1, 0.9 * bw), List.of(mps("b", 0.5, 1, 0.6 * bw)))).isCloseTo(1.5, within(1e-12));
    assertThat(model.slowdown(a100, mig("m"), List.of(mps("b", 0.5, 1, 5 * bw)))).isEqualTo(1);
  }

  @Test
  void pairTableMultipliesMeasuredPairsAndFallsBackWhenOneIsMissing() {
    PairTableInterference model = new PairTableInterference(
        Map.of("resnet", Map.of("bert", 1.17, "vgg", 1.05)), InterferenceModel.defaults());
    CoRunner resnet = mps("resnet", 0.4, 0.5, 0);
    assertThat(model.slowdown(a100, resnet, List.of(mps("bert", 0.3, 0.5, 0), mps("vgg", 0.3, 0.5, 0)))).isCloseTo(1.17 * 1.05, within(1e-12));
    assertThat(model.slowdown(a100, resnet, List.of(mps("bert", 0.3, 0.5, 0), mps("llama", 0.3, 0.5, 0)))).isCloseTo(1.10, within(1e-12));
    assertThatThrownBy(() -> new PairTableInterference(Map.of("a", Map.of("b", 0.9)), new NoInterference()))
        .hasMessageContaining("pairTable[a][b] = 0.9");
  }

  @Test
  void coRunnerDefaultsComeFromTheRoofline() {
    GpuPartitioning parts = SharingCatalog.standard().partitioning(a100.name());
    Model decode = ModelCatalog.decode("llama2-7b", 512);
    SharedStage stage = SharedStage.wholeModel(decode, 1, a100, parts, new MpsShare(0.5, 0));
    double t = AnalyticShareTimeModel.calibrated().seconds(stage).getAsDouble();
    CoRunner c = CoRunner.of("chat", stage, t);
    assertThat(c.dramUtilisation()).as("a batch-1 decode step is memory-bound").isGreaterThan(0.9);
    assertThat(c.share()).isEqualTo(0.5);
    assertThat(c.dramBytesPerSecond()).isCloseTo(AnalyticShareTimeModel.dramBytesPerBatch(decode, 0, decode.size(), 1) / t, within(1.0));
    SharedStage prefill = SharedStage.wholeModel(ModelCatalog.prefill("llama2-7b", 512), 8, a100, parts, new MpsShare(0.5, 0));
    assertThat(CoRunner.of("p", prefill, 1).dramUtilisation()).as("a long prefill is compute-bound").isLessThan(0.1);
    assertThatThrownBy(() -> new CoRunner("x", new MpsShare(0.5, 0), 0.5, 50, 0.5, 0)).hasMessageContaining("coRunner[x].l2Utilisation = 50.0");
  }

  @Test
  void everyModelAtLeastOneAndJsonRoundTrips() {
    Property.forSeeds("interference α >= 1 and JSON round trip is identity", 100, seed -> {
      Random r = new Random(seed);
      InterferenceModel m = switch (r.nextInt(5)) {
        case 0 -> new NoInterference();
        case 1 -> new LinearInterference(r.nextDouble() * 0.2);
        case 2 -> new GpuLetsInterference(Map.of(a100.name(), r.nextBoolean() ? GpuLetsInterference.RTX_2080_TI : GpuLetsInterference.RTX_3080));
        case 3 -> new BandwidthOverflow();
        default -> new PairTableInterference(Map.of("s0", Map.of("s1", 1 + r.nextDouble())), new LinearInterference(0.05));
      };
      assertThat(RampaJson.read(RampaJson.write(m), InterferenceModel.class)).isEqualTo(m);
      double bw = a100.effectiveBandwidthBytesPerSecond();
      CoRunner self = mps("s0", 0.05 + 0.5 * r.nextDouble(), r.nextDouble(), r.nextDouble() * bw);
      List<CoRunner> others = List.of(mps("s1", 0.05 + 0.4 * r.nextDouble(), r.nextDouble(), r.nextDouble() * bw));
      assertThat(m.slowdown(a100, self, others)).isGreaterThanOrEqualTo(1);
    });
    assertThat(RampaJson.write(InterferenceModel.defaults())).contains("\"model\" : \"linear\"").doesNotContain("org.rampa");
  }
}
