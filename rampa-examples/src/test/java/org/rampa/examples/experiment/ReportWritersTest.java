package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rampa.colocation.ColocationObjective;
import org.rampa.domain.Cluster;
import org.rampa.examples.bound.OfflineBound;
import org.rampa.examples.experiment.ClusterExperiment.Config;
import org.rampa.examples.experiment.ClusterExperiment.Regime;
import org.rampa.examples.experiment.ClusterExperiment.Row;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.strategy.StrategyOptions;

/**
 * Every chart and summary writer (admission, E1–E4): no interval leaves its quantity's domain,
 * every chart states its seed count, and the text summary and the chart show the same numbers —
 * checked on the data the chart is built from (xchart's series), not on pixels.
 */
class ReportWritersTest {

  @Test
  void admissionTableAndChartAgreeStayWithinZeroToHundredPercentAndStateTheSeeds() {
    for (int seeds : new int[] {2, 5}) {
      Cluster cluster = Presets.cluster("small");
      var settings = new AdmissionExperiment.Settings(cluster, WorkloadSpec.standardMix().resolve(cluster), List.of(16.0, 40.0), 40, 3600, 1,
          seeds, List.of("performance-first", "rampa-greedy/scarcity"), StrategyOptions.defaults(), 2, OfflineBound.ROOT_ONLY);
      ExperimentResult result = new AdmissionExperiment(settings).run(() -> {});
      XYChart chart = AdmissionChart.build(result, "admission");
      StringWriter text = new StringWriter();
      AdmissionExperiment.printTable(result, new PrintWriter(text, true));
      statesSeeds(chart, seeds);
      within(chart, 0, 100);
      for (String planner : result.schedulers()) {
        for (double load : result.loads()) {
          Interval i = result.percentOfBound(planner, load).orElseThrow();
          assertThat(i.high()).isLessThanOrEqualTo(100);
          pointAndWhisker(chart, planner, load, i);
          assertThat(text.toString()).contains(i.format(1));
          assertThat(result.admitted(planner, load).high()).isLessThanOrEqualTo(40);
        }
      }
      assertThat(text.toString()).contains(result.percentOfBound("performance-first", 16.0).orElseThrow().label());
      assertThat(ExperimentSummary.paragraph(result)).contains(Interval.label(seeds < 5 ? Interval.Kind.GEOMETRIC_RANGE : Interval.Kind.GEOMETRIC_T, seeds));
    }
  }

  @Test
  void e2TableAndChartsAgreeGainsStayPositiveGapsInZeroToHundredAndANoPlanPlannerIsNamed() {
    for (int seeds : new int[] {2, 5}) {
      List<Row> rows = e2Rows(seeds);
      List<ClusterReport.Summary> summaries = ClusterReport.summarise(rows);
      String table = ClusterReport.table(summaries, ClusterReport.headlines(rows));
      Map<String, Chart<?, ?>> charts = ClusterReport.charts(summaries);
      assertThat(charts).containsOnlyKeys("e2-gain-batch-a100", "e2-gain-batch-npu", "e2-gain-cluster", "e2-gap");
      charts.values().forEach(c -> statesSeeds(c, seeds));
      XYChart gain = (XYChart) charts.get("e2-gain-batch-a100");
      within(gain, 1e-300, Double.MAX_VALUE);
      within(charts.get("e2-gap"), 0, 100);
      within(charts.get("e2-gain-cluster"), 1e-300, Double.MAX_VALUE);
      assertThat(gain.getSeriesMap()).containsKey("uniform-mig-3g" + Charts.NO_PLAN);
      assertThat(charts.get("e2-gain-cluster").getSeriesMap()).containsKey("uniform-mig-3g" + Charts.NO_PLAN);
      assertThat(gain.getYAxisTitle()).contains((seeds < 5 ? Interval.Kind.GEOMETRIC_RANGE : Interval.Kind.GEOMETRIC_T).text());
      for (ClusterReport.Summary s : summaries) {
        String row = "| " + s.planner() + " | " + s.plans() + "/" + s.seeds() + " | ";
        if (s.gain() == null) {
          assertThat(table).contains(row + "- |");
          continue;
        }
        assertThat(s.gain().low()).isGreaterThan(0);
        assertThat(table).contains(row + s.gain().format(2) + " | ");
        if (s.cluster().equals("a100")) {
          pointAndWhisker(gain, s.planner(), Double.parseDouble(s.regime().substring("batch<=".length())), s.gain());
        }
        if (s.gap() != null) {
          assertThat(s.gap().low()).isGreaterThanOrEqualTo(0);
          assertThat(s.gap().high()).isLessThanOrEqualTo(1);
          assertThat(table).contains(s.gap().asPercent().format(1) + " %");
          CategorySeries bars = ((CategoryChart) charts.get("e2-gap")).getSeriesMap().get(s.planner());
          int k = indexOf(bars.getXData(), s.cluster() + " " + s.regime());
          assertThat(bars.getYData().stream().toList().get(k).doubleValue()).isEqualTo(100 * s.gap().mean());
        }
      }
      // the per-cluster bars are the geometric mean over regimes of the regimes' geometric means
      CategorySeries heuristic = ((CategoryChart) charts.get("e2-gain-cluster")).getSeriesMap().get("heuristic");
      double logs = summaries.stream().filter(s -> s.cluster().equals("a100") && s.planner().equals("heuristic"))
          .mapToDouble(s -> Math.log(s.gain().mean())).average().orElseThrow();
      assertThat(heuristic.getYData().stream().toList().get(0).doubleValue()).isEqualTo(Math.exp(logs), org.assertj.core.data.Offset.offset(1e-12));
      assertThat(((CategoryChart) charts.get("e2-gain-cluster")).getYAxisTitle()).contains("geometric mean over regimes");
    }
  }

