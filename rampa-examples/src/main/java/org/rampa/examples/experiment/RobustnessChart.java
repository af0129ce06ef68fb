package org.rampa.examples.experiment;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.rampa.colocation.ColocationObjective;

/**
 * E3's charts, PNG and SVG: per planner, against the safety margin, the share of replays whose plan
 * breaks a rule (one chart per scenario) and the GPUs planned (or the demand scale claimed), each
 * with its interval over seeds ({@link Interval}); and the trade-off, the extra GPUs (or the lost scale) a margin
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
    charts(summaries, settings, subtitle).forEach((name, chart) -> Charts.save(chart, dir, name));
  }

  /**
   * The charts by file stem: against the margin, per planner, the measured margins as points with
   * their intervals over seeds (a proportion's clamped to [0, 100 %]); the trade-off from the means.
   * Every title carries {@code subtitle}, which names the seed count.
   */
  public static Map<String, XYChart> charts(List<RobustnessExperiment.Summary> summaries, RobustnessExperiment.Settings settings, String subtitle) {
    Map<String, XYChart> out = new LinkedHashMap<>();
    String marginAxis = "safety margin m (%) — " + switch (settings.marginKind()) {
      case TIMES -> "planned times x (1 + m)";
      case SLO -> "SLO rule x (1 - m)";
      case TIERS -> "planned times x (1 + m x the answering tier's default margin)";
    };
    String label = Charts.describe(summaries.stream().map(RobustnessExperiment.Summary::brokenPlans).toList());
    out.put("e3-violations", againstMargin(summaries, settings, RobustnessExperiment.Scenario.PERTURBED.label,
        "E3: broken plans, truth A, C ±20 %, α−1 ±10 % — " + subtitle, marginAxis,
        "replays where the plan breaks a rule (%, " + label + ")", s -> s.brokenPlans().asPercent()));
    out.put("e3-violations-gamma-x2", againstMargin(summaries, settings, RobustnessExperiment.Scenario.PERTURBED_GAMMA_X2.label,
        "E3: broken plans, perturbed truth with γ x 2 — " + subtitle, marginAxis,
        "replays where the plan breaks a rule (%, " + label + ")", s -> s.brokenPlans().asPercent()));
    boolean gpus = settings.objective() == ColocationObjective.MIN_GPUS;
    Function<RobustnessExperiment.Summary, Interval> throughput = gpus ? s -> s.gpus() : s -> s.scale();
    out.put(throughputChart(settings.objective()), againstMargin(summaries, settings, RobustnessExperiment.Scenario.PERTURBED.label,
        (gpus ? "E3: GPUs for the whole demand — " : "E3: demand scale on " + settings.clusterGpus() + " GPUs — ") + subtitle,
        marginAxis, (gpus ? "GPUs (" : "demand scale Z (") + label + ")", throughput));
    XYChart tradeoff = chart((gpus ? "E3: extra GPUs" : "E3: lost scale") + " vs broken plans, a point per margin — " + subtitle,
        "replays where the plan breaks a rule (%, mean over seeds)",
        (gpus ? "extra GPUs" : "lost scale") + " against the planner's smallest-margin plan (%, ratio of means over seeds)");
    List<String> planners = settings.planners();
    for (int k = 0; k < planners.size(); k++) {
      List<RobustnessExperiment.Summary> rows = rows(summaries, planners.get(k), RobustnessExperiment.Scenario.PERTURBED.label);
      if (rows.isEmpty()) {
        Charts.noPlan(tradeoff, planners.get(k), 0, Charts.colour(tradeoff, k));
        continue;
      }
      double base = throughput.apply(rows.get(0)).mean();
      XYSeries series = tradeoff.addSeries(planners.get(k), rows.stream().mapToDouble(s -> 100 * s.brokenPlans().mean()).toArray(),
          rows.stream().mapToDouble(s -> 100 * Math.abs(throughput.apply(s).mean() / base - 1)).toArray());
      series.setLineColor(Charts.colour(tradeoff, k));
      series.setMarkerColor(Charts.colour(tradeoff, k));
    }
    out.put("e3-tradeoff", tradeoff);
    return out;
  }

  private static XYChart againstMargin(List<RobustnessExperiment.Summary> summaries, RobustnessExperiment.Settings settings, String scenario,
      String title, String xAxis, String yAxis, Function<RobustnessExperiment.Summary, Interval> value) {
    XYChart chart = chart(title, xAxis, yAxis);
    List<String> planners = settings.planners();
    for (int k = 0; k < planners.size(); k++) {
      List<RobustnessExperiment.Summary> rows = rows(summaries, planners.get(k), scenario);
      if (rows.isEmpty()) {
        Charts.noPlan(chart, planners.get(k), 0, Charts.colour(chart, k));
        continue;
      }
      Charts.points(chart, planners.get(k), rows.stream().mapToDouble(s -> 100 * s.margin()).toArray(),
          rows.stream().map(value).toArray(Interval[]::new), Charts.colour(chart, k));
    }
    return chart;
  }

  private static List<RobustnessExperiment.Summary> rows(List<RobustnessExperiment.Summary> summaries, String planner, String scenario) {
    return summaries.stream().filter(s -> s.planner().equals(planner) && s.scenario().equals(scenario) && s.seedsPlanned() > 0).toList();
  }

  private static XYChart chart(String title, String xAxis, String yAxis) {
    XYChart chart = new XYChartBuilder().width(1100).height(620).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(7);
    return chart;
  }
}
