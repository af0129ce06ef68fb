package org.rampa.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;

/** Stage times on a part of a GPU go through the share-time tiers; a whole GPU keeps its time. */
class SharedStageTimeTest {

  private final PerformanceModel pm = PerformanceModel.defaults();
  private final GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
  private final String gpu = cluster.gpus().get(0).id();

  private double estimated(Model model, int batch, Placement placement) {
    ServiceRequest r = ServiceRequest.builder().id("s").model(model).slo(Slo.of(1, Duration.ofSeconds(10), batch)).build();
    return pm.estimate(r, List.of(new StageAssignment(0, model.size(), List.of(gpu), placement)), cluster).stageComputeSeconds().get(0);
  }

  private double tiers(Model model, int batch, Placement placement) {
    var stage = SharedStage.wholeModel(model, batch, a100, SharingCatalog.standard().partitioning(a100.name()), placement);
    return ShareTimeModel.defaults().seconds(stage).orElseThrow();
  }

  @Test
  void aWholeGpuKeepsTheWholeGpuModelsTimeExactly() {
    Model llama = ModelCatalog.prefill("llama2-7b", 512);
    assertThat(estimated(llama, 1, new Whole())).isEqualTo(pm.stageSeconds(llama, 0, llama.size(), a100, 1));
  }

  @Test
  void anMpsShareTakesTheAnalyticTierAndIsNotTimeOverShare() {
    Model llama = ModelCatalog.prefill("llama2-7b", 512);
    double whole = estimated(llama, 1, new Whole());
    double at30 = estimated(llama, 1, new MpsShare(0.3, 0));
    assertThat(at30).isEqualTo(tiers(llama, 1, new MpsShare(0.3, 0)));
    // the analytic default puts this stage 2.0x..3.3x slower at 30 % (MuxServe measured 2.28x), not 1/0.3
    assertThat(at30 / whole).isBetween(2.0, 3.3);
    assertThat(at30).isNotCloseTo(whole / 0.3, within(whole * 0.01));
  }

  @Test
  void aMigSliceOfAMeasuredModelAnswersParvaGpusMeasurement() {
    Model resnet = ModelCatalog.model("resnet50").servedBy(ServingRuntime.PYTORCH_EAGER);
    // ParvaGPU resnet50.csv: 3g, batch 8, 1 process: 1072.439 samples/s
    assertThat(estimated(resnet, 8, new MigSlice("3g.40gb", 4))).isCloseTo(8 / 1072.439, within(1e-12));
  }

  @Test
  void aCursorOnASharedKindReadsTheTiersAndItsMemory() {
    Model resnet = ModelCatalog.model("resnet50");
    DeviceKind slice = DeviceKind.of(a100, new MigSlice("1g.10gb", 6));
    StageCursor c = pm.cursor(resnet, 8, 0, List.of(new WholeGpu(a100), slice));
    while (c.canAdd()) {
      c.add();
    }
    assertThat(c.seconds(0)).isEqualTo(pm.stageSeconds(resnet, 0, resnet.size(), a100, 8));
    assertThat(c.seconds(1)).isEqualTo(tiers(resnet, 8, new MigSlice("1g.10gb", 6)));
    assertThat(slice.memoryBytes()).isEqualTo(SharingCatalog.standard().partitioning(a100.name()).requireMig().profile("1g.10gb").memoryBytes());
    assertThat(DeviceKind.of(a100, new Whole())).isEqualTo(new WholeGpu(a100));
  }

  @Test
  void aPlacementTheTypeDoesNotHaveIsRefusedByName() {
    Model resnet = ModelCatalog.model("resnet50");
    assertThatThrownBy(() -> estimated(resnet, 1, new MigSlice("3g.40gb", 2))).hasMessageContaining("mig[3g.40gb].start = 2");
    GpuType t4 = GpuCatalog.standard().type("T4");
    assertThatThrownBy(() -> DeviceKind.of(t4, new MigSlice("1g.10gb", 0))).hasMessageContaining("no MIG geometry");
  }
}
