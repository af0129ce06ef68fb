package org.rampa.examples.experiment;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * How every experiment chart draws a statistic over seeds: the measured points, each with its
 * {@link Interval} as a whisker from low to high (xchart's own error bars are symmetric, and a
 * log-space interval is not), joined by lines only when enough x-values were measured for a line
 * to suggest nothing that was not measured; and the seed count in every chart.
 */
public final class Charts {
  /** With fewer measured x-values than this, a series is drawn as points: a line from batch 1 to 128 would invent a trend. */
  public static final int LINE_MIN_POINTS = 6;

  /** Marks the series that draw one interval; they are hidden from the legend. */
  public static final String WHISKER = " interval at x=";

  /** Appended to a series' name when its planner produced no plan anywhere on the chart. */
  public static final String NO_PLAN = " — no plan";

  private Charts() {}

  /**
   * Adds {@code name}'s points at {@code x} with value {@code y[i].mean()} and a whisker from
   * {@code y[i].low()} to {@code y[i].high()}, all in {@code colour}; returns the points' series.
   */
  public static XYSeries points(XYChart chart, String name, double[] x, Interval[] y, Color colour) {
    double[] means = new double[y.length];
    for (int i = 0; i < y.length; i++) {
      means[i] = y[i].mean();
    }
    XYSeries series = chart.addSeries(name, x, means);
    series.setLineColor(colour);
    series.setMarkerColor(colour);
    if (x.length < LINE_MIN_POINTS) {
      series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    }
    for (int i = 0; i < y.length; i++) {
      if (y[i].high() > y[i].low()) {
        XYSeries whisker = chart.addSeries(name + WHISKER + x[i], new double[] {x[i], x[i]}, new double[] {y[i].low(), y[i].high()});
        whisker.setShowInLegend(false);
        whisker.setMarker(SeriesMarkers.NONE);
        whisker.setLineColor(colour);
        whisker.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.SOLID);
        whisker.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      }
    }
    return series;
  }

  /** Names a planner that produced no plan in the legend, with no point (NaN is not drawn): "exact — no plan". */
  public static XYSeries noPlan(XYChart chart, String name, double x, Color colour) {
    XYSeries series = chart.addSeries(name + NO_PLAN, new double[] {x}, new double[] {Double.NaN});
    series.setMarkerColor(colour);
    series.setLineColor(colour);
    series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    return series;
  }

  /** The {@code k}-th colour of the chart's theme, so that a series and its whiskers match. */
  public static Color colour(Chart<?, ?> chart, int k) {
    Color[] palette = chart.getStyler().getSeriesColors();
    return palette[Math.floorMod(k, palette.length)];
  }

  /**
   * What a chart's intervals are, short enough for an axis title (the title states the seeds): the
   * kind of the intervals over the most seeds. A series over fewer seeds says so in its legend.
   */
  public static String describe(java.util.Collection<Interval> intervals) {
    return intervals.stream().filter(java.util.Objects::nonNull).max(java.util.Comparator.comparingInt(Interval::n))
        .map(i -> i.n() == 1 ? "one seed, no interval" : i.kind().text()).orElse("no values");
  }

  /** "5 seeds" or "1 seed". */
  public static String seeds(int n) {
    return n + (n == 1 ? " seed" : " seeds");
  }

  /** Writes {@code stem}.png and {@code stem}.svg into {@code directory}. */
  public static void save(Chart<?, ?> chart, Path directory, String stem) {
    try {
      Files.createDirectories(directory);
      BitmapEncoder.saveBitmap(chart, directory.resolve(stem + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
      VectorGraphicsEncoder.saveVectorGraphic(chart, directory.resolve(stem + ".svg").toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the chart " + stem + " to " + directory, e);
    }
  }
}
