package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

class ShareTimeModelTest {

  private final MeasuredShareTable measured = MeasuredShareTable.published();
  private final FittedShareTimeModel fitted = FittedShareTimeModel.fit(measured.series());
  private final GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
  private final GpuPartitioning parts = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
  /** The catalog's ResNet-50 served as ParvaGPU served it, so its tables answer for it. */
  private final Model resnet = ModelCatalog.model("resnet50").servedBy(ServingRuntime.PYTORCH_EAGER);
  /** Catalog Llama-2-7B layers under MuxServe's series name and runtime, so the table answers for it. */
  private final Model llamaPrefill = Model.of("llama-7b-prefill-512", ModelCatalog.prefill("llama2-7b", 512).layers())
      .servedBy(ServingRuntime.MUXSERVE);

  @Test
  void measuredShareAnswersTheMeasurement() {
    // ParvaGPU resnet50.csv: 3g, batch 8, 1 process: 1072.439 samples/s
    assertThat(seconds(measured, resnet, 8, new MigSlice("3g.40gb", 4))).isCloseTo(8 / 1072.439, within(1e-12));
    // MuxServe llama-7b, 1 GPU, batch 1, sequence 512: prefill 112.825 ms at 30 %, 41.027 ms at 100 %
    assertThat(seconds(measured, llamaPrefill, 1, new MpsShare(0.3, 0))).isCloseTo(0.112825, within(1e-12));
    assertThat(seconds(measured, llamaPrefill, 1, new Whole())).isCloseTo(0.041027, within(1e-12));
  }

  @Test
  void aTableAnswersOnlyForModelsOfItsRuntime() {
    Model tensorRt = ModelCatalog.model("resnet50");
    Placement sevenG = new MigSlice("7g.80gb", 0);
    assertThat(measured.seconds(stage(tensorRt, 1, sevenG))).as("ParvaGPU's PyTorch table for a TensorRT ResNet-50").isEmpty();
    assertThat(fitted.seconds(stage(tensorRt, 1, sevenG))).isEmpty();
    // ParvaGPU resnet50.csv: 7g, batch 1, 1 process: 195.826 samples/s; in the default tiers the whole GPU of this runtime is that instance
    assertThat(seconds(measured, resnet, 1, sevenG)).isCloseTo(1 / 195.826, within(1e-12));
    assertThat(measured.seconds(stage(resnet, 1, new Whole()))).as("the table itself measured no whole GPU").isEmpty();
    assertThat(seconds(ShareTimeModel.defaults(), resnet, 1, new Whole())).isEqualTo(seconds(measured, resnet, 1, sevenG));
    assertThat(seconds(ShareTimeModel.defaults(), tensorRt, 1, new Whole()))
        .isEqualTo(seconds(AnalyticShareTimeModel.calibrated(), tensorRt, 1, new Whole()));
    assertThat(measured.seconds(stage(llamaPrefill.servedBy(ServingRuntime.TENSORRT), 1, new MpsShare(0.3, 0)))).isEmpty();
  }

  @Test
  void betweenSharesTheTwoTermLawThroughTheNeighboursNotAStraightLine() {
    double at30 = seconds(measured, llamaPrefill, 1, new MpsShare(0.3, 0));
    double at40 = seconds(measured, llamaPrefill, 1, new MpsShare(0.4, 0));
    double at35 = seconds(measured, llamaPrefill, 1, new MpsShare(0.35, 0));
    ShareLaw law = ShareLaw.fit(List.of(0.3, 0.4), List.of(at30, at40));
    assertThat(at35).isCloseTo(law.seconds(0.35), within(1e-12));
    assertThat(at35).isNotCloseTo((at30 + at40) / 2, within(1e-6));
  }