  @Test
  void e2WithExclusiveUseAloneSaysThereIsNothingToCompareAndDrawsNoGainChart() {
    List<Row> rows = e2Rows(5).stream().filter(r -> r.planner().equals("exclusive")).toList();
    List<ClusterReport.Summary> summaries = ClusterReport.summarise(rows);
    assertThat(ClusterReport.table(summaries, ClusterReport.headlines(rows))).contains("nothing to compare");
    assertThat(ClusterReport.charts(summaries)).isEmpty();
  }

  @Test
  void e3ChartsKeepSharesInZeroToHundredMatchTheSummaryAndStateTheSeeds() {
    var settings = new RobustnessExperiment.Settings(RobustnessExperiment.Family.values()[0], ColocationObjective.MIN_GPUS, 100, 1, 5, 3,
        List.of(0.0, 0.1, 0.2), RobustnessExperiment.MarginKind.TIMES, List.of("exact", "heuristic", "even-mps-2"), Duration.ofSeconds(1), 1);
    SplittableRandom random = new SplittableRandom(3);
    List<RobustnessExperiment.Summary> summaries = new ArrayList<>();
    for (String planner : List.of("exact", "heuristic")) {
      for (double m : settings.margins()) {
        for (RobustnessExperiment.Scenario scenario : RobustnessExperiment.Scenario.values()) {
          summaries.add(new RobustnessExperiment.Summary(planner, m, scenario.label, 5, Interval.amount(sample(random, 5, 10, 20)),
              Interval.amount(sample(random, 5, 1, 2)), Interval.proportion(edgeShares(random, 5)), Interval.proportion(edgeShares(random, 5)),
              Interval.proportion(edgeShares(random, 5)), Interval.proportion(edgeShares(random, 5)), 0.9));
        }
      }
    }
    Map<String, XYChart> charts = RobustnessChart.charts(summaries, settings, "test mixes, 5 seeds, times margin");
    assertThat(charts).containsOnlyKeys("e3-violations", "e3-violations-gamma-x2", "e3-gpus", "e3-tradeoff");
    charts.values().forEach(c -> statesSeeds(c, 5));
    within(charts.get("e3-violations"), 0, 100);
    within(charts.get("e3-gpus"), 0, Double.MAX_VALUE);
    assertThat(charts.get("e3-violations").getSeriesMap()).containsKey("even-mps-2" + Charts.NO_PLAN);
    for (RobustnessExperiment.Summary s : summaries) {
      if (s.scenario().equals(RobustnessExperiment.Scenario.PERTURBED.label)) {
        pointAndWhisker(charts.get("e3-violations"), s.planner(), 100 * s.margin(), s.brokenPlans().asPercent());
        pointAndWhisker(charts.get("e3-gpus"), s.planner(), 100 * s.margin(), s.gpus());
      }
    }
  }

