package org.rampa.examples.experiment;

import java.util.Locale;
import org.rampa.domain.Invalid;

/**
 * The mean of per-seed values and its two-sided 95 % confidence interval (Student's t with
 * {@code n - 1} degrees of freedom; seeds are independent draws of the arrival sequence). With one
 * seed the interval is the point itself.
 */
public record Interval(double mean, double low, double high, int n) {

  /** t quantiles at 0.975 for 1..30 degrees of freedom. */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
      2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
      2.048, 2.045, 2.042};
  private static final double Z975 = 1.959964;

  public static Interval of(double[] values) {
    int n = values.length;
    if (n == 0) {
      throw Invalid.value("values", "[]", "an interval needs at least one value");
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    double mean = sum / n;
    if (n == 1) {
      return new Interval(mean, mean, mean, 1);
    }
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    double half = t975(n - 1) * Math.sqrt(squares / (n - 1) / n);
    return new Interval(mean, mean - half, mean + half, n);
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

  public double halfWidth() {
    return (high - low) / 2;
  }

  /** "329.4 ± 3.1" with {@code decimals} decimals. */
  public String format(int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f ± %." + decimals + "f", mean, halfWidth());
  }
}
