package org.rampa.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ServingRuntime;
import org.rampa.perf.share.ShareTier;
import org.rampa.perf.share.TierMargins;

/** Each tier's measured error and the margin derived from it (docs/vastpipe-e3.md quotes the figures printed here). */
class TierErrorsTest {

  @Test
  void eachTiersMarginCoversItsOwnErrorAtTheUnionBoundLevel() {
    for (ShareTier t : ShareTier.values()) {
      for (ServingRuntime runtime : ServingRuntime.values()) {
        List<Double> r = TierErrors.ratios(t, runtime);
        double margin = TierErrors.margin(t, runtime);
        System.out.printf("%s, %s: %d points, median |log error| %.4f, truth/predicted p50 %.4f p99 %.4f max %.4f, margin %s%n", t, runtime,
            r.size(), TierErrors.medianAbsLog(t, runtime), TierErrors.quantile(r, 0.5), TierErrors.quantile(r, 0.99), r.get(r.size() - 1), margin);
        assertThat(r).isNotEmpty().isSorted().allMatch(x -> x > 0 && Double.isFinite(x));
        long covered = r.stream().filter(x -> x <= 1 + margin).count();
        assertThat((double) covered / r.size()).isGreaterThanOrEqualTo(TierErrors.level());
      }
    }
  }

  @Test
  void theRecordedDefaultMarginsAreTheOnesTheTablesGive() {
    for (ShareTier t : ShareTier.values()) {
      for (ServingRuntime runtime : ServingRuntime.values()) {
        assertThat(TierMargins.defaults().of(t, runtime)).as("%s, %s", t.label(), runtime).isEqualTo(TierErrors.margin(t, runtime));
      }
    }
  }

  @Test
  void eachRuntimesAnalyticErrorIsMeasuredOnItsOwnRuntimeAndTensorRtTakesTheWorstMeasured() {
    assertThat(TierErrors.analyticSource(ServingRuntime.PYTORCH_EAGER)).isEqualTo(ServingRuntime.PYTORCH_EAGER);
    assertThat(TierErrors.analyticSource(ServingRuntime.MUXSERVE)).isEqualTo(ServingRuntime.MUXSERVE);
    // no shipped table measures a TensorRT share: its margin is the larger of the two measured runtimes'
    double worst = Math.max(TierErrors.margin(ShareTier.ANALYTIC, ServingRuntime.PYTORCH_EAGER), TierErrors.margin(ShareTier.ANALYTIC, ServingRuntime.MUXSERVE));
    assertThat(TierErrors.margin(ShareTier.ANALYTIC, ServingRuntime.TENSORRT)).isEqualTo(worst);
    // held out (floor fitted on the other models of the runtime's own table), the slowdown error stays near the
    // in-sample calibration figures of docs/SHARING-MODEL.md (0.074-0.080 PyTorch eager, 0.095 MuxServe), far below
    // the 0.39 of the cross-runtime comparison this replaced
    assertThat(TierErrors.medianAbsLog(ShareTier.ANALYTIC, ServingRuntime.PYTORCH_EAGER)).isLessThan(0.15);
    assertThat(TierErrors.medianAbsLog(ShareTier.ANALYTIC, ServingRuntime.MUXSERVE)).isLessThan(0.15);
  }

  @Test
  void theTablesTiersAreMoreAccurateThanTheAnalyticOne() {
    // the fitted law's leave-one-out error is a few percent (SHARING.md: 6.7 % median worst in-sample error per series)
    assertThat(TierErrors.medianAbsLog(ShareTier.MEASURED, ServingRuntime.TENSORRT)).isLessThan(0.05);
    assertThat(TierErrors.medianAbsLog(ShareTier.FITTED, ServingRuntime.TENSORRT)).isLessThan(0.07);
    for (ServingRuntime runtime : ServingRuntime.values()) {
      assertThat(TierErrors.margin(ShareTier.MEASURED, runtime)).isLessThan(TierErrors.margin(ShareTier.ANALYTIC, runtime));
    }
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
