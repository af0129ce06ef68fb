package org.rampa.examples.experiment;

import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Admissions against offered load, one series per scheduler, as PNG and SVG: as a percentage of
 * the offline bound when it was computed (geometric mean over seeds, interval in log space, capped
 * at 100 %), else as a percentage of the arrivals (mean, interval clamped to [0, 100 %]); the
 * intervals as whiskers, the seed count in the title.
 */
final class AdmissionChart {
  private AdmissionChart() {}

  static void write(ExperimentResult result, String title, Path directory) {
    Charts.save(build(result, title), directory, "admission");
  }

  /** The chart and the data it is drawn from (the same statistics the table and summary print). */
  static XYChart build(ExperimentResult result, String title) {
    boolean ofBound = !result.bounds().isEmpty();
    List<Double> loads = result.loads();
    double[] x = loads.stream().mapToDouble(Double::doubleValue).toArray();
    List<String> names = result.schedulers();
    Interval[][] y = new Interval[names.size()][x.length];
    for (int k = 0; k < names.size(); k++) {
      for (int i = 0; i < x.length; i++) {
        y[k][i] = ofBound ? result.percentOfBound(names.get(k), loads.get(i)).orElseThrow() : admittedPercent(result, names.get(k), loads.get(i));
      }
    }
    int seeds = names.isEmpty() ? 0 : y[0][0].n();
    String label = Charts.describe(java.util.Arrays.stream(y).flatMap(java.util.Arrays::stream).toList());
    XYChart chart = new XYChartBuilder().width(1000).height(620).title(title + " (" + Charts.seeds(seeds) + ")")
        .xAxisTitle("offered load (Erlangs: arrival rate x mean lifetime)")
        .yAxisTitle((ofBound ? "admitted, % of offline bound: " : "admitted, % of arrivals: ") + label)
        .build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(6);
    for (int k = 0; k < names.size(); k++) {
      Charts.points(chart, names.get(k), x, y[k], Charts.colour(chart, k));
    }
    return chart;
  }

  private static Interval admittedPercent(ExperimentResult result, String name, double load) {
    return result.rejected(name, load).complement().asPercent();
  }
}
