package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MpsShare;

/** A margin inflates each answer by the margin of the tier that gave it, and only that. */
class TierMarginsTest {

  private final GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
  private final GpuPartitioning parts = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
  // one measured MPS series of ResNet-50 at batch 4 over shares 0.5 and 1: 0.5 is measured, 0.25 is the fitted law's, VGG-16 the analytic tier's
  private final ShareSeries series = new ShareSeries("resnet50", List.of("A100-SXM4-80GB"), ShareSeries.Kind.MPS, 1, 4, List.of(0.5, 1.0),
      List.of(0.010, 0.006), ServingRuntime.TENSORRT);
  private final ShareTimeModel tiers = ShareTimeModel.firstOf(List.of(MeasuredShareTable.of(List.of(series)), FittedShareTimeModel.fit(List.of(series)),
      AnalyticShareTimeModel.calibrated()));

  private SharedStage stage(String model, double share) {
    return SharedStage.wholeModel(ModelCatalog.model(model), 4, a100, parts, new MpsShare(share, 0));
  }

  @Test
  void eachTiersAnswerCarriesItsOwnMargin() {
    TierMargins m = new TierMargins(0.1, 0.2, 0.3);
    ShareTimeModel margined = tiers.withMargins(m);
    List<SharedStage> stages = List.of(stage("resnet50", 0.5), stage("resnet50", 0.25), stage("vgg16", 0.5));
    List<ShareTier> expected = List.of(ShareTier.MEASURED, ShareTier.FITTED, ShareTier.ANALYTIC);
    for (int i = 0; i < stages.size(); i++) {
      SharedStage s = stages.get(i);
      assertThat(tiers.tier(s)).isEqualTo(expected.get(i));
      assertThat(margined.seconds(s).getAsDouble()).isCloseTo(tiers.seconds(s).getAsDouble() * (1 + m.of(expected.get(i), ServingRuntime.TENSORRT)),
          org.assertj.core.data.Offset.offset(1e-15));
    }
    assertThat(margined.margins()).isEqualTo(m);
    assertThat(margined.nominal()).isSameAs(tiers);
    assertThat(margined.withMargins(TierMargins.none())).isSameAs(tiers);
    assertThat(margined.withMargins(TierMargins.uniform(0.5)).seconds(stages.get(0)).getAsDouble())
        .isCloseTo(0.015, org.assertj.core.data.Offset.offset(1e-15));
    assertThat(tiers.withMargins(TierMargins.none())).isSameAs(tiers);
  }

  @Test
  void theDefaultTiersSayWhichTierAnsweredSoTheMarginFollowsIt() {
    ShareTimeModel defaults = ShareTimeModel.defaults();
    // ParvaGPU measured PyTorch-eager ResNet-50 at batch 4 on 3g and 7g: a slice and the whole GPU (its 7g instance) are measured
    org.rampa.domain.Model eager = ModelCatalog.model("resnet50").servedBy(ServingRuntime.PYTORCH_EAGER);
    SharedStage slice = SharedStage.wholeModel(eager, 4, a100, parts, new org.rampa.domain.share.MigSlice("3g.40gb", 4));
    SharedStage whole = SharedStage.wholeModel(eager, 4, a100, parts, new org.rampa.domain.share.Whole());
    assertThat(defaults.tier(slice)).isEqualTo(ShareTier.MEASURED);
    assertThat(defaults.tier(whole)).isEqualTo(ShareTier.MEASURED);
    assertThat(TierMargins.defaults().of(ShareTier.MEASURED, whole)).isEqualTo(TierMargins.defaults().measured()).isPositive();
    // the catalog's TensorRT ResNet-50 is no table's: the analytic tier, whose margin covers shares but not the whole GPU
    SharedStage tensorRtShare = stage("resnet50", 0.5);
    SharedStage tensorRtWhole = SharedStage.wholeModel(ModelCatalog.model("resnet50"), 4, a100, parts, new org.rampa.domain.share.Whole());
    assertThat(defaults.tier(tensorRtShare)).isEqualTo(ShareTier.ANALYTIC);
    assertThat(defaults.withMargins(TierMargins.defaults()).seconds(tensorRtShare).getAsDouble()).isCloseTo(
        defaults.seconds(tensorRtShare).getAsDouble() * (1 + TierMargins.defaults().of(ShareTier.ANALYTIC, ServingRuntime.TENSORRT)),
        org.assertj.core.data.Offset.offset(1e-15));
    assertThat(defaults.withMargins(TierMargins.defaults()).seconds(tensorRtWhole)).isEqualTo(defaults.seconds(tensorRtWhole));
  }

  @Test
  void parseTakesNoneDefaultOrOneFractionAndRefusesTheRestNamingTheField() {
    assertThat(TierMargins.parse("--margin", "none")).isEqualTo(TierMargins.none());
    assertThat(TierMargins.parse("--margin", "0")).isEqualTo(TierMargins.none());
    assertThat(TierMargins.parse("--margin", "default")).isEqualTo(TierMargins.defaults());
    assertThat(TierMargins.parse("--margin", "0.15")).isEqualTo(TierMargins.uniform(0.15));
    assertThatThrownBy(() -> TierMargins.parse("--margin", "lots")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--margin")
        .hasMessageContaining("lots");
    assertThatThrownBy(() -> TierMargins.parse("--margin", "-0.1")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--margin");
    assertThatThrownBy(() -> new TierMargins(0, 11, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("margins.fitted");
    assertThat(TierMargins.defaults().scaled(0).isNone()).isTrue();
  }
}
