package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TierErrorsTest {

  @Test
  void probe() {
    for (var src : java.util.List.of(PublishedShareTables.parvaGpu(), TierErrors.published().stream().filter(x -> x.kind() == ShareSeries.Kind.MPS).toList())) {
      java.util.List<double[]> worst = new java.util.ArrayList<>();
      java.util.List<Double> all = new java.util.ArrayList<>();
      for (ShareSeries s : src) {
        var x = s.shares(); var t = s.seconds();
        for (int i = 1; i + 1 < x.size(); i++) {
          ShareLaw law = ShareLaw.fit(List.of(x.get(i - 1), x.get(i + 1)), List.of(t.get(i - 1), t.get(i + 1)));
          double r = t.get(i) / law.seconds(x.get(i));
          all.add(r);
          if (r > 1.3) System.out.printf("  %s b%d p%d s=%.3f r=%.3f  %s%n", s.name(), s.batch(), s.processes(), x.get(i), r, t);
        }
      }
      java.util.Collections.sort(all);
      System.out.printf("n=%d p99=%.3f p999=%.3f%n", all.size(), TierErrors.quantile(all, .99), TierErrors.quantile(all, .999));
    }
  }

  @Test
  void eachTierStatesItsErrorFromThePublishedTables() {
    for (ShareTier t : ShareTier.values()) {
      List<Double> r = TierErrors.ratios(t);
      System.out.printf("%s: %d points, median |log| %.4f, p50 %.4f p90 %.4f p99 %.4f max %.4f, margin %.4f%n", t, r.size(), TierErrors.medianAbsLog(t),
          TierErrors.quantile(r, 0.5), TierErrors.quantile(r, 0.9), TierErrors.quantile(r, 0.99), r.get(r.size() - 1), TierErrors.margin(t));
      assertThat(r).isSorted().allMatch(x -> x > 0 && Double.isFinite(x));
    }
  }
}
