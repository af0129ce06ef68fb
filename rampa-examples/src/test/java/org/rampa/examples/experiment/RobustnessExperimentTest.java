package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.examples.experiment.PerturbedShareTimeModel;
import org.rampa.perf.share.ShareLaw;
import org.rampa.perf.share.SharedStage;
import org.rampa.perf.share.ShareTier;
import org.rampa.catalog.TierErrors;

class RobustnessExperimentTest {

  /** Every (service, batch, processes, placement) point of the default seeds' mixes, with its nominal time and law. */
  private record Point(SharedStage stage, double nominal, ShareLaw law) {}

  private static List<Point> points(RobustnessExperiment.Family family) {
    List<Point> out = new ArrayList<>();
    for (long seed = 1; seed <= 10; seed++) {
      ColocationProblem p = RobustnessExperiment.mix(family, seed).memoized();
      PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(p.timeModel());
      GpuPool pool = p.pools().get(0);
      for (ColocationService s : p.services()) {
        for (int batch : s.batches()) {
          for (int n : s.processCounts()) {
            List<Placement> placements = new ArrayList<>(List.of(new MpsShare(0.5, 0), new Whole()));
            for (MigProfile profile : pool.partitioning().requireMig().profiles()) {
              int start = profile.allowedStarts().get(0);
              placements.add(n == 1 ? new MigSlice(profile.name(), start) : new MigSliceMps(profile.name(), start, n, 0));
            }
            for (Placement placement : placements) {
              SharedStage stage = SharedStage.wholeModel(s.model(), batch, pool.type(), pool.partitioning(), placement);
              OptionalDouble t = p.timeModel().seconds(stage);
              if (t.isPresent()) {
                laws.law(stage).ifPresent(law -> out.add(new Point(stage, t.getAsDouble(), law)));
              }
            }
          }
        }
      }
    }
    return out;
  }

  @Test
  void noDrawCanMoveATimeByMuchMoreThanTheLawsTwentyPercentNorHitTheFloor() {
    // docs/vastpipe-e3.md quotes these extremes; a law with a negative term is what lets them pass 20 %
    double lowest = 1;
    double highest = 1;
    int points = 0;
    for (RobustnessExperiment.Family family : RobustnessExperiment.Family.values()) {
      for (Point p : points(family)) {
        double s = p.stage().computeFraction();
        double swing = RobustnessExperiment.LAW_SPREAD * (Math.abs(p.law().a()) / s + Math.abs(p.law().c()));
        lowest = Math.min(lowest, (p.nominal() - swing) / p.nominal());
        highest = Math.max(highest, (p.nominal() + swing) / p.nominal());
        points++;
      }
    }
    assertThat(points).isEqualTo(6940);
    assertThat(lowest).as("the floor at half the nominal time never binds").isGreaterThan(0.5).isCloseTo(0.750, within(0.001));
    assertThat(highest).isCloseTo(1.250, within(0.001));
  }

  @Test
  void marginsInflateTimesOrTightenTheSloRuleAndNothingElse() {
    ColocationProblem nominal = RobustnessExperiment.mix(RobustnessExperiment.Family.ANALYTIC, 3);
    ColocationProblem times = RobustnessExperiment.withMargin(nominal, 0.1, RobustnessExperiment.MarginKind.TIMES);
    ColocationProblem slo = RobustnessExperiment.withMargin(nominal, 0.1, RobustnessExperiment.MarginKind.SLO);
    GpuPool pool = nominal.pools().get(0);
    SharedStage stage = SharedStage.wholeModel(nominal.services().get(0).model(), 4, pool.type(), pool.partitioning(), new MigSlice("3g.40gb", 4));
    assertThat(times.timeModel().seconds(stage).getAsDouble()).isCloseTo(1.1 * nominal.timeModel().seconds(stage).getAsDouble(), within(1e-15));
    assertThat(times.sloRule()).isEqualTo(nominal.sloRule());
    assertThat(slo.sloRule().latencyFraction()).isCloseTo(0.9 * nominal.sloRule().latencyFraction(), within(1e-15));
    assertThat(slo.timeModel()).isSameAs(nominal.timeModel());
    assertThat(RobustnessExperiment.withMargin(nominal, 0, RobustnessExperiment.MarginKind.TIMES)).isSameAs(nominal);
  }

