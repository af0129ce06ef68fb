package org.rampa.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.MeasuredShareTable;
import org.rampa.perf.share.ShareLaw;
import org.rampa.perf.share.ShareSeries;
import org.rampa.perf.share.ShareTier;
import org.rampa.perf.share.SharedStage;
import org.rampa.perf.share.TierMargins;

/**
 * Each share-time tier's error, measured on the published tables shipped with RAMPA, as a sample of
 * {@code truth / predicted} ratios (above 1: the tier predicted too fast), and the margin a planner
 * needs against it.
 *
 * <ul>
 *   <li><b>measured</b>: no table repeats a measurement, so its replicate spread is unknown and a
 *       measured share's own noise is not covered by anything here. What the tier adds to the
 *       measurements is interpolation, and only in MPS series (MuxServe's 10 % grid; a placement's
 *       MIG instance is always one of ParvaGPU's measured sizes): leave-one-out, every interior point
 *       of every MPS series predicted from its two neighbours by the tier's two-point law.
 *   <li><b>fitted</b>: leave-one-out of the law {@code A/s + C}: every point of every series with at
 *       least three shares predicted by the law fitted to the others (floored, as the tier is, at the
 *       fastest remaining time).
 *   <li><b>analytic</b>, per serving runtime, against measurements of that runtime only (one time
 *       source per runtime: issue 24) and held out: the runtime's floor is fitted, as its calibration
 *       is, on the other models of its table and predicts the slowdowns (a share's time over the
 *       whole GPU's) of the model left out. PyTorch eager: ParvaGPU's MIG slowdowns against 7g (one
 *       process) of the catalog CNNs it measured, each left out in turn. MuxServe: its single-GPU MPS
 *       slowdowns against 100 % of LLaMA-7B and -13B, each size left out in turn. TensorRT: no shipped
 *       table measures a TensorRT share, so its sample is the measured runtime's whose margin is the
 *       largest ({@link #analyticSource}), an assumption. A whole-GPU time is the reference these
 *       slowdowns are measured against, not part of the sample ({@link TierMargins#covers}).
 * </ul>
 *
 * <p>Why the margin is a high quantile: a replay breaks a plan when any one of its series runs
 * slower than the margin covers, so with up to {@value #SERIES_PER_PLAN} series erring
 * independently per plan, each must be covered with probability {@code 1 − (1 − }{@value #COVERAGE}
 * {@code ) / }{@value #SERIES_PER_PLAN} for {@value #COVERAGE} of the replays to keep every SLO (a
 * union bound). On samples of fewer than a thousand points that quantile is the sample's largest
 * error.
 *
 * <p>It lives with the catalogs, not in {@code perf.share}, because the analytic tier's error is
 * measured on catalog models and GPU types; {@link TierMargins#defaults()} records the margins
 * computed here, and {@code TierErrorsTest} requires the two to agree.
 */
public final class TierErrors {

  /** Share of replays that should keep every SLO. */
  public static final double COVERAGE = 0.99;

  /** Series (model × placement kind) one plan can have wrong at once, for the union bound. */
  public static final int SERIES_PER_PLAN = 10;

  private static final Map<ShareTier, List<Double>> TABLE_RATIOS = new EnumMap<>(ShareTier.class);
  private static final Map<ServingRuntime, List<Double>> ANALYTIC_RATIOS = new EnumMap<>(ServingRuntime.class);

  private TierErrors() {}

  /**
   * The {@code truth / predicted} ratios, sorted ascending, of {@code tier} answering a model served
   * by {@code runtime}. The measured and fitted tiers' samples are the same for every runtime: each
   * series is compared with itself, so their error is one of interpolation and fit, not of runtime.
   * The analytic tier's is the runtime's own ({@link #analyticSource}).
   */
  public static synchronized List<Double> ratios(ShareTier tier, ServingRuntime runtime) {
    return switch (tier) {
      case MEASURED, FITTED -> TABLE_RATIOS.computeIfAbsent(tier, t -> sorted(t == ShareTier.MEASURED ? measured() : fitted()));
      case ANALYTIC -> ANALYTIC_RATIOS.computeIfAbsent(analyticSource(runtime), r -> sorted(analytic(r)));
    };
  }

