package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.rampa.examples.sim.RunResult;

/** Admission ratio against offered load, one line per planner, as PNG and SVG. */
final class AdmissionChart {
  private AdmissionChart() {}

  static void write(List<RunResult> results, String title, Path directory) {
    XYChart chart = new XYChartBuilder().width(1000).height(620).title(title)
        .xAxisTitle("offered load (Erlangs: arrival rate x mean lifetime)").yAxisTitle("admission ratio (%)").build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(6);
    for (Map.Entry<String, List<RunResult>> e : AdmissionExperiment.byPlanner(results).entrySet()) {
      double[] x = e.getValue().stream().mapToDouble(RunResult::offeredLoad).toArray();
      double[] y = e.getValue().stream().mapToDouble(r -> 100 * r.admissionRatio()).toArray();
      chart.addSeries(e.getKey(), x, y);
    }
    try {
      Files.createDirectories(directory);
      BitmapEncoder.saveBitmap(chart, directory.resolve("admission.png").toString(), BitmapEncoder.BitmapFormat.PNG);
      VectorGraphicsEncoder.saveVectorGraphic(chart, directory.resolve("admission.svg").toString(),
          VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the chart to " + directory, e);
    }
  }
}
