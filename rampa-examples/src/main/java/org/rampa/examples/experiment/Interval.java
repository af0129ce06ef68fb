package org.rampa.examples.experiment;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.rampa.domain.Invalid;

/**
 * A statistic over seeds and how far it can be trusted: the one statistics helper every report
 * (admission, E1–E4, learned-policy evaluation) uses, so that every table and chart says the same
 * thing the same way.
 *
 * <p>Three kinds of quantity, each kept inside its domain:
 * <ul>
 *   <li>{@link #ratio ratios} (a gain over a baseline, a fraction of a bound, scale over exclusive
 *       use) are multiplicative, so they are averaged in log space: the geometric mean, and the
 *       Student-t interval of the mean log-ratio back-transformed, which never leaves (0, ∞);
 *   <li>{@link #proportion proportions} (a share of replays, of arrivals) keep the arithmetic mean and
 *       a t-interval clamped to [0, 1];
 *   <li>{@link #amount amounts} (services, GPUs, seconds) keep the arithmetic mean and a t-interval
 *       clamped to [0, ∞).
 * </ul>
 * With fewer than {@link #MIN_SEEDS_FOR_INTERVAL} seeds a t-interval is too wide or too unstable to
 * mean anything (one degree of freedom is ±12.7 standard errors), so the interval is the seeds'
 * own range, min to max, and {@link #label} says so. Seeds are independent draws of the input.
 */
public record Interval(double mean, double low, double high, int n, Kind kind) {

  /** Below this many seeds the interval is the seeds' range, not a t-interval. */
  public static final int MIN_SEEDS_FOR_INTERVAL = 5;

  /** How {@link #mean} and the bounds were computed; {@link #label} turns it into a table header. */
  public enum Kind {
    ARITHMETIC_T("mean, 95 % interval"),
    ARITHMETIC_RANGE("mean, range"),
    GEOMETRIC_T("geometric mean, 95 % interval in log space"),
    GEOMETRIC_RANGE("geometric mean, range");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    /** "geometric mean, 95 % interval in log space", without the seed count. */
    public String text() {
      return text;
    }
  }

