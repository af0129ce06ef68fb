package org.rampa.perf.share;

import java.util.List;
import java.util.OptionalDouble;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.Roofline;

/**
 * Tier 3, the analytic default (docs/SHARING.md section 2): per layer, the whole-GPU time of
 * {@link PerformanceModel#layerSeconds} split into a share-independent part (the type's layer
 * overhead plus a floor) and a roofline part whose compute term scales with the compute fraction
 * {@code sc} and whose memory term with the usable bandwidth {@code bw}:
 *
 * <pre>t(s) = overhead + floor + max(compute / sc, memory / bw)</pre>
 *
 * where compute and memory are the roofline terms scaled so that {@code t(1)} is exactly the
 * whole-GPU time (measured layer profiles included). {@code bw} is the bandwidth fraction for
 * isolated placements (MIG, templates) and {@code min(1, sc / β)} for contended ones (MPS, CU
 * masks): a few SMs cannot pull the whole bus. Never {@code time / share}.
 *
 * <p>β = 0.45 is docs/SHARING.md's reading of MuxServe's decode measurements (modelled, not fitted
 * here). The floor is calibrated ({@link #fitFloor}): the per-layer time that best reproduces, in
 * least squares on log slowdowns, MuxServe's measured slowdowns of LLaMA-7B on one A100-80GB
 * (every batch, sequence length, phase and MPS share of the table), predicting with the catalog's
 * Llama-2-7B. It is the serving runtime's launch cost, so other GPU types take the same value: an
 * assumption.
 */
public final class AnalyticShareTimeModel implements ShareTimeModel {

  /** β: the compute fraction at which an MPS share can pull the whole bus (modelled, docs/SHARING.md). */
  public static final double DEFAULT_BANDWIDTH_SATURATION = 0.45;

  private static final double FLOOR_SEARCH_MAX_SECONDS = 2e-3;

  /**
   * {@link #fitFloor} on MuxServe's single-GPU LLaMA-7B slowdowns (every batch, sequence length,
   * phase and MPS share against 100 %), predicted with the catalog's Llama-2-7B on the A100-SXM4-80GB
   * at β = 0.45. Recorded here rather than fitted on load, since the fit needs the GPU and model
   * catalogs, which are calibrated with this package's roofline (a package cycle otherwise);
   * {@code CalibratedFloorsTest} fits it again from the tables and requires the same double.
   */
  static final double MUXSERVE_FLOOR_SECONDS = 1.6038034416636756E-4;

  private static final AnalyticShareTimeModel CALIBRATED =
      new AnalyticShareTimeModel(DEFAULT_BANDWIDTH_SATURATION, MUXSERVE_FLOOR_SECONDS);

  private final double bandwidthSaturation;
  private final double floorSeconds;

  private AnalyticShareTimeModel(double bandwidthSaturation, double floorSeconds) {
    if (!(bandwidthSaturation > 0 && bandwidthSaturation <= 1)) {
      throw Invalid.value("bandwidthSaturation", bandwidthSaturation, "must lie in (0, 1]");
    }
    Invalid.requireFiniteNonNegative("floorSeconds", floorSeconds);
    this.bandwidthSaturation = bandwidthSaturation;
    this.floorSeconds = floorSeconds;
  }

  /** β = 0.45 and the floor calibrated on MuxServe's table. */
  public static AnalyticShareTimeModel calibrated() {
    return CALIBRATED;
  }

  /** Explicit β and per-layer floor, e.g. for sensitivity studies. */
  public static AnalyticShareTimeModel of(double bandwidthSaturation, double floorSeconds) {
    return new AnalyticShareTimeModel(bandwidthSaturation, floorSeconds);
  }

  public double bandwidthSaturation() {
    return bandwidthSaturation;
  }

  /** The share-independent floor per layer, in seconds. */
  public double floorSeconds() {
    return floorSeconds;
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    double sc = stage.computeFraction();
    double bw = stage.placement().isolated()
        ? stage.bandwidthFraction()
        : Math.min(stage.bandwidthFraction(), sc / bandwidthSaturation);
    double t = 0;
    for (int l = stage.from(); l < stage.to(); l++) {
      t += layerSeconds(stage.model().layer(l), stage.type(), stage.batch(), sc, Math.min(1, bw));
    }
    return OptionalDouble.of(t);
  }

  /**
   * The fraction of a stage's whole-GPU roofline time that is memory-bound: the default DRAM
   * utilisation interference models take (docs/SHARING.md section 3).
   */
  public static double memoryBoundFraction(Model model, int from, int to, GpuType type, int batch) {
    double memoryBound = 0;
    double total = 0;
    for (int l = from; l < to; l++) {
      Roofline r = Roofline.of(model.layer(l), type, batch);
      total += r.boundSeconds();
      if (r.memoryBound()) {
        memoryBound += r.memorySeconds();
      }
    }
    return total > 0 ? memoryBound / total : 0;
  }

  /** Bytes a stage moves to and from DRAM per batch, by the roofline: weights plus per-sample traffic. */
  public static double dramBytesPerBatch(Model model, int from, int to, int batch) {
    double bytes = 0;
    for (int l = from; l < to; l++) {
      bytes += Roofline.dramBytes(model.layer(l), batch);
    }
    return bytes;
  }

  private double layerSeconds(Layer layer, GpuType type, int batch, double sc, double bw) {
    double whole = PerformanceModel.defaults().layerSeconds(layer, type, batch);
    double fixed = Math.min(whole, type.layerOverhead().toNanos() * 1e-9 + floorSeconds);
    Roofline r = Roofline.of(layer, type, batch);
    double peak = r.boundSeconds();
    if (peak == 0) {
      return whole;
    }
    double k = (whole - fixed) / peak;
    return fixed + Math.max(k * r.computeSeconds() / sc, k * r.memorySeconds() / bw);
  }

  /**
   * One measured slowdown to reproduce: the time of {@code atShare} over that of {@code whole}
   * (the same stage on a larger placement) was {@code measured}.
   */
  public record Slowdown(SharedStage atShare, SharedStage whole, double measured) {
    public Slowdown {
      Invalid.requireFinitePositive("slowdown.measured", measured);
    }
  }

  /**
   * The per-layer floor that best reproduces {@code points} at saturation {@code bandwidthSaturation}:
   * least squares on log slowdowns, by golden-section search over [0, 2 ms] (the squared log error is
   * unimodal in the floor there). How {@link #calibrated()}'s floor was obtained.
   */
  public static double fitFloor(double bandwidthSaturation, List<Slowdown> points) {
    if (points.isEmpty()) {
      throw Invalid.value("points", 0, "a floor needs at least one measured slowdown");
    }
    double lo = 0;
    double hi = FLOOR_SEARCH_MAX_SECONDS;
    double g = (Math.sqrt(5) - 1) / 2;
    while (hi - lo > 1e-8) {
      double a = hi - g * (hi - lo);
      double b = lo + g * (hi - lo);
      if (error(bandwidthSaturation, points, a) <= error(bandwidthSaturation, points, b)) {
        hi = b;
      } else {
        lo = a;
      }
    }
    return (lo + hi) / 2;
  }

  private static double error(double bandwidthSaturation, List<Slowdown> points, double floor) {
    AnalyticShareTimeModel m = new AnalyticShareTimeModel(bandwidthSaturation, floor);
    double sum = 0;
    for (Slowdown p : points) {
      double predicted = m.seconds(p.atShare()).getAsDouble() / m.seconds(p.whole()).getAsDouble();
      double e = Math.log(predicted) - Math.log(p.measured());
      sum += e * e;
    }
    return sum;
  }
}