  @Test
  void e4TableAndChartAgreeAndASharingPlannerAloneHasNothingToCompare() {
    SplittableRandom random = new SplittableRandom(4);
    List<SharingExperiment.Row> rows = new ArrayList<>();
    for (double load : List.of(48.0, 96.0)) {
      Interval whole = Interval.amount(sample(random, 5, 40, 50));
      Interval shared = Interval.amount(sample(random, 5, 50, 70));
      Interval gain = Interval.ratio(sample(random, 5, 1.1, 1.5)).asGainPercent();
      rows.add(new SharingExperiment.Row("light", "rampa-greedy/capability", false, load, 5, whole, Optional.empty(), Optional.empty(),
          Interval.amount(sample(random, 5, 0, 2)), Interval.amount(sample(random, 5, 0, 4)), Interval.amount(new double[] {0, 0, 0, 0, 0}), 0));
      rows.add(new SharingExperiment.Row("light", "rampa-greedy/capability", true, load, 5, shared, Optional.of(gain), Optional.empty(),
          Interval.amount(sample(random, 5, 0, 2)), Interval.amount(sample(random, 5, 0, 4)), Interval.amount(sample(random, 5, 3, 9)), 0));
    }
    XYChart chart = SharingExperiment.charts(rows, 48).get("light");
    statesSeeds(chart, 5);
    within(chart, 0, Double.MAX_VALUE);
    StringWriter text = new StringWriter();
    SharingExperiment.printTable(rows, new PrintWriter(text, true));
    for (SharingExperiment.Row r : rows) {
      pointAndWhisker(chart, r.label(), r.load(), r.admitted());
      assertThat(text.toString()).contains(r.admitted().format(1));
    }
    assertThat(text.toString()).contains("gains, paired per seed: geometric mean, 95 % interval in log space over 5 seeds");

    StringWriter alone = new StringWriter();
    SharingExperiment.printTable(rows.stream().filter(SharingExperiment.Row::sharing)
        .map(r -> new SharingExperiment.Row(r.workload(), r.planner(), true, r.load(), 5, r.admitted(), Optional.empty(), Optional.empty(), r.stranded(),
            r.free(), r.sharedPlans(), 0)).toList(), new PrintWriter(alone, true));
    assertThat(alone.toString()).contains("Nothing to compare");
  }

  @Test
  void e1ChartsSayTheyHaveNoSeedsAndKeepGainsPositive() {
    List<OneGpuExperiment.Summary> summaries = new ArrayList<>();
    for (int b : new int[] {1, 2, 4, 8, 16, 32, 64, 128}) {
      summaries.add(new OneGpuExperiment.Summary("muxserve", "A100", OneGpuExperiment.TIER, 0.1, "batch", b, 10, 1.5, 1.8, 1.6, 0.9, 2.5));
    }
    summaries.add(new OneGpuExperiment.Summary("muxserve", "A100", OneGpuExperiment.TIER, 0.1, "slo", 0, 10, 1.2, 1.3, 1.25, 0.9, 1.6));
    for (XYChart chart : List.of(OneGpuChart.chart(summaries, "E1"), OneGpuChart.sourcesChart(summaries, 0.1), OneGpuChart.gammaChart(summaries))) {
      assertThat(chart.getTitle()).contains("0 seeds");
      within(chart, 1e-300, Double.MAX_VALUE);
    }
  }

  @Test
  void learnedPolicySummaryKeepsScaleOverBoundInZeroToOneAndSaysWhatItShows() {
    SplittableRandom random = new SplittableRandom(5);
    List<org.rampa.examples.learned.PolicyEvaluation.MixResult> results = new ArrayList<>();
    for (int mix = 0; mix < 6; mix++) {
      double bound = random.nextDouble(10, 100);
      // the learned policy at or just under the bound, where an arithmetic interval would pass 1
      Map<String, Double> scales = new java.util.LinkedHashMap<>(Map.of("learned", bound * (mix == 0 ? 0.6 : 0.999), "exclusive", bound * 0.7));
      results.add(new org.rampa.examples.learned.PolicyEvaluation.MixResult(32, mix, scales, bound, new long[] {1_000_000}, 0));
    }
    StringWriter text = new StringWriter();
    org.rampa.examples.learned.PolicyEvaluation.printSummary(results, new PrintWriter(text, true));
    double[] ofBound = results.stream().mapToDouble(r -> r.scales().get("learned") / r.bound()).toArray();
    Interval learned = Interval.ratio(ofBound, 1);
    assertThat(learned.high()).isLessThanOrEqualTo(1);
    assertThat(text.toString()).contains("scale / bound: geometric mean, 95 % interval in log space over 6 seeds", learned.format(4));
  }

