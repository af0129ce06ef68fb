package org.rampa.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.perf.PerformanceModel;

/**
 * The calibrated performance model against MLPerf: predicted ResNet-50 per-GPU throughput ratios
 * must lie within a factor 1.5 of the measured ones (the foundation issue's acceptance figures).
 */
class CalibrationTest {

  private static final int LARGE_BATCH = 128;
  private static final GpuCatalog CATALOG = GpuCatalog.standard();

  static double resnetThroughput(String gpu) {
    Model resnet = ModelCatalog.model("resnet50");
    GpuType type = CATALOG.type(gpu);
    return LARGE_BATCH / PerformanceModel.defaults().stageSeconds(resnet, 0, resnet.size(), type, LARGE_BATCH);
  }

  @ParameterizedTest(name = "{0}/{1} measured {2}")
  @CsvSource({
      "A100-PCIe-80GB, T4, 6.0",
      "H100-SXM5-80GB, A100-PCIe-80GB, 2.4",
      "A100-PCIe-80GB, A10, 2.67"})
  void resnet50ThroughputRatiosWithinFactorOneAndAHalfOfMlperf(String faster, String slower, double measured) {
    double predicted = resnetThroughput(faster) / resnetThroughput(slower);
    System.out.printf("calibration: ResNet-50 %s/%s predicted %.2f, measured %.2f%n", faster, slower, predicted, measured);
    assertThat(predicted).isBetween(measured / 1.5, measured * 1.5);
  }

  @Test
  void everyCatalogTypeHasEfficienciesInRangeAndSaysWhereTheyCameFrom() {
    for (String id : CATALOG.ids()) {
      GpuCatalog.Entry e = CATALOG.entry(id);
      System.out.printf("calibration: %-16s eta_c %.3f (%s) eta_m %.3f (%s) overhead %s (%s)%n",
          id, e.type().computeEfficiency(), e.calibration().computeEfficiency(),
          e.type().memoryEfficiency(), e.calibration().memoryEfficiency(),
          e.type().layerOverhead(), e.calibration().layerOverhead());
      assertThat(e.type().computeEfficiency()).as(id).isBetween(0.1, 1.0);
      assertThat(e.type().memoryEfficiency()).as(id).isBetween(0.3, 1.0);
      assertThat(e.calibration().computeEfficiency()).isNotBlank();
    }
    assertThat(CATALOG.entry("T4").calibration().computeEfficiency()).isEqualTo("measured on T4");
    assertThat(CATALOG.entry("A100-SXM4-80GB").calibration().computeEfficiency()).contains("Ampere GA100");
  }

  @Test
  void measuredBatchOneLatencyIsReproduced() {
    Model resnet = ModelCatalog.model("resnet50");
    double a100 = PerformanceModel.defaults().stageSeconds(resnet, 0, resnet.size(), CATALOG.type("A100-PCIe-80GB"), 1);
    // MLPerf v1.1 SingleStream p90: 0.479 ms; the overhead is fitted to it
    assertThat(a100 * 1e3).isCloseTo(0.479, org.assertj.core.data.Offset.offset(0.005));
  }
}