  @Test
  void betweenBatchesLinearAndOutsideTheTableNothing() {
    Placement p = new MigSlice("2g.20gb", 0);
    double b2 = seconds(measured, resnet, 2, p);
    double b4 = seconds(measured, resnet, 4, p);
    assertThat(seconds(measured, resnet, 3, p)).isCloseTo((b2 + b4) / 2, within(1e-12));
    assertThat(measured.seconds(stage(llamaPrefill, 1, new MpsShare(0.2, 0)))).as("below 30 %").isEmpty();
    assertThat(measured.seconds(stage(resnet, 1000, p))).as("beyond the largest batch").isEmpty();
    assertThat(measured.seconds(new SharedStage(resnet, 0, 3, 1, a100, parts, p))).as("part of a model").isEmpty();
    GpuType h100 = GpuCatalog.standard().type("H100-SXM5-80GB");
    GpuPartitioning h100Parts = SharingCatalog.standard().partitioning("H100-SXM5-80GB");
    assertThat(measured.seconds(SharedStage.wholeModel(resnet, 8, h100, h100Parts, new MigSlice("3g.40gb", 4)))).as("another GPU").isEmpty();
  }

  @Test
  void processesInsideAnInstanceSelectTheirOwnSeries() {
    double one = seconds(measured, resnet, 8, new MigSliceMps("3g.40gb", 0, 1, 0));
    double two = seconds(measured, resnet, 8, new MigSliceMps("3g.40gb", 0, 2, 0));
    assertThat(one).isEqualTo(seconds(measured, resnet, 8, new MigSlice("3g.40gb", 0)));
    assertThat(two).isGreaterThan(one);
  }

  @Test
  void fittedLawExtrapolatesWhereTheTableStopsButNeverBelowTheFastestMeasurement() {
    double at20 = seconds(fitted, llamaPrefill, 1, new MpsShare(0.2, 0));
    assertThat(at20).isGreaterThan(seconds(measured, llamaPrefill, 1, new MpsShare(0.3, 0)));
    // a flat, noisy series fits A < 0 (A = -1 ms, C = 12 ms): at 10 % the law says 2 ms, faster than ever measured
    ShareSeries flat = new ShareSeries("resnet50", List.of("A100-SXM4-80GB"), ShareSeries.Kind.MPS, 1, 1, List.of(0.5, 1.0), List.of(0.010, 0.011),
        ServingRuntime.PYTORCH_EAGER);
    assertThat(flat.fit().seconds(0.1)).isCloseTo(0.002, within(1e-12));
    assertThat(seconds(FittedShareTimeModel.fit(List.of(flat)), resnet, 1, new MpsShare(0.1, 0))).isEqualTo(0.010);
  }

  @Test
  void tiersAnswerInOrder() {
    AnalyticShareTimeModel analytic = AnalyticShareTimeModel.calibrated();
    ShareTimeModel tiered = ShareTimeModel.firstOf(List.of(measured, fitted, analytic));
    assertThat(seconds(tiered, llamaPrefill, 1, new MpsShare(0.3, 0))).isEqualTo(seconds(measured, llamaPrefill, 1, new MpsShare(0.3, 0)));
    assertThat(seconds(tiered, llamaPrefill, 1, new MpsShare(0.2, 0))).isEqualTo(seconds(fitted, llamaPrefill, 1, new MpsShare(0.2, 0)));
    Model llama13 = ModelCatalog.prefill("llama2-13b", 512);
    assertThat(seconds(tiered, llama13, 1, new MpsShare(0.2, 0))).isEqualTo(seconds(analytic, llama13, 1, new MpsShare(0.2, 0)));
  }

  @Test
  void stagesThatCannotExistAreRefused() {
    assertThatThrownBy(() -> stage(resnet, 1, new MigSlice("3g.40gb", 2))).hasMessageContaining("mig[3g.40gb].start = 2");
    assertThatThrownBy(() -> stage(resnet, 0, new Whole())).hasMessageContaining("stage.batch = 0");
    assertThatThrownBy(() -> new SharedStage(resnet, 2, 2, 1, a100, parts, new Whole())).hasMessageContaining("stage = [2, 2)");
    assertThatThrownBy(() -> new ShareSeries("x", List.of("T4"), ShareSeries.Kind.MPS, 1, 1, List.of(0.5, 0.4), List.of(1.0, 2.0),
        ServingRuntime.TENSORRT))
        .hasMessageContaining("strictly increase");
  }

  private SharedStage stage(Model m, int batch, Placement p) {
    return SharedStage.wholeModel(m, batch, a100, parts, p);
  }

  private double seconds(ShareTimeModel model, Model m, int batch, Placement p) {
    return model.seconds(stage(m, batch, p)).orElseThrow();
  }
}