  /**
   * The runtime whose measurements give {@code runtime}'s analytic error: the runtime itself when a
   * shipped table measured it (PyTorch eager: ParvaGPU; MuxServe), otherwise (TensorRT: no shipped
   * table measures a TensorRT share) the measured runtime whose analytic margin is the largest. The
   * analytic tier's error on a runtime never measured is unknown; the worst one seen on a runtime
   * measured against itself is the least optimistic stand-in, and an assumption.
   */
  public static ServingRuntime analyticSource(ServingRuntime runtime) {
    if (runtime != ServingRuntime.TENSORRT) {
      return runtime;
    }
    ServingRuntime worst = null;
    for (ServingRuntime r : List.of(ServingRuntime.PYTORCH_EAGER, ServingRuntime.MUXSERVE)) {
      if (worst == null || margin(ShareTier.ANALYTIC, r) > margin(ShareTier.ANALYTIC, worst)) {
        worst = r;
      }
    }
    return worst;
  }

  private static List<Double> sorted(List<Double> sample) {
    List<Double> r = new ArrayList<>(sample);
    Collections.sort(r);
    return List.copyOf(r);
  }

  /** The quantile level each series must be covered at: {@code 1 − (1 − COVERAGE) / SERIES_PER_PLAN}. */
  public static double level() {
    return 1 - (1 - COVERAGE) / SERIES_PER_PLAN;
  }

  /** The margin of {@code tier} for a model served by {@code runtime}: its ratio at {@link #level()} minus one, at least 0. */
  public static double margin(ShareTier tier, ServingRuntime runtime) {
    return Math.max(0, quantile(ratios(tier, runtime), level()) - 1);
  }

