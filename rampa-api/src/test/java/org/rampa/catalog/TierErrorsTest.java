package org.rampa.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.perf.share.ShareTier;
import org.rampa.perf.share.TierMargins;

/** Each tier's measured error and the margin derived from it (docs/vastpipe-e3.md quotes the figures printed here). */
class TierErrorsTest {

  @Test
  void eachTiersMarginCoversItsOwnErrorAtTheUnionBoundLevel() {
    for (ShareTier t : ShareTier.values()) {
      List<Double> r = TierErrors.ratios(t);
      double margin = TierErrors.margin(t);
      System.out.printf("%s: %d points, median |log error| %.4f, truth/predicted p50 %.4f p99 %.4f max %.4f, margin %s%n", t, r.size(),
          TierErrors.medianAbsLog(t), TierErrors.quantile(r, 0.5), TierErrors.quantile(r, 0.99), r.get(r.size() - 1), margin);
      assertThat(r).isNotEmpty().isSorted().allMatch(x -> x > 0 && Double.isFinite(x));
      long covered = r.stream().filter(x -> x <= 1 + margin).count();
      assertThat((double) covered / r.size()).isGreaterThanOrEqualTo(TierErrors.level());
    }
  }

  @Test
  void theRecordedDefaultMarginsAreTheOnesTheTablesGive() {
    for (ShareTier t : ShareTier.values()) {
      assertThat(TierMargins.defaults().of(t)).as(t.label()).isEqualTo(TierErrors.margin(t));
    }
  }

  @Test
  void theTablesTiersAreFarMoreAccurateThanTheAnalyticOne() {
    // the fitted law's leave-one-out error is a few percent (SHARING.md: 6.7 % median worst in-sample error per series);
    // the analytic tier misses ParvaGPU's PyTorch CNN slowdowns by a median |log error| near 0.39 (docs/SHARING-MODEL.md)
    assertThat(TierErrors.medianAbsLog(ShareTier.MEASURED)).isLessThan(0.05);
    assertThat(TierErrors.medianAbsLog(ShareTier.FITTED)).isLessThan(0.07);
    assertThat(TierErrors.medianAbsLog(ShareTier.ANALYTIC)).isBetween(0.3, 0.5);
    assertThat(TierErrors.margin(ShareTier.MEASURED)).isLessThan(TierErrors.margin(ShareTier.ANALYTIC));
  }

  @Test
  void quantileIsTheOrderStatisticAtTheLevel() {
    List<Double> s = List.of(1.0, 2.0, 3.0, 4.0);
    assertThat(TierErrors.quantile(s, 0)).isEqualTo(1.0);
    assertThat(TierErrors.quantile(s, 0.5)).isEqualTo(2.0);
    assertThat(TierErrors.quantile(s, 0.51)).isEqualTo(3.0);
    assertThat(TierErrors.quantile(s, 1)).isEqualTo(4.0);
  }
}
