package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * E1's gain over exclusive use against batch size, as PNG and SVG: the geometric mean over pairs,
 * over triples and over every mix, the worst and best mix, and the strong baseline (best batch under
 * the SLO on both sides) as a flat line for comparison.
 */
public final class OneGpuChart {
  private OneGpuChart() {}

  public static void write(List<OneGpuExperiment.Summary> summaries, String title, Path directory) {
    List<OneGpuExperiment.Summary> curve = summaries.stream().filter(s -> s.regime().equals("batch")).toList();
    double[] x = curve.stream().mapToDouble(OneGpuExperiment.Summary::batch).toArray();
    XYChart chart = new XYChartBuilder().width(1000).height(620).title(title)
        .xAxisTitle("batch size (every segment and the exclusive process)")
        .yAxisTitle("throughput gain over exclusive use (x)").build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setMarkerSize(7);
    chart.addSeries("pairs (geometric mean)", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::pairs).toArray());
    chart.addSeries("triples (geometric mean)", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::triples).toArray());
    chart.addSeries("every mix (geometric mean)", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::all).toArray());
    chart.addSeries("worst mix", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::min).toArray()).setMarker(SeriesMarkers.NONE);
    chart.addSeries("best mix", x, curve.stream().mapToDouble(OneGpuExperiment.Summary::max).toArray()).setMarker(SeriesMarkers.NONE);
    summaries.stream().filter(s -> !s.regime().equals("batch")).forEach(s -> chart.addSeries(
        "best batch under the SLO, both sides (geometric mean)", new double[] {x[0], x[x.length - 1]}, new double[] {s.all(), s.all()})
        .setMarker(SeriesMarkers.NONE));
    try {
      BitmapEncoder.saveBitmap(chart, directory.resolve("e1-gain.png").toString(), BitmapEncoder.BitmapFormat.PNG);
      VectorGraphicsEncoder.saveVectorGraphic(chart, directory.resolve("e1-gain.svg").toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the chart to " + directory, e);
    }
  }
}
