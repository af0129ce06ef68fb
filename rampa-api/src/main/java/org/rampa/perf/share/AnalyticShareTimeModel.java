package org.rampa.perf.share;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.Roofline;

/**
 * Tier 3, the analytic default (docs/SHARING.md section 2): per layer, a share-independent part (a
 * per-layer floor) plus a roofline part whose compute term scales with the compute fraction
 * {@code sc} and whose memory term with the usable bandwidth {@code bw}:
 *
 * <pre>t(s) = fixed + max(compute / sc, memory / bw)</pre>
 *
 * {@code bw} is the bandwidth fraction for isolated placements (MIG, templates) and
 * {@code min(1, sc / β)} for contended ones (MPS, CU masks): a few SMs cannot pull the whole bus.
 * Never {@code time / share}. What {@code fixed} and the roofline terms are depends on the model's
 * {@link ServingRuntime}, each with its own floor:
 *
 * <ul>
 *   <li>TensorRT and MuxServe: the whole-GPU time of {@link PerformanceModel#layerSeconds} (the
 *       catalog's, calibrated on MLPerf's TensorRT rows) split into {@code fixed} = the type's layer
 *       overhead plus the floor, and the roofline terms scaled so that {@code t(1)} is exactly that
 *       time (measured layer profiles included). The floor is MuxServe's ({@link #fitFloor} on its
 *       LLaMA-7B MPS slowdowns); for TensorRT that is an assumption (no measured TensorRT shares ship).
 *   <li>PyTorch eager: the catalog's time is not this runtime's (ParvaGPU's ResNet-50 runs ~10× the
 *       MLPerf TensorRT time), so {@code fixed} is the runtime's own floor alone and the roofline
 *       terms are unscaled: {@code t(1) = floor + roofline} per layer. Its floor is fitted on
 *       ParvaGPU's MIG slowdowns of the catalog's CNNs.
 * </ul>
 *
 * <p>β = 0.45 is docs/SHARING.md's reading of MuxServe's decode measurements (modelled, not fitted
 * here). A floor is the runtime's launch cost, so other GPU types take the same value: an
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

  /**
   * {@link #fitFloor} on ParvaGPU's MIG slowdowns (each instance size against 7g, one process) of the
   * catalog's CNNs it measured (ResNet-50, VGG-16, MobileNetV2) served by PyTorch eager, on the
   * A100-SXM4-80GB; recorded, and re-fitted by {@code CalibratedFloorsTest}, as above.
   */
  static final double PYTORCH_EAGER_FLOOR_SECONDS = 2.1433186233679594E-5;

  private static final AnalyticShareTimeModel CALIBRATED = new AnalyticShareTimeModel(DEFAULT_BANDWIDTH_SATURATION, floors(
      Map.of(ServingRuntime.TENSORRT, MUXSERVE_FLOOR_SECONDS, ServingRuntime.MUXSERVE, MUXSERVE_FLOOR_SECONDS,
          ServingRuntime.PYTORCH_EAGER, PYTORCH_EAGER_FLOOR_SECONDS)));

  private final double bandwidthSaturation;
  private final EnumMap<ServingRuntime, Double> floorSeconds;

  private AnalyticShareTimeModel(double bandwidthSaturation, EnumMap<ServingRuntime, Double> floorSeconds) {
    if (!(bandwidthSaturation > 0 && bandwidthSaturation <= 1)) {
      throw Invalid.value("bandwidthSaturation", bandwidthSaturation, "must lie in (0, 1]");
    }
    floorSeconds.forEach((runtime, floor) -> Invalid.requireFiniteNonNegative("floorSeconds[" + runtime + "]", floor));
    this.bandwidthSaturation = bandwidthSaturation;
    this.floorSeconds = floorSeconds;
  }

  private static EnumMap<ServingRuntime, Double> floors(Map<ServingRuntime, Double> byRuntime) {
    EnumMap<ServingRuntime, Double> all = new EnumMap<>(ServingRuntime.class);
    for (ServingRuntime r : ServingRuntime.values()) {
      all.put(r, Objects.requireNonNull(byRuntime.get(r), () -> "no floor for runtime " + r));
    }
    return all;
  }

  private static EnumMap<ServingRuntime, Double> everyRuntime(double floor) {
    EnumMap<ServingRuntime, Double> all = new EnumMap<>(ServingRuntime.class);
    for (ServingRuntime r : ServingRuntime.values()) {
      all.put(r, floor);
    }
    return all;
  }

  /** β = 0.45 and each runtime's calibrated floor: MuxServe's for TensorRT and MuxServe, ParvaGPU's for PyTorch eager. */
  public static AnalyticShareTimeModel calibrated() {
    return CALIBRATED;
  }

  /** Explicit β and one per-layer floor for every runtime, e.g. for sensitivity studies. */
  public static AnalyticShareTimeModel of(double bandwidthSaturation, double floorSeconds) {
    Invalid.requireFiniteNonNegative("floorSeconds", floorSeconds);
    return new AnalyticShareTimeModel(bandwidthSaturation, everyRuntime(floorSeconds));
  }

  public double bandwidthSaturation() {
    return bandwidthSaturation;
  }

  /** The share-independent floor per layer of the default runtime, TensorRT, in seconds. */
  public double floorSeconds() {
    return floorSeconds(ServingRuntime.TENSORRT);
  }

  /** The share-independent floor per layer of models served by {@code runtime}, in seconds. */
  public double floorSeconds(ServingRuntime runtime) {
    return floorSeconds.get(runtime);
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    double sc = stage.computeFraction();
    double bw = stage.placement().isolated()
        ? stage.bandwidthFraction()
        : Math.min(stage.bandwidthFraction(), sc / bandwidthSaturation);
    double t = 0;
    for (int l = stage.from(); l < stage.to(); l++) {
      t += layerSeconds(stage.model().layer(l), stage.model().runtime(), stage.type(), stage.batch(), sc, Math.min(1, bw));
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

  private double layerSeconds(Layer layer, ServingRuntime runtime, GpuType type, int batch, double sc, double bw) {
    double floor = floorSeconds.get(runtime);
    Roofline r = Roofline.of(layer, type, batch);
    if (runtime == ServingRuntime.PYTORCH_EAGER) {
      return floor + Math.max(r.computeSeconds() / sc, r.memorySeconds() / bw);
    }
    double whole = PerformanceModel.defaults().layerSeconds(layer, type, batch);
    double fixed = Math.min(whole, type.layerOverhead().toNanos() * 1e-9 + floor);
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
    AnalyticShareTimeModel m = of(bandwidthSaturation, floor);
    double sum = 0;
    for (Slowdown p : points) {
      double predicted = m.seconds(p.atShare()).getAsDouble() / m.seconds(p.whole()).getAsDouble();
      double e = Math.log(predicted) - Math.log(p.measured());
      sum += e * e;
    }
    return sum;
  }
}