  /** a100 and npu, batch caps 1 and 128, {@code seeds} seeds; uniform-mig-3g never has a plan. */
  private static List<Row> e2Rows(int seeds) {
    SplittableRandom random = new SplittableRandom(seeds);
    List<Row> rows = new ArrayList<>();
    for (String cluster : List.of("a100", "npu")) {
      for (Regime regime : List.of(Regime.cap(1), Regime.cap(128))) {
        for (int seed = 1; seed <= seeds; seed++) {
          Config c = new Config(new ClusterMixes.Cluster(cluster, List.of()), regime, seed, 120, List.of());
          double exclusive = random.nextDouble(0.5, 1.5);
          double bound = exclusive * random.nextDouble(3, 6);
          // one seed far off the others: the case where an arithmetic t-interval runs below zero
          double exact = seed == 1 ? bound * 0.99 : bound * random.nextDouble(0.05, 0.3);
          rows.add(row(c, "exact", exact, bound));
          rows.add(row(c, "heuristic", exact * random.nextDouble(0.6, 1.0), Double.NaN));
          rows.add(row(c, "exclusive", exclusive, Double.NaN));
          rows.add(row(c, "even-mps-2", exclusive * random.nextDouble(1.0, 2.0), Double.NaN));
          rows.add(row(c, "uniform-mig-3g", 0, Double.NaN));
        }
      }
    }
    return rows;
  }

  private static Row row(Config c, String planner, double scale, double bound) {
    return new Row(c, planner, scale > 0 ? "FEASIBLE" : "NO_PLAN_FOUND", scale, bound, 100, false, scale > 0 ? 500 : 0, -1, Double.NaN, 0,
        scale > 0 ? 0.1 : Double.NaN, 0, 1);
  }

  /** The chart names its seed count (title or an axis): "5 seeds". */
  private static void statesSeeds(Chart<?, ?> chart, int seeds) {
    String text = chart.getTitle() + " | " + chart.getXAxisTitle() + " | " + chart.getYAxisTitle();
    assertThat(text).as(chart.getTitle()).containsPattern("\\b" + seeds + " seeds?\\b");
  }

  /** Every drawn value of every series (points and whiskers; NaN is a "no plan" entry, not drawn) lies in [low, high]. */
  private static void within(Chart<?, ?> chart, double low, double high) {
    if (chart instanceof XYChart xy) {
      for (XYSeries s : xy.getSeriesMap().values()) {
        for (double y : s.getYData()) {
          if (!Double.isNaN(y)) {
            assertThat(y).as("%s in %s", s.getName(), chart.getTitle()).isBetween(low, high);
          }
        }
      }
    } else {
      for (CategorySeries s : ((CategoryChart) chart).getSeriesMap().values()) {
        for (Number y : s.getYData()) {
          if (y != null) {
            assertThat(y.doubleValue()).as("%s in %s", s.getName(), chart.getTitle()).isBetween(low, high);
          }
        }
      }
    }
  }

  /** The series whose name starts with {@code name} has the point (x, mean) and a whisker at x from low to high. */
  private static void pointAndWhisker(XYChart chart, String name, double x, Interval i) {
    XYSeries points = chart.getSeriesMap().values().stream().filter(s -> s.isShowInLegend() && s.getName().startsWith(name)
        && !s.getName().endsWith(Charts.NO_PLAN)).findFirst().orElseThrow(() -> new AssertionError("no series " + name + " in " + chart.getTitle()));
    int k = indexOf(points.getXData(), x);
    assertThat(points.getYData()[k]).as("%s at %s", name, x).isEqualTo(i.mean());
    XYSeries whisker = chart.getSeriesMap().get(points.getName() + Charts.WHISKER + x);
    if (i.high() > i.low()) {
      assertThat(whisker).as("whisker of %s at %s", name, x).isNotNull();
      assertThat(whisker.getYData()).containsExactly(i.low(), i.high());
      assertThat(whisker.isShowInLegend()).isFalse();
    }
  }

  private static int indexOf(double[] xs, double x) {
    for (int k = 0; k < xs.length; k++) {
      if (xs[k] == x) {
        return k;
      }
    }
    throw new AssertionError(String.format(Locale.ROOT, "no x = %s", x));
  }

  private static int indexOf(java.util.Collection<?> xs, Object x) {
    int k = new ArrayList<>(xs).indexOf(x);
    assertThat(k).as("category %s", x).isNotNegative();
    return k;
  }

  private static double[] sample(SplittableRandom random, int n, double low, double high) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = low == high ? low : random.nextDouble(low, high);
    }
    return out;
  }

  /** Shares with mass at 0 and 1, where an unclamped interval would leave [0, 1]. */
  private static double[] edgeShares(SplittableRandom random, int n) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = random.nextInt(3) == 0 ? random.nextDouble() : i == 0 ? 1 : 0;
    }
    return out;
  }
}