  /** The empirical quantile of a sorted sample: its ⌈level·n⌉-th smallest value. */
  public static double quantile(List<Double> sorted, double level) {
    int k = (int) Math.ceil(level * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, k - 1)));
  }

  /** The median of |log ratio|, the figure docs/SHARING-MODEL.md reports per tier. */
  public static double medianAbsLog(ShareTier tier, ServingRuntime runtime) {
    List<Double> logs = new ArrayList<>();
    ratios(tier, runtime).forEach(r -> logs.add(Math.abs(Math.log(r))));
    Collections.sort(logs);
    return quantile(logs, 0.5);
  }

  /**
   * The published series a stage can be answered from: ParvaGPU's, and MuxServe's single-GPU ones.
   * MuxServe's tensor-parallel series ("-tp2" …) time a group of GPUs, which no stage on one share
   * is, so no tier ever answers from them (and their isolated spikes, up to 7.7× a neighbour, would
   * be charged to every plan).
   */
  static List<ShareSeries> published() {
    return MeasuredShareTable.published().series().stream()
        .filter(s -> s.runtime() == ServingRuntime.PYTORCH_EAGER || (s.runtime() == ServingRuntime.MUXSERVE && !s.name().contains("-tp")))
        .toList();
  }

  /** ParvaGPU's series: the published PyTorch-eager MIG tables. */
  private static List<ShareSeries> parvaGpu() {
    return MeasuredShareTable.published().series().stream().filter(s -> s.runtime() == ServingRuntime.PYTORCH_EAGER).toList();
  }


  private static List<Double> measured() {
    List<Double> out = new ArrayList<>();
    for (ShareSeries s : published()) {
      if (s.kind() != ShareSeries.Kind.MPS) {
        continue;
      }
      List<Double> x = s.shares();
      List<Double> t = s.seconds();
      for (int i = 1; i + 1 < x.size(); i++) {
        ShareLaw law = ShareLaw.fit(List.of(x.get(i - 1), x.get(i + 1)), List.of(t.get(i - 1), t.get(i + 1)));
        out.add(t.get(i) / law.seconds(x.get(i)));
      }
    }
    return out;
  }

  private static List<Double> fitted() {
    List<Double> out = new ArrayList<>();
    for (ShareSeries s : published()) {
      if (s.shares().size() < 3) {
        continue;
      }
      for (int i = 0; i < s.shares().size(); i++) {
        List<Double> x = new ArrayList<>(s.shares());
        List<Double> t = new ArrayList<>(s.seconds());
        double share = x.remove(i);
        double truth = t.remove(i);
        double fastest = t.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        out.add(truth / Math.max(ShareLaw.fit(x, t).seconds(share), fastest));
      }
    }
    return out;
  }

  /**
   * The analytic tier's slowdowns against measurements of {@code runtime}'s own, held out: the
   * runtime's floor is fitted ({@link AnalyticShareTimeModel#fitFloor}, as its calibration is) on
   * the other models of its table and predicts the model left out; the ratio is measured slowdown
   * over predicted slowdown. Empty for a runtime no shipped table measured (TensorRT).
   */
  private static List<Double> analytic(ServingRuntime runtime) {
    List<Point> points = switch (runtime) {
      case PYTORCH_EAGER -> parvaGpuSlowdowns();
      case MUXSERVE -> muxServeSlowdowns();
      case TENSORRT -> List.of();
    };
    List<Double> out = new ArrayList<>();
    for (String model : points.stream().map(Point::model).distinct().toList()) {
      List<AnalyticShareTimeModel.Slowdown> others = points.stream().filter(p -> !p.model().equals(model)).map(Point::slowdown).toList();
      AnalyticShareTimeModel fitted = AnalyticShareTimeModel.of(AnalyticShareTimeModel.DEFAULT_BANDWIDTH_SATURATION,
          AnalyticShareTimeModel.fitFloor(AnalyticShareTimeModel.DEFAULT_BANDWIDTH_SATURATION, others));
      for (Point p : points) {
        if (p.model().equals(model)) {
          AnalyticShareTimeModel.Slowdown d = p.slowdown();
          out.add(d.measured() / (fitted.seconds(d.atShare()).getAsDouble() / fitted.seconds(d.whole()).getAsDouble()));
        }
      }
    }
    return out;
  }

  /**
   * ParvaGPU's MIG slowdowns (each instance size against 7g, one process) of the catalog models it
   * measured, served by PyTorch eager as ParvaGPU ran them: the points its floor is calibrated on.
   */
  /** One measured slowdown of {@code model} (the unit held out: a network, or a LLaMA size over all its sequence lengths). */
  private record Point(String model, AnalyticShareTimeModel.Slowdown slowdown) {}

  private static List<Point> parvaGpuSlowdowns() {
    GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
    GpuPartitioning parts = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
    List<Point> out = new ArrayList<>();
    for (ShareSeries s : parvaGpu()) {
      int last = s.shares().size() - 1;
      String largest = MeasuredShareTable.parvaGpuProfile(s.shares().get(last));
      if (s.processes() != 1 || !ModelCatalog.names().contains(s.name()) || !largest.startsWith("7g")) {
        continue;
      }
      Model m = ModelCatalog.model(s.name()).servedBy(ServingRuntime.PYTORCH_EAGER);
      SharedStage whole = SharedStage.wholeModel(m, s.batch(), a100, parts, new MigSlice(largest, 0));
      for (int i = 0; i < last; i++) {
        SharedStage at = SharedStage.wholeModel(m, s.batch(), a100, parts, new MigSlice(MeasuredShareTable.parvaGpuProfile(s.shares().get(i)), 0));
        out.add(new Point(s.name(), new AnalyticShareTimeModel.Slowdown(at, whole, s.seconds().get(i) / s.seconds().get(last))));
      }
    }
    return out;
  }

  /**
   * MuxServe's single-GPU MPS slowdowns (each share against 100 %) of the LLaMA sizes the catalog
   * has (7B and 13B as Llama-2-7B and -13B), every batch, sequence length and phase, served by
   * MuxServe's engine.
   */
  private static List<Point> muxServeSlowdowns() {
    GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
    GpuPartitioning parts = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
    List<Point> out = new ArrayList<>();
    for (ShareSeries s : published()) {
      String[] f = s.name().split("-");
      int last = s.shares().size() - 1;
      if (s.runtime() != ServingRuntime.MUXSERVE || f.length != 4 || !ModelCatalog.names().contains("llama2-" + f[1])
          || s.shares().get(last) != 1.0) {
        continue;
      }
      int tokens = Integer.parseInt(f[3]);
      String name = "llama2-" + f[1];
      Model m = (f[2].equals("prefill") ? ModelCatalog.prefill(name, tokens) : ModelCatalog.decode(name, tokens)).servedBy(ServingRuntime.MUXSERVE);
      SharedStage whole = SharedStage.wholeModel(m, s.batch(), a100, parts, new MpsShare(1, 0));
      for (int i = 0; i < last; i++) {
        SharedStage at = SharedStage.wholeModel(m, s.batch(), a100, parts, new MpsShare(s.shares().get(i), 0));
        out.add(new Point(name, new AnalyticShareTimeModel.Slowdown(at, whole, s.seconds().get(i) / s.seconds().get(last))));
      }
    }
    return out;
  }
}