  @Test
  void truthsDependOnTheSeedAndDrawOnlyAndTheGammaScenarioSharesTheLawDraws() {
    ColocationProblem nominal = RobustnessExperiment.mix(RobustnessExperiment.Family.ANALYTIC, 5);
    PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal.timeModel());
    var perturbed = (PerturbedShareTimeModel) RobustnessExperiment.truth(nominal, laws, 5, 2, RobustnessExperiment.Scenario.PERTURBED).timeModel();
    var again = (PerturbedShareTimeModel) RobustnessExperiment.truth(nominal, laws, 5, 2, RobustnessExperiment.Scenario.PERTURBED).timeModel();
    var both = (PerturbedShareTimeModel) RobustnessExperiment.truth(nominal, laws, 5, 2, RobustnessExperiment.Scenario.PERTURBED_GAMMA_X2)
        .timeModel();
    var other = (PerturbedShareTimeModel) RobustnessExperiment.truth(nominal, laws, 5, 3, RobustnessExperiment.Scenario.PERTURBED).timeModel();
    assertThat(perturbed.factors()).isEqualTo(again.factors()).isEqualTo(both.factors()).isNotEqualTo(other.factors());
    assertThat(perturbed.factors()).hasSize(2 * nominal.services().size()).allSatisfy((series, f) -> {
      assertThat(f.a()).isBetween(0.8, 1.2);
      assertThat(f.c()).isBetween(0.8, 1.2);
    });
    var gamma = (PerturbedShareTimeModel) RobustnessExperiment.truth(nominal, laws, 5, 0, RobustnessExperiment.Scenario.GAMMA_X2).timeModel();
    assertThat(gamma.factors()).isEmpty();
  }

  @Test
  void aModelErrorTruthMovesEveryTimeByARatioTheAnsweringTierWasMeasuredToMakeAndTheTiersMarginCoversIt() {
    for (RobustnessExperiment.Family family : RobustnessExperiment.Family.values()) {
      ColocationProblem nominal = RobustnessExperiment.mix(family, 3).memoized();
      PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal.timeModel());
      for (int draw = 0; draw < 20; draw++) {
        ColocationProblem truth = RobustnessExperiment.truth(nominal, laws, 3, draw, RobustnessExperiment.Scenario.MODEL_ERROR);
        ColocationProblem margined = RobustnessExperiment.withMargin(nominal, 1, RobustnessExperiment.MarginKind.TIERS);
        assertThat(truth.interference()).isSameAs(nominal.interference());
        for (ColocationService s : nominal.services()) {
          GpuPool pool = nominal.pools().get(0);
          for (Placement placement : List.of(new MigSlice("1g.10gb", 0), new MigSlice("3g.40gb", 4), new MpsShare(0.5, 0))) {
            SharedStage stage = SharedStage.wholeModel(s.model(), s.batches().get(0), pool.type(), pool.partitioning(), placement);
            OptionalDouble t = nominal.timeModel().seconds(stage);
            if (t.isEmpty()) {
              continue;
            }
            ShareTier tier = nominal.timeModel().tier(stage);
            double ratio = truth.timeModel().seconds(stage).getAsDouble() / t.getAsDouble();
            assertThat(TierErrors.ratios(tier, s.model().runtime())).anySatisfy(r -> assertThat(r).isCloseTo(ratio, within(1e-9)));
            // a level up to 1 - 1 % / 10 is covered by the tier's default margin; the union bound asks no more of it
            if (ratio <= TierErrors.quantile(TierErrors.ratios(tier, s.model().runtime()), TierErrors.level())) {
              assertThat(margined.timeModel().seconds(stage).getAsDouble()).isGreaterThanOrEqualTo(truth.timeModel().seconds(stage).getAsDouble() * (1 - 1e-12));
            }
          }
        }
      }
    }
  }
}
