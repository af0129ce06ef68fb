package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.examples.experiment.PerturbedShareTimeModel.LawFactors;
import org.rampa.examples.experiment.PerturbedShareTimeModel.Series;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.ShareLaw;
import org.rampa.perf.share.ShareSeries;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;


class PerturbedShareTimeModelTest {

  private static final String TYPE = "A100-SXM4-80GB";
  private final GpuType a100 = GpuCatalog.standard().type(TYPE);
  private final GpuPartitioning parts = SharingCatalog.standard().partitioning(TYPE);
  private final ShareTimeModel nominal = AnalyticShareTimeModel.calibrated();

  private SharedStage stage(Model m, int batch, Placement p) {
    return SharedStage.wholeModel(m, batch, a100, parts, p);
  }

  @Test
  void unitFactorsAndUnlistedSeriesGiveTheNominalTimeExactly() {
    PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal);
    Model resnet = ModelCatalog.model("resnet50");
    ShareTimeModel truth = laws.perturbed(Map.of(new Series(resnet.name(), ShareSeries.Kind.MIG), LawFactors.NONE,
        new Series("vgg16", ShareSeries.Kind.MPS), new LawFactors(1.2, 0.8)));
    for (Placement p : List.of(new MigSlice("3g.40gb", 4), new MpsShare(0.3, 0), new Whole())) {
      assertThat(truth.seconds(stage(resnet, 4, p))).isEqualTo(nominal.seconds(stage(resnet, 4, p)));
    }
  }

  @Test
  void aTruthAddsThePerturbationOfTheLawFittedThroughTheNominalAnswers() {
    PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal);
    Model bert = ModelCatalog.model("bert-base");
    ShareTimeModel truth = laws.perturbed(Map.of(new Series(bert.name(), ShareSeries.Kind.MIG), new LawFactors(1.2, 0.9),
        new Series(bert.name(), ShareSeries.Kind.MPS), new LawFactors(0.8, 1.1)));
    // MIG: the law through every profile of the card at the same batch and process count
    SharedStage mig = stage(bert, 8, new MigSliceMps("2g.20gb", 2, 2, 1L << 30));
    List<Double> shares = new java.util.ArrayList<>();
    List<Double> seconds = new java.util.ArrayList<>();
    for (var profile : parts.requireMig().profiles()) {
      SharedStage point = stage(bert, 8, new MigSliceMps(profile.name(), profile.allowedStarts().get(0), 2, 1L << 30));
      shares.add(point.computeFraction());
      seconds.add(nominal.seconds(point).getAsDouble());
    }
    ShareLaw law = ShareLaw.fit(shares, seconds);
    double s = mig.computeFraction();
    assertThat(truth.seconds(mig).getAsDouble())
        .isCloseTo(nominal.seconds(mig).getAsDouble() + 0.2 * law.a() / s - 0.1 * law.c(), within(1e-15));
    // MPS and the whole GPU share one series; the whole GPU reads the law at s = 1
    ShareLaw mps = laws.law(stage(bert, 8, new MpsShare(0.5, 0))).orElseThrow();
    SharedStage whole = stage(bert, 8, new Whole());
    assertThat(laws.law(whole)).contains(mps);
    assertThat(truth.seconds(whole).getAsDouble()).isCloseTo(nominal.seconds(whole).getAsDouble() - 0.2 * mps.a() + 0.1 * mps.c(), within(1e-15));
  }

  @Test
  void theLawFitsTheAnalyticTierClosely() {
    // the perturbation is only as meaningful as the law's fit to the nominal model: within 25 % on these series
    PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal);
    for (String name : List.of("resnet50", "vgg16", "mobilenetv2", "bert-base", "gpt2-small", "vit-b16")) {
      Model m = ModelCatalog.model(name);
      for (int batch : List.of(1, 8, 32)) {
        for (Placement p : List.of(new MigSlice("1g.10gb", 0), new MigSlice("3g.40gb", 4), new MigSlice("7g.80gb", 0), new MpsShare(0.2, 0),
            new MpsShare(0.6, 0))) {
          SharedStage st = stage(m, batch, p);
          double law = laws.law(st).orElseThrow().seconds(st.computeFraction());
          assertThat(law / nominal.seconds(st).getAsDouble()).as(name + " batch " + batch + " " + p.label()).isBetween(0.75, 1.25);
        }
      }
    }
  }
}
