package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;

class IgniterLawTest {

  /** iGniter's published ResNet-50 law on V100 (spatial-sharing.md; ms, r in percent). */
  private static double resnet50Ms(int b, double r) {
    return (-0.0175 * b * b + 58.3 * b - 0.012) / (r + 0.345) + 1.91;
  }

  @Test
  void recoversIgnitersPublishedLawFromItsOwnProfilingPlan() {
    List<IgniterLaw.Point> plan = new ArrayList<>();
    for (int b : List.of(1, 16, 32)) {
      for (double s : List.of(0.1, 0.5, 1.0)) {
        plan.add(new IgniterLaw.Point(b, s, resnet50Ms(b, 100 * s) / 1000));
      }
    }
    IgniterLaw law = IgniterLaw.fit(plan);
    assertThat(law.worstRelativeError(plan)).isLessThan(0.01);
    // and predicts points it was not fitted on, e.g. b = 8 at 25 %, b = 64 at 75 %
    assertThat(law.seconds(8, 0.25)).isCloseTo(resnet50Ms(8, 25) / 1000, within(0.01 * resnet50Ms(8, 25) / 1000));
    assertThat(law.seconds(64, 0.75)).isCloseTo(resnet50Ms(64, 75) / 1000, within(0.01 * resnet50Ms(64, 75) / 1000));
    // spatial-sharing.md's table: b=1 at r=10/50/100 is 7.5/3.1/2.5 ms
    assertThat(law.seconds(1, 0.1) * 1000).isCloseTo(7.5, within(0.1));
    assertThat(law.seconds(1, 1.0) * 1000).isCloseTo(2.5, within(0.1));
  }

  @Test
  void fitsMuxServeLlamaPrefillAcrossBatchesFromANinePointPlan() {
    List<IgniterLaw.Point> all = new ArrayList<>();
    List<IgniterLaw.Point> plan = new ArrayList<>();
    for (ShareSeries s : PublishedShareTables.muxServe()) {
      if (!s.name().equals("llama-7b-prefill-128") || s.batch() > 32) {
        continue;
      }
      for (int i = 0; i < s.shares().size(); i++) {
        IgniterLaw.Point p = new IgniterLaw.Point(s.batch(), s.shares().get(i), s.seconds().get(i));
        all.add(p);
        if (List.of(1, 8, 32).contains(s.batch()) && List.of(0.3, 0.5, 1.0).contains(s.shares().get(i))) {
          plan.add(p);
        }
      }
    }
    assertThat(plan).hasSize(9);
    IgniterLaw law = IgniterLaw.fit(plan);
    double worst = law.worstRelativeError(all);
    System.out.printf("iGniter law fitted on 9 MuxServe points (LLaMA-7B prefill, 128 tokens, b in {1,8,32} x s in {0.3,0.5,1.0}):"
        + " worst error %.3f over all %d points of batches 1..32%n", worst, all.size());
    assertThat(worst).isLessThan(0.5);

    GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
    GpuPartitioning parts = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
    Model model = Model.of("llama-7b-prefill-128", ModelCatalog.prefill("llama2-7b", 128).layers());
    ShareTimeModel tier = law.asShareTimeModel("llama-7b-prefill-128", "A100-SXM4-80GB");
    MpsShare share = new MpsShare(0.4, 0);
    assertThat(tier.seconds(SharedStage.wholeModel(model, 12, a100, parts, share)).getAsDouble()).isEqualTo(law.seconds(12, 0.4));
    assertThat(tier.seconds(SharedStage.wholeModel(model, 12, a100, parts, new MigSlice("3g.40gb", 0)))).isEmpty();
  }

  @Test
  void tooFewPointsAreRefused() {
    List<IgniterLaw.Point> five = List.of(new IgniterLaw.Point(1, 0.5, 1), new IgniterLaw.Point(1, 1, 1), new IgniterLaw.Point(2, 0.5, 1),
        new IgniterLaw.Point(2, 1, 1), new IgniterLaw.Point(4, 1, 1));
    assertThatThrownBy(() -> IgniterLaw.fit(five)).hasMessageContaining("igniter.points = 5").hasMessageContaining("Maybe profile");
    assertThatThrownBy(() -> new IgniterLaw.Point(1, 50, 1)).hasMessageContaining("igniter.point.share = 50.0");
  }
}
