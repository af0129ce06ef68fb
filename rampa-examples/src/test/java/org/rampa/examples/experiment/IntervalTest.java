package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The statistics helper: fixed cases against hand computations, then properties over seeded random samples. */
class IntervalTest {

  private static final int CASES = 2000;

  @Test
  void ratioIsTheGeometricMeanWithTheStudentIntervalOfTheMeanLogBackTransformed() {
    double[] values = {1, 2, 4, 8, 16};
    Interval i = Interval.ratio(values);
    // logs 0, ln2 .. 4 ln2: mean 2 ln2 (geometric mean 4), sd of the logs ln2 * sqrt(2.5), t(0.975, 4) = 2.776
    double half = 2.776 * Math.log(2) * Math.sqrt(2.5) / Math.sqrt(5);
    assertThat(i.mean()).isEqualTo(4.0, Offset.offset(1e-12));
    assertThat(i.low()).isEqualTo(4 * Math.exp(-half), Offset.offset(1e-9));
    assertThat(i.high()).isEqualTo(4 * Math.exp(half), Offset.offset(1e-9));
    assertThat(i.kind()).isEqualTo(Interval.Kind.GEOMETRIC_T);
    assertThat(i.label()).isEqualTo("geometric mean, 95 % interval in log space over 5 seeds");
  }

  @Test
  void fewerThanFiveSeedsGiveTheirRangeLabelledAsSuch() {
    // the case: two seeds, where a t-interval of the mean would be +-12.7 standard errors
    Interval gain = Interval.ratio(new double[] {1.2, 7.0});
    assertThat(gain.low()).isEqualTo(1.2);
    assertThat(gain.high()).isEqualTo(7.0);
    assertThat(gain.mean()).isEqualTo(Math.sqrt(1.2 * 7.0), Offset.offset(1e-12));
    assertThat(gain.label()).isEqualTo("geometric mean, range over 2 seeds");
    Interval admitted = Interval.amount(new double[] {300, 310, 320});
    assertThat(admitted).isEqualTo(new Interval(310, 300, 320, 3, Interval.Kind.ARITHMETIC_RANGE));
    assertThat(admitted.format(1)).isEqualTo("310.0 (300.0–320.0)");
    assertThat(Interval.amount(new double[] {7}).format(2)).isEqualTo("7.00");
  }

  @Test
  void arithmeticStudentIntervalForAmountsClampedToTheirDomain() {
    Interval i = Interval.amount(new double[] {1, 2, 3, 4, 5});
    // sd sqrt(2.5), t(0.975, 4) = 2.776
    double half = 2.776 * Math.sqrt(2.5) / Math.sqrt(5);
    assertThat(i.mean()).isEqualTo(3.0);
    assertThat(i.low()).isEqualTo(3 - half, Offset.offset(1e-12));
    assertThat(i.high()).isEqualTo(3 + half, Offset.offset(1e-12));
    // a t-interval around a small count would reach below zero: clamped
    assertThat(Interval.amount(new double[] {0, 0, 0, 0, 9}).low()).isZero();
    assertThat(Interval.proportion(new double[] {1, 1, 1, 1, 0.2}).high()).isEqualTo(1.0);
  }

  @Test
  void aZeroRatioHasNoLogarithmSoTheGeometricMeanIsZeroOverTheRange() {
    Interval i = Interval.ratio(new double[] {0, 2, 3, 4, 5});
    assertThat(i.mean()).isZero();
    assertThat(i.low()).isZero();
    assertThat(i.high()).isEqualTo(5);
    assertThat(i.kind()).isEqualTo(Interval.Kind.GEOMETRIC_RANGE);
  }

  @Test
  void valuesOutsideTheDomainOrNotFiniteAreRefusedNamingThem() {
    assertThatThrownBy(() -> Interval.ratio(new double[0])).hasMessageContaining("values");
    assertThatThrownBy(() -> Interval.ratio(new double[] {1, -0.5})).hasMessageContaining("values").hasMessageContaining("-0.5");
    assertThatThrownBy(() -> Interval.amount(new double[] {1, Double.NaN})).hasMessageContaining("NaN");
    assertThatThrownBy(() -> Interval.proportion(new double[] {1.5})).hasMessageContaining("[0.0, 1.0]");
    assertThatThrownBy(() -> Interval.amount(new double[] {Double.POSITIVE_INFINITY})).hasMessageContaining("Infinity");
  }

