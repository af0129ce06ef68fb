package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;

/**
 * The share tiers' calibration, redone from the published tables with the catalogs: the package
 * records its results (it sits below the catalogs, which are calibrated with its roofline), and
 * this test keeps the records equal to what the data give.
 */
class CalibratedFloorsTest {

  private final GpuType a100 = GpuCatalog.standard().type(PublishedShareTables.A100_80GB.get(0));

  @Test
  void theMuxServeFloorIsTheFitOfMuxServesLlama7bSlowdowns() {
    double fitted = AnalyticShareTimeModel.fitFloor(AnalyticShareTimeModel.DEFAULT_BANDWIDTH_SATURATION, muxServeSlowdowns());
    System.out.printf("MuxServe floor: fitted %s s per layer, recorded %s s%n", fitted, AnalyticShareTimeModel.MUXSERVE_FLOOR_SECONDS);
    assertThat(AnalyticShareTimeModel.MUXSERVE_FLOOR_SECONDS).isEqualTo(fitted);
    assertThat(AnalyticShareTimeModel.calibrated().floorSeconds()).isEqualTo(fitted);
  }

  @Test
  void thePyTorchEagerFloorIsTheFitOfParvaGpusCnnSlowdowns() {
    double fitted = AnalyticShareTimeModel.fitFloor(AnalyticShareTimeModel.DEFAULT_BANDWIDTH_SATURATION,
        parvaGpuSlowdowns(ServingRuntime.PYTORCH_EAGER));
    System.out.printf("PyTorch-eager floor: fitted %s s per layer, recorded %s s%n", fitted, AnalyticShareTimeModel.PYTORCH_EAGER_FLOOR_SECONDS);
    assertThat(AnalyticShareTimeModel.PYTORCH_EAGER_FLOOR_SECONDS).isEqualTo(fitted);
    assertThat(AnalyticShareTimeModel.calibrated().floorSeconds(ServingRuntime.PYTORCH_EAGER)).isEqualTo(fitted);
  }

  @Test
  void parvaGpuInstanceSharesAreTheSharingCatalogsA100Geometry() {
    MigGeometry geometry = SharingCatalog.standard().geometry("A100-80GB");
    PublishedShareTables.PARVAGPU_SMS.forEach((slices, sms) -> assertThat((double) sms / PublishedShareTables.A100_SMS)
        .as("share of ParvaGPU's %dg instance", slices)
        .isEqualTo(geometry.computeFraction(geometry.profile(PublishedShareTables.PARVAGPU_PROFILES.get(slices)))));
    assertThat(PublishedShareTables.PARVAGPU_PROFILES).containsOnlyKeys(PublishedShareTables.PARVAGPU_SMS.keySet());
  }

  /**
   * ParvaGPU's MIG slowdowns (one process; each instance size against 7g) of the catalog's CNNs it
   * measured, with the catalog's layers served by {@code runtime}.
   */
  static List<AnalyticShareTimeModel.Slowdown> parvaGpuSlowdowns(ServingRuntime runtime) {
    GpuType a100 = GpuCatalog.standard().type(PublishedShareTables.A100_80GB.get(0));
    GpuPartitioning gpu = a100.partitioning();
    List<AnalyticShareTimeModel.Slowdown> points = new ArrayList<>();
    for (ShareSeries s : PublishedShareTables.parvaGpu()) {
      int last = s.shares().size() - 1;
      if (s.processes() != 1 || !ModelCatalog.names().contains(s.name()) || !PublishedShareTables.parvaGpuProfile(s.shares().get(last)).equals("7g.80gb")) {
        continue;
      }
      Model m = ModelCatalog.model(s.name()).servedBy(runtime);
      SharedStage largest = SharedStage.wholeModel(m, s.batch(), a100, gpu, new MigSlice("7g.80gb", 0));
      for (int i = 0; i < last; i++) {
        SharedStage at = SharedStage.wholeModel(m, s.batch(), a100, gpu, new MigSlice(PublishedShareTables.parvaGpuProfile(s.shares().get(i)), 0));
        points.add(new AnalyticShareTimeModel.Slowdown(at, largest, s.seconds().get(i) / s.seconds().get(last)));
      }
    }
    return points;
  }

  /** MuxServe's single-GPU LLaMA-7B series ("llama-7b-prefill-512", "llama-7b-decode-128"), each share against 100 %. */
  private List<AnalyticShareTimeModel.Slowdown> muxServeSlowdowns() {
    GpuPartitioning gpu = a100.partitioning();
    List<AnalyticShareTimeModel.Slowdown> points = new ArrayList<>();
    for (ShareSeries s : PublishedShareTables.muxServe()) {
      String[] f = s.name().split("-");
      if (f.length != 4 || !f[1].equals("7b") || s.shares().get(s.shares().size() - 1) != 1.0) {
        continue;
      }
      int tokens = Integer.parseInt(f[3]);
      Model model = f[2].equals("prefill") ? ModelCatalog.prefill("llama2-7b", tokens) : ModelCatalog.decode("llama2-7b", tokens);
      double whole = s.seconds().get(s.seconds().size() - 1);
      SharedStage full = SharedStage.wholeModel(model, s.batch(), a100, gpu, new MpsShare(1, 0));
      for (int i = 0; i < s.shares().size() - 1; i++) {
        SharedStage at = SharedStage.wholeModel(model, s.batch(), a100, gpu, new MpsShare(s.shares().get(i), 0));
        points.add(new AnalyticShareTimeModel.Slowdown(at, full, s.seconds().get(i) / whole));
      }
    }
    return points;
  }
}
