package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.ImmutableLayer;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSliceMps;

/**
 * Configurations ParvaGPU measured on one instance size only (the 7g): the measured tier answers
 * them at exactly that size, nothing interpolates or extrapolates them to another size.
 */
class OneShareSeriesTest {

  private final MeasuredShareTable measured = MeasuredShareTable.published();
  private final FittedShareTimeModel fitted = FittedShareTimeModel.fit(measured.series());
  private final GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
  private final GpuPartitioning parts = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
  /** ParvaGPU's models enter by name: the tables answer for the name. */
  private final Model densenet169 = Model.of("densenet169",
      List.of(ImmutableLayer.builder().name("densenet169").flopsPerSample(0).weightBytes(0).outputBytesPerSample(0).build())).servedBy(ServingRuntime.PYTORCH_EAGER);

  @Test
  void parvaGpusTablesHoldFortyEightOneSizeConfigurationsAllOnTheSevenGInstance() {
    List<ShareSeries> one = PublishedShareTables.parvaGpu().stream().filter(s -> !s.fittable()).toList();
    assertThat(one).hasSize(48);
    assertThat(one.stream().filter(s -> s.batch() <= 128)).hasSize(40);
    assertThat(one).allSatisfy(s -> assertThat(s.shares()).containsExactly(98.0 / 108));
  }

  @Test
  void aSevenGOnlyConfigurationAnswersAtSevenGAndNowhereElse() {
    // densenet169.csv: "7,128,2,1753.764,0.073" and "4,128,2,0,0" (not run), nothing on 1g, 2g or 3g
    assertThat(seconds(measured, 128, "7g.80gb", 0)).isCloseTo(128 / 1753.764, within(1e-12));
    for (String smaller : List.of("1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb")) {
      assertThat(measured.seconds(stage(128, smaller, 0))).as(smaller).isEmpty();
      assertThat(fitted.seconds(stage(128, smaller, 0))).as(smaller).isEmpty();
    }
    // batch 96 lies between two 7g-only series (64 and 128): linear in batch on 7g, still nothing on 4g
    double at64 = seconds(measured, 64, "7g.80gb", 0);
    double at128 = seconds(measured, 128, "7g.80gb", 0);
    assertThat(seconds(measured, 96, "7g.80gb", 0)).isCloseTo((at64 + at128) / 2, within(1e-12));
    assertThat(measured.seconds(stage(96, "4g.40gb", 0))).isEmpty();
  }

  @Test
  void aLawIsNeverFittedToOneShare() {
    ShareSeries one = measured.series().stream()
        .filter(s -> s.name().equals("densenet169") && s.batch() == 128 && s.processes() == 2).findFirst().orElseThrow();
    assertThatThrownBy(one::fit).hasMessageContaining("shares").hasMessageContaining("needs at least two shares");
    assertThatThrownBy(() -> fitted.law(one)).hasMessageContaining("not one this model was fitted on");
    assertThat(fitted.seconds(stage(128, "7g.80gb", 0))).isEmpty();
  }

  @Test
  void aSeriesNeedsAtLeastOneShare() {
    assertThatThrownBy(() -> new ShareSeries("x", List.of("T4"), ShareSeries.Kind.MPS, 1, 1, List.of(), List.of(), ServingRuntime.TENSORRT))
        .hasMessageContaining("needs at least one share");
  }

  private SharedStage stage(int batch, String profile, int start) {
    return SharedStage.wholeModel(densenet169, batch, a100, parts, new MigSliceMps(profile, start, 2, 0));
  }

  private double seconds(ShareTimeModel m, int batch, String profile, int start) {
    return m.seconds(stage(batch, profile, start)).orElseThrow();
  }
}