  @Test
  void ratioIntervalsStayInZeroToInfinityContainTheirMeanAndIgnoreSeedOrder() {
    SplittableRandom random = new SplittableRandom(28);
    for (int c = 0; c < CASES; c++) {
      double[] values = sample(random, 1 + random.nextInt(12), () -> Math.exp(random.nextDouble(-6, 6)));
      Interval i = Interval.ratio(values);
      assertThat(i.low()).as("%s", Arrays.toString(values)).isGreaterThan(0);
      assertThat(i.high()).isFinite();
      assertThat(i.low()).isLessThanOrEqualTo(i.mean());
      assertThat(i.mean()).isLessThanOrEqualTo(i.high());
      double logMean = Arrays.stream(values).map(Math::log).average().orElseThrow();
      assertThat(Math.log(i.mean())).isEqualTo(logMean, Offset.offset(1e-9));
      assertThat(Interval.ratio(shuffled(random, values))).satisfies(j -> {
        assertThat(j.mean()).isEqualTo(i.mean(), Offset.offset(1e-9 * i.mean()));
        assertThat(j.low()).isEqualTo(i.low(), Offset.offset(1e-9 * i.mean()));
        assertThat(j.high()).isEqualTo(i.high(), Offset.offset(1e-9 * i.mean()));
      });
      // a ratio's unit does not matter: scaling every value scales the interval
      double k = Math.exp(random.nextDouble(-3, 3));
      Interval scaled = Interval.ratio(Arrays.stream(values).map(v -> k * v).toArray());
      assertThat(scaled.low()).isEqualTo(k * i.low(), Offset.offset(1e-9 * k * i.high()));
      assertThat(scaled.high()).isEqualTo(k * i.high(), Offset.offset(1e-9 * k * i.high()));
      // and the interval of the reciprocals is the reciprocal interval
      Interval inverse = Interval.ratio(Arrays.stream(values).map(v -> 1 / v).toArray());
      assertThat(inverse.mean()).isEqualTo(1 / i.mean(), Offset.offset(1e-9 / i.mean()));
      assertThat(inverse.low()).isEqualTo(1 / i.high(), Offset.offset(1e-9 / i.low()));
      if (values.length < Interval.MIN_SEEDS_FOR_INTERVAL) {
        assertThat(i.low()).isEqualTo(Arrays.stream(values).min().orElseThrow());
        assertThat(i.high()).isEqualTo(Arrays.stream(values).max().orElseThrow());
        assertThat(i.label()).contains(values.length == 1 ? "1 seed, no interval" : "range over " + values.length);
      } else {
        assertThat(i.label()).contains("95 % interval in log space over " + values.length);
      }
    }
  }

  @Test
  void aRatioBelowItsCeilingKeepsItsIntervalUnderIt() {
    SplittableRandom random = new SplittableRandom(2028);
    for (int c = 0; c < CASES; c++) {
      double[] values = sample(random, 5 + random.nextInt(8), () -> random.nextDouble(0.01, 1.0));
      Interval i = Interval.ratio(values, 1);
      assertThat(i.high()).isLessThanOrEqualTo(1.0);
      assertThat(i.low()).isGreaterThan(0);
      Interval gap = i.complement();
      assertThat(gap.low()).isGreaterThanOrEqualTo(0);
      assertThat(gap.high()).isLessThan(1.0);
      assertThat(gap.low()).isLessThanOrEqualTo(gap.mean());
      assertThat(i.asGainPercent().low()).isGreaterThan(-100);
    }
  }

  @Test
  void proportionsAndAmountsStayInTheirDomainAndIgnoreSeedOrder() {
    SplittableRandom random = new SplittableRandom(1028);
    for (int c = 0; c < CASES; c++) {
      // mass at the edges: the case where an unclamped t-interval leaves [0, 1]
      double[] shares = sample(random, 1 + random.nextInt(12), () -> random.nextInt(3) == 0 ? random.nextInt(2) : random.nextDouble());
      Interval p = Interval.proportion(shares);
      assertThat(p.low()).isGreaterThanOrEqualTo(0);
      assertThat(p.high()).isLessThanOrEqualTo(1);
      assertThat(p.low()).isLessThanOrEqualTo(p.mean());
      assertThat(p.mean()).isLessThanOrEqualTo(p.high());
      assertThat(p.mean()).isEqualTo(Arrays.stream(shares).average().orElseThrow(), Offset.offset(1e-12));
      assertThat(p.asPercent().high()).isLessThanOrEqualTo(100);
      Interval q = Interval.proportion(shuffled(random, shares));
      assertThat(q.low()).isEqualTo(p.low(), Offset.offset(1e-12));
      assertThat(q.high()).isEqualTo(p.high(), Offset.offset(1e-12));
      double[] counts = sample(random, 1 + random.nextInt(12), () -> random.nextInt(4) == 0 ? 0 : random.nextInt(500));
      Interval a = Interval.amount(counts);
      assertThat(a.low()).isGreaterThanOrEqualTo(0);
      assertThat(a.low()).isLessThanOrEqualTo(a.mean());
      assertThat(a.mean()).isLessThanOrEqualTo(a.high());
    }
  }

  @Test
  void quantilesBeyondTheTableMatchPublishedValues() {
    // published t(0.975) quantiles: 40 -> 2.021, 60 -> 2.000, 120 -> 1.980
    assertThat(Interval.t975(40)).isEqualTo(2.021, Offset.offset(1e-3));
    assertThat(Interval.t975(60)).isEqualTo(2.000, Offset.offset(1e-3));
    assertThat(Interval.t975(120)).isEqualTo(1.980, Offset.offset(1e-3));
    assertThat(Interval.t975(30)).isEqualTo(2.042);
  }

  private static double[] sample(SplittableRandom random, int n, java.util.function.DoubleSupplier value) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = value.getAsDouble();
    }
    return out;
  }

  private static double[] shuffled(SplittableRandom random, double[] values) {
    double[] out = values.clone();
    for (int i = out.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      double t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}