  /** t quantiles at 0.975 for 1..30 degrees of freedom. */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
      2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
      2.048, 2.045, 2.042};
  private static final double Z975 = 1.959964;

  public Interval {
    if (!(low <= mean && mean <= high) || n < 1 || kind == null) {
      throw Invalid.value("interval", String.format(Locale.ROOT, "%s [%s, %s] n=%d %s", mean, low, high, n, kind),
          "needs low <= mean <= high, n >= 1 and a kind");
    }
  }

  /**
   * A ratio in (0, ∞), or (0, {@code max}] when the quantity cannot exceed {@code max} (a fraction
   * of an upper bound): geometric mean, interval of the mean log-ratio. A zero value (a planner
   * without a plan) has no logarithm: the geometric mean is then 0 and the interval the seeds'
   * range, whatever their number.
   */
  public static Interval ratio(double[] values, double max) {
    check(values, 0, Double.POSITIVE_INFINITY);
    int n = values.length;
    double min = Arrays.stream(values).min().orElseThrow();
    double maxValue = Arrays.stream(values).max().orElseThrow();
    // a value above max is the caller's bug, but the report must still show it rather than hide it
    double ceiling = Math.max(max, maxValue);
    if (min == 0) {
      return new Interval(0, 0, maxValue, n, Kind.GEOMETRIC_RANGE);
    }
    double[] logs = Arrays.stream(values).map(Math::log).toArray();
    double meanLog = mean(logs);
    double geometric = Math.min(maxValue, Math.max(min, Math.exp(meanLog)));
    if (n < MIN_SEEDS_FOR_INTERVAL) {
      return new Interval(geometric, min, maxValue, n, Kind.GEOMETRIC_RANGE);
    }
    double half = halfWidth(logs, meanLog);
    return new Interval(geometric, Math.min(geometric, Math.exp(meanLog - half)), Math.max(geometric, Math.min(ceiling, Math.exp(meanLog + half))),
        n, Kind.GEOMETRIC_T);
  }

  /** A ratio with no upper limit. */
  public static Interval ratio(double[] values) {
    return ratio(values, Double.POSITIVE_INFINITY);
  }

  /** A proportion in [0, 1]. */
  public static Interval proportion(double[] values) {
    return additive(values, 0, 1);
  }

  /** A non-negative amount (GPUs, seconds). */
  public static Interval amount(double[] values) {
    return additive(values, 0, Double.POSITIVE_INFINITY);
  }

  /** An amount in [0, max] (services admitted out of {@code max} arrivals). */
  public static Interval amount(double[] values, double max) {
    return additive(values, 0, max);
  }

  private static Interval additive(double[] values, double lowest, double highest) {
    check(values, lowest, highest);
    int n = values.length;
    double mean = Math.min(highest, Math.max(lowest, mean(values)));
    if (n < MIN_SEEDS_FOR_INTERVAL) {
      return new Interval(mean, Arrays.stream(values).min().orElseThrow(), Arrays.stream(values).max().orElseThrow(), n, Kind.ARITHMETIC_RANGE);
    }
    double half = halfWidth(values, mean);
    return new Interval(mean, Math.max(lowest, mean - half), Math.min(highest, mean + half), n, Kind.ARITHMETIC_T);
  }

  private static void check(double[] values, double lowest, double highest) {
    if (values.length == 0) {
      throw Invalid.value("values", "[]", "an interval needs at least one value");
    }
    for (double v : values) {
      if (!(v >= lowest && v <= highest) || Double.isInfinite(v)) {
        throw Invalid.value("values", Arrays.toString(values), "every value must be finite and lie in [" + lowest + ", " + highest + "]");
      }
    }
  }

  private static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  private static double halfWidth(double[] values, double mean) {
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    int n = values.length;
    return t975(n - 1) * Math.sqrt(squares / (n - 1) / n);
  }

  /** Beyond the table, the Cornish-Fisher expansion of t around the normal quantile (error below 1e-4 there). */
  static double t975(int degrees) {
    if (degrees <= T975.length) {
      return T975[degrees - 1];
    }
    double z = Z975;
    double d = degrees;
    return z + (z * z * z + z) / (4 * d) + (5 * Math.pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
  }

  /**
   * The same statistic through an increasing map (a ratio as a percentage gain, {@code r -> 100 (r - 1)};
   * a fraction as a percentage): a monotone map carries the geometric mean's interval exactly.
   */
  public Interval map(DoubleUnaryOperator increasing) {
    return new Interval(increasing.applyAsDouble(mean), increasing.applyAsDouble(low), increasing.applyAsDouble(high), n, kind);
  }

  /** A ratio as a percentage gain: 1.158 becomes +15.8. */
  public Interval asGainPercent() {
    return map(r -> 100 * (r - 1));
  }

  /** For a fraction in [0, 1] (a proportion, or a ratio to an upper bound): its complement, 1 - x (rejected to admitted, scale / bound to the gap). */
  public Interval complement() {
    return new Interval(1 - mean, 1 - high, 1 - low, n, kind);
  }

  /** A fraction as a percentage. */
  public Interval asPercent() {
    return map(r -> 100 * r);
  }

  /** What the numbers are, for a table header or a chart axis: "geometric mean, 95 % interval in log space over 5 seeds". */
  public String label() {
    return label(kind, n);
  }

  /** The header over several statistics: their labels, each once ("...; geometric mean, range over 5 seeds" where a seed had no plan). */
  public static String header(java.util.Collection<Interval> intervals) {
    return String.join("; ", intervals.stream().filter(java.util.Objects::nonNull).map(Interval::label).distinct().toList());
  }

  public static String label(Kind kind, int seeds) {
    if (seeds == 1) {
      return "1 seed, no interval";
    }
    return kind.text + " over " + seeds + (seeds == 1 ? " seed" : " seeds");
  }

  /** "2.71 (2.49–2.93)" with {@code decimals} decimals; one seed is the value alone. */
  public String format(int decimals) {
    String f = "%." + decimals + "f";
    if (n == 1) {
      return String.format(Locale.ROOT, f, mean);
    }
    return String.format(Locale.ROOT, f + " (" + f + "–" + f + ")", mean, low, high);
  }
}
