package org.rampa.perf.share;

import java.util.List;
import java.util.OptionalDouble;
import org.rampa.domain.Invalid;

/**
 * iGniter's latency law over batch and share at once (docs/SHARING.md section 2):
 * {@code t(b, s) = (k1·b² + k2·b + k3) / (100·s + k4) + k5}, the two-term law {@code A(b)/s + C}
 * with a quadratic {@code A(b)} and a constant {@code C}. Times are in seconds, {@code s} a
 * fraction. Fitted by least squares from at least six points over at least two batches and two
 * shares (iGniter profiles b ∈ {1, 16, 32} × s ∈ {0.1, 0.5, 1.0}): linear in k1, k2, k3, k5 for a
 * fixed k4, so k4 is searched and the rest solved exactly.
 */
public record IgniterLaw(double k1, double k2, double k3, double k4, double k5) {

  /** One profiled point: batch, compute fraction, seconds. */
  public record Point(int batch, double share, double seconds) {
    public Point {
      if (batch < 1) {
        throw Invalid.value("igniter.point.batch", batch, "must be >= 1");
      }
      if (!(share > 0 && share <= 1)) {
        throw Invalid.value("igniter.point.share", share, "must lie in (0, 1]");
      }
      Invalid.requireFinitePositive("igniter.point.seconds", seconds);
    }
  }

  private static final int GRID = 400;

  public IgniterLaw {
    for (double k : new double[] {k1, k2, k3, k4, k5}) {
      if (!Double.isFinite(k)) {
        throw Invalid.value("igniterLaw", List.of(k1, k2, k3, k4, k5), "coefficients must be finite");
      }
    }
  }

  public double seconds(int batch, double share) {
    double b = batch;
    return (k1 * b * b + k2 * b + k3) / (100 * share + k4) + k5;
  }

  /**
   * This law as a tier for whole-model stages named {@code modelName} on {@code gpuType} under
   * contended placements (MPS shares, CU masks, the whole GPU), which is what iGniter profiles; at
   * any batch and share, so it extrapolates in batch where a per-batch law cannot.
   */
  public ShareTimeModel asShareTimeModel(String modelName, String gpuType) {
    return stage -> stage.coversWholeModel() && stage.model().name().equals(modelName)
            && stage.type().name().equals(gpuType) && !stage.placement().isolated()
        ? OptionalDouble.of(seconds(stage.batch(), stage.computeFraction()))
        : OptionalDouble.empty();
  }

  public static IgniterLaw fit(List<Point> points) {
    if (points.size() < 6
        || points.stream().map(Point::batch).distinct().count() < 2
        || points.stream().map(Point::share).distinct().count() < 2) {
      throw Invalid.value("igniter.points", points.size(), "a fit needs at least six points over at least two batches and two shares",
          "profile b in {1, 16, 32} at s in {0.1, 0.5, 1.0}, as iGniter does");
    }
    // denominators must stay positive over the profiled shares: k4 > -100·min(s)
    double lo = -100 * points.stream().mapToDouble(Point::share).min().orElseThrow() * 0.99;
    double hi = 100;
    double bestK4 = 0;
    double bestError = Double.POSITIVE_INFINITY;
    // a coarse grid finds the basin (the error need not be unimodal in k4), golden section refines it
    for (int i = 0; i <= GRID; i++) {
      double k4 = lo + (hi - lo) * Math.pow((double) i / GRID, 3);
      double e = squaredError(points, k4);
      if (e < bestError) {
        bestError = e;
        bestK4 = k4;
      }
    }
    double step = (hi - lo) / GRID * 3;
    double a = Math.max(lo, bestK4 - step);
    double b = Math.min(hi, bestK4 + step);
    double g = (Math.sqrt(5) - 1) / 2;
    for (int i = 0; i < 100; i++) {
      double x1 = b - g * (b - a);
      double x2 = a + g * (b - a);
      if (squaredError(points, x1) <= squaredError(points, x2)) {
        b = x2;
      } else {
        a = x1;
      }
    }
    double k4 = squaredError(points, (a + b) / 2) <= bestError ? (a + b) / 2 : bestK4;
    double[] k = solveLinear(points, k4);
    return new IgniterLaw(k[0], k[1], k[2], k4, k[3]);
  }

  /** The largest |predicted - measured| / measured over {@code points}. */
  public double worstRelativeError(List<Point> points) {
    double worst = 0;
    for (Point p : points) {
      worst = Math.max(worst, Math.abs(seconds(p.batch(), p.share()) - p.seconds()) / p.seconds());
    }
    return worst;
  }

  private static double squaredError(List<Point> points, double k4) {
    double[] k = solveLinear(points, k4);
    if (k == null) {
      return Double.POSITIVE_INFINITY;
    }
    IgniterLaw law = new IgniterLaw(k[0], k[1], k[2], k4, k[3]);
    double sum = 0;
    for (Point p : points) {
      double e = law.seconds(p.batch(), p.share()) - p.seconds();
      sum += e * e;
    }
    return sum;
  }

  /**
   * Least squares for (k1, k2, k3, k5) at fixed k4 by the normal equations; null when they are
   * singular. With only two batches b² is a combination of b and 1 over the points, so the
   * quadratic term is dropped (k1 = 0) instead of left undetermined.
   */
  private static double[] solveLinear(List<Point> points, double k4) {
    boolean quadratic = points.stream().map(Point::batch).distinct().count() >= 3;
    int n = quadratic ? 4 : 3;
    double[][] m = new double[n][n + 1];
    for (Point p : points) {
      double d = 100 * p.share() + k4;
      double b = p.batch();
      double[] x = quadratic ? new double[] {b * b / d, b / d, 1 / d, 1} : new double[] {b / d, 1 / d, 1};
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          m[i][j] += x[i] * x[j];
        }
        m[i][n] += x[i] * p.seconds();
      }
    }
    double[] sol = gauss(m, n);
    if (sol == null) {
      return null;
    }
    return quadratic ? sol : new double[] {0, sol[0], sol[1], sol[2]};
  }

  private static double[] gauss(double[][] m, int n) {
    for (int c = 0; c < n; c++) {
      int pivot = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
          pivot = r;
        }
      }
      if (Math.abs(m[pivot][c]) < 1e-300) {
        return null;
      }
      double[] t = m[c];
      m[c] = m[pivot];
      m[pivot] = t;
      for (int r = 0; r < n; r++) {
        if (r != c) {
          double f = m[r][c] / m[c][c];
          for (int j = c; j <= n; j++) {
            m[r][j] -= f * m[c][j];
          }
        }
      }
    }
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = m[i][n] / m[i][i];
    }
    return x;
  }
}
