package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Admissions against offered load, one line per scheduler, as PNG and SVG: as a percentage of the
 * offline bound when it was computed (else of the arrivals), mean over seeds with the 95 % interval
 * as error bars.
 */
final class AdmissionChart {
  private AdmissionChart() {}

  static void write(ExperimentResult result, String title, Path directory) {
    boolean ofBound = !result.bounds().isEmpty();
    XYChart chart = new XYChartBuilder().width(1000).height(620).title(title)
        .xAxisTitle("offered load (Erlangs: arrival rate x mean lifetime)")
        .yAxisTitle(ofBound ? "admitted, % of the offline bound (mean, 95 % interval over seeds)" : "admitted, % of arrivals")
        .build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(6);
    List<Double> loads = result.loads();
    double[] x = loads.stream().mapToDouble(Double::doubleValue).toArray();
    for (String name : result.schedulers()) {
      double[] y = new double[x.length];
      double[] error = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        double load = loads.get(i);
        Interval interval = ofBound
            ? result.percentOfBound(name, load).orElseThrow()
            : scaled(result.rejected(name, load));
        y[i] = interval.mean();
        error[i] = interval.halfWidth();
      }
      chart.addSeries(name, x, y, error);
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

  /** Rejected fraction to admitted percentage. */
  private static Interval scaled(Interval rejected) {
    return new Interval(100 * (1 - rejected.mean()), 100 * (1 - rejected.high()), 100 * (1 - rejected.low()), rejected.n());
  }
}
