package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.rampa.colocation.ColocationObjective;

/**
 * E3's charts, PNG and SVG: per planner, against the safety margin, the share of replays whose plan
 * breaks a rule (one chart per scenario) and the GPUs planned (or the demand scale claimed), each
 * with its 95 % interval over seeds; and the trade-off, the extra GPUs (or the lost scale) a margin
 * costs against the planner's smallest margin, against broken plans, one point per margin.
 */
public final class RobustnessChart {
  private RobustnessChart() {}

  /** The files {@link #write} creates: the throughput chart is e3-gpus (fewest GPUs) or e3-scale (largest scale). */
  public static List<String> files(ColocationObjective objective) {
    String throughput = throughputChart(objective);
    return List.of("e3-violations.png", "e3-violations.svg", "e3-violations-gamma-x2.png", "e3-violations-gamma-x2.svg", throughput + ".png",
        throughput + ".svg", "e3-tradeoff.png", "e3-tradeoff.svg");
  }

  private static String throughputChart(ColocationObjective objective) {
    return objective == ColocationObjective.MIN_GPUS ? "e3-gpus" : "e3-scale";
  }

  public static void write(List<RobustnessExperiment.Summary> summaries, RobustnessExperiment.Settings settings, String subtitle, Path dir) {
    String marginAxis = "safety margin m (%) — " + (settings.marginKind() == RobustnessExperiment.MarginKind.TIMES
        ? "planned times x (1 + m)" : "SLO rule x (1 - m)");
    againstMargin(summaries, settings, RobustnessExperiment.Scenario.PERTURBED.label,
        "E3: broken plans, truth A, C ±20 %, α−1 ±10 % — " + subtitle, marginAxis,
        "replays where the plan breaks a rule (%)", s -> s.brokenPlans(), 100, dir, "e3-violations");
    againstMargin(summaries, settings, RobustnessExperiment.Scenario.PERTURBED_GAMMA_X2.label,
        "E3: broken plans, perturbed truth with γ x 2 — " + subtitle, marginAxis,
        "replays where the plan breaks a rule (%)", s -> s.brokenPlans(), 100, dir, "e3-violations-gamma-x2");
    boolean gpus = settings.objective() == ColocationObjective.MIN_GPUS;
    Function<RobustnessExperiment.Summary, Interval> throughput = gpus ? s -> s.gpus() : s -> s.scale();
    againstMargin(summaries, settings, RobustnessExperiment.Scenario.PERTURBED.label,
        (gpus ? "E3: GPUs for the whole demand — " : "E3: demand scale on " + settings.clusterGpus() + " GPUs — ") + subtitle,
        marginAxis, gpus ? "GPUs (mean over seeds)" : "demand scale Z (mean over seeds)", throughput, 1, dir, throughputChart(settings.objective()));
    XYChart tradeoff = chart((gpus ? "E3: extra GPUs" : "E3: lost scale") + " vs broken plans, a point per margin — " + subtitle, "replays where the plan breaks a rule (%)",
        (gpus ? "extra GPUs" : "lost scale") + " against the planner's smallest-margin plan (%, ratio of means)");
    for (String planner : settings.planners()) {
      List<RobustnessExperiment.Summary> rows = rows(summaries, planner, RobustnessExperiment.Scenario.PERTURBED.label);
      if (!rows.isEmpty()) {
        double base = throughput.apply(rows.get(0)).mean();
        tradeoff.addSeries(planner, rows.stream().mapToDouble(s -> 100 * s.brokenPlans().mean()).toArray(),
            rows.stream().mapToDouble(s -> 100 * Math.abs(throughput.apply(s).mean() / base - 1)).toArray());
      }
    }
    save(tradeoff, dir, "e3-tradeoff");
  }

  private static void againstMargin(List<RobustnessExperiment.Summary> summaries, RobustnessExperiment.Settings settings, String scenario,
      String title, String xAxis, String yAxis, Function<RobustnessExperiment.Summary, Interval> value, double scale, Path dir, String name) {
    XYChart chart = chart(title, xAxis, yAxis);
    for (String planner : settings.planners()) {
      List<RobustnessExperiment.Summary> rows = rows(summaries, planner, scenario);
      if (!rows.isEmpty()) {
        chart.addSeries(planner, rows.stream().mapToDouble(s -> 100 * s.margin()).toArray(),
            rows.stream().mapToDouble(s -> scale * value.apply(s).mean()).toArray(),
            rows.stream().mapToDouble(s -> scale * value.apply(s).halfWidth()).toArray());
      }
    }
    save(chart, dir, name);
  }

  private static List<RobustnessExperiment.Summary> rows(List<RobustnessExperiment.Summary> summaries, String planner, String scenario) {
    return summaries.stream().filter(s -> s.planner().equals(planner) && s.scenario().equals(scenario) && s.seedsPlanned() > 0).toList();
  }

  private static XYChart chart(String title, String xAxis, String yAxis) {
    XYChart chart = new XYChartBuilder().width(1100).height(620).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(7);
    chart.getStyler().setErrorBarsColorSeriesColor(true);
    return chart;
  }

  private static void save(XYChart chart, Path dir, String name) {
    try {
      BitmapEncoder.saveBitmap(chart, dir.resolve(name + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
      VectorGraphicsEncoder.saveVectorGraphic(chart, dir.resolve(name + ".svg").toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the chart to " + dir, e);
    }
  }
}
