package org.rampa.perf.share;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * The two-term law {@code t(s) = A/s + C} of one stage at one batch size over the compute fraction
 * {@code s} (iGniter's form at fixed batch): {@code A} is the work that spreads over the SMs it
 * gets, {@code C} what does not (launches, host work, a bandwidth floor). Fitted by least squares
 * on {@code 1/s}; a proportional law {@code t(1)/s} is the special case {@code C = 0}, which real
 * measurements refute.
 */
public record ShareLaw(double a, double c) {

  public ShareLaw {
    if (!Double.isFinite(a) || !Double.isFinite(c)) {
      throw Invalid.value("shareLaw", "A = " + a + ", C = " + c, "must be finite");
    }
  }

  public double seconds(double share) {
    return a / share + c;
  }

  /** Least squares over points {@code (shares[i], seconds[i])}; needs two distinct shares. */
  public static ShareLaw fit(List<Double> shares, List<Double> seconds) {
    int n = shares.size();
    if (n != seconds.size() || shares.stream().distinct().count() < 2) {
      throw Invalid.value("shareLaw.points", n, "a fit needs at least two distinct shares, one time each");
    }
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      double x = 1 / shares.get(i);
      double y = seconds.get(i);
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    double a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    return new ShareLaw(a, (sy - a * sx) / n);
  }

  /** The largest |predicted - measured| / measured over the points. */
  public double worstRelativeError(List<Double> shares, List<Double> seconds) {
    double worst = 0;
    for (int i = 0; i < shares.size(); i++) {
      worst = Math.max(worst, Math.abs(seconds(shares.get(i)) - seconds.get(i)) / seconds.get(i));
    }
    return worst;
  }
}
