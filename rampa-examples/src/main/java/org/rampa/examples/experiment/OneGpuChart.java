package org.rampa.examples.experiment;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * E1's charts, as PNG and SVG: one source's gain over exclusive use against batch size (the
 * geometric mean over pairs, over triples and over every mix, the worst and best mix, and the
 * strong baseline as a flat line); every source's mean curve on one chart; and the gain against
 * the interference γ. Titles say which rows are modelled, and that E1 has no seeds: every pair and
 * triple is evaluated once, deterministically, so the spread shown is over mixes, not seeds.
 */
public final class OneGpuChart {
  /** What every E1 chart says about seeds. */
  static final String NO_SEEDS = " [0 seeds: deterministic, every mix once]";

  private OneGpuChart() {}

  /** One source's curve: {@code summaries} of one group (source, device, γ). */
  public static void write(List<OneGpuExperiment.Summary> summaries, String title, Path directory, String stem) {
    Charts.save(chart(summaries, title), directory, stem);
  }

  static XYChart chart(List<OneGpuExperiment.Summary> summaries, String title) {
    List<OneGpuExperiment.Summary> curve = summaries.stream().filter(s -> s.regime().equals("batch")).toList();
    double[] x = curve.stream().mapToDouble(OneGpuExperiment.Summary::batch).toArray();
    XYChart chart = new XYChartBuilder().width(1000).height(620).title(title + NO_SEEDS)
        .xAxisTitle("batch size (every segment and the exclusive process)")
        .yAxisTitle("throughput gain over exclusive use (x)").build();
    // a log axis labels only its decades: worth it only when the curve spans about one
    double lo = curve.stream().mapToDouble(OneGpuExperiment.Summary::min).min().orElse(1);
    double hi = curve.stream().mapToDouble(OneGpuExperiment.Summary::max).max().orElse(1);
    style(chart, true, hi / lo > 8);
    chart.addSeries("pairs (geometric mean)", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::pairs).toArray());
    chart.addSeries("triples (geometric mean)", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::triples).toArray());
    chart.addSeries("every mix (geometric mean)", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::all).toArray());
    chart.addSeries("worst mix", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::min).toArray()).setMarker(SeriesMarkers.NONE);
    chart.addSeries("best mix", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::max).toArray()).setMarker(SeriesMarkers.NONE);
    summaries.stream().filter(s -> !s.regime().equals("batch")).forEach(s -> chart.addSeries(
        "best batch under the SLO, both sides (geometric mean)", new double[] {x[0], x[x.length - 1]}, new double[] {s.all(), s.all()})
        .setMarker(SeriesMarkers.NONE));
    return chart;
  }

  /** Every group's mean over all mixes against batch size, at γ = {@code gamma} where a group has one. */
  public static void writeSources(List<OneGpuExperiment.Summary> summaries, double gamma, Path directory, String stem) {
    Charts.save(sourcesChart(summaries, gamma), directory, stem);
  }

  static XYChart sourcesChart(List<OneGpuExperiment.Summary> summaries, double gamma) {
    XYChart chart = new XYChartBuilder().width(1100).height(620)
        .title(String.format(java.util.Locale.ROOT, "E1: co-location against exclusive use per source (MuxServe: γ=%.2f; MI100 and NPU rows MODELLED)", gamma) + NO_SEEDS)
        .xAxisTitle("batch size (every segment and the exclusive process)")
        .yAxisTitle("gain over exclusive use, geometric mean over every mix (x)").build();
    style(chart, true, false);
    Map<String, List<OneGpuExperiment.Summary>> groups = new LinkedHashMap<>();
    summaries.stream().filter(s -> s.regime().equals("batch") && (Double.isNaN(s.gamma()) || Math.abs(s.gamma() - gamma) < 1e-12))
        .forEach(s -> groups.computeIfAbsent(s.group(), k -> new java.util.ArrayList<>()).add(s));
    groups.forEach((name, curve) -> chart.addSeries(name, curve.stream().mapToDouble(OneGpuExperiment.Summary::batch).toArray(),
        curve.stream().mapToDouble(OneGpuExperiment.Summary::all).toArray()));
    return chart;
  }

  /** The mean gain against γ, per device and for a few regimes: batch 1, batch 16 and the best batch under the SLO. */
  public static void writeGamma(List<OneGpuExperiment.Summary> summaries, Path directory, String stem) {
    Charts.save(gammaChart(summaries), directory, stem);
  }

  static XYChart gammaChart(List<OneGpuExperiment.Summary> summaries) {
    XYChart chart = new XYChartBuilder().width(1100).height(620)
        .title("E1: sensitivity to interference γ (MuxServe: measured times, modelled γ; MI100, NPU: MODELLED)" + NO_SEEDS)
        .xAxisTitle("linear interference γ per contended co-runner")
        .yAxisTitle("gain over exclusive use, geometric mean over every mix (x)").build();
    style(chart, false, false);
    Map<String, List<OneGpuExperiment.Summary>> series = new LinkedHashMap<>();
    for (OneGpuExperiment.Summary s : summaries) {
      boolean shown = s.regime().equals("batch") ? s.batch() == 1 || s.batch() == 16 : true;
      if (Double.isNaN(s.gamma()) || !shown) {
        continue;
      }
      String regime = s.regime().equals("batch") ? "batch " + s.batch() : "best batch under the SLO";
      series.computeIfAbsent(s.source() + " " + s.device() + ", " + regime, k -> new java.util.ArrayList<>()).add(s);
    }
    series.forEach((name, points) -> chart.addSeries(name, points.stream().mapToDouble(OneGpuExperiment.Summary::gamma).toArray(),
        points.stream().mapToDouble(OneGpuExperiment.Summary::all).toArray()));
    return chart;
  }

  private static void style(XYChart chart, boolean logX, boolean logY) {
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
    chart.getStyler().setXAxisLogarithmic(logX);
    chart.getStyler().setYAxisLogarithmic(logY);
    chart.getStyler().setMarkerSize(7);
  }
}
