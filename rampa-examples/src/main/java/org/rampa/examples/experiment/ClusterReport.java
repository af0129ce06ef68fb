package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.rampa.examples.experiment.ClusterExperiment.Config;
import org.rampa.examples.experiment.ClusterExperiment.Row;

/**
 * E2's outputs: the raw CSV (one row per cluster, regime, seed and planner), the summary per
 * cluster, regime and planner over seeds ({@link Interval}: gains over exclusive use and the best
 * over the strongest baseline are ratios, geometric means with intervals in log space; the gap to
 * the bound is one minus the geometric mean of scale / bound; counts and times are means), and the
 * charts: gain over exclusive use against batch size per planner, gain per cluster type, gap to the
 * bound, each stating its seed count.
 */
public final class ClusterReport {
  private ClusterReport() {}

  /** One (cluster, regime, planner): intervals over the seeds where the value exists (null where none does). */
  public record Summary(String cluster, String regime, String planner, int seeds, int plans, Interval gain, Interval scale, Interval gap,
      Interval seconds, Interval gpusNeeded, Interval unusableSlices, Interval idleCompute, Interval reconfigured) {}

  /** One (cluster, regime): our best plan's scale over the strongest baseline's, per seed. */
  public record Headline(String cluster, String regime, Interval bestOverStrongest, String bestMostOften, String strongestMostOften) {}

  public static List<Summary> summarise(List<Row> rows) {
    List<Summary> out = new ArrayList<>();
    for (List<String> key : keys(rows)) {
      List<Row> at = rows.stream().filter(r -> r.config().cluster().label().equals(key.get(0)) && r.config().regime().label().equals(key.get(1))
          && r.planner().equals(key.get(2))).toList();
      List<Row> withPlan = at.stream().filter(r -> r.scale() > 0).toList();
      double[] gains = withPlan.stream().filter(r -> exclusiveScale(rows, r.config()) > 0)
          .mapToDouble(r -> r.scale() / exclusiveScale(rows, r.config())).toArray();
      // the gap of the seeds with a plan (a seed without one is counted in plans, not as a 100 % gap)
      List<Row> bounded = withPlan.stream().filter(r -> !Double.isNaN(boundOf(rows, r.config())) && boundOf(rows, r.config()) > 0).toList();
      double[] ofBound = bounded.stream().mapToDouble(r -> r.scale() / boundOf(rows, r.config())).toArray();
      out.add(new Summary(key.get(0), key.get(1), key.get(2), at.size(), withPlan.size(), gains.length == 0 ? null : Interval.ratio(gains),
          amount(withPlan.stream().mapToDouble(Row::scale).toArray()), ofBound.length == 0 ? null : Interval.ratio(ofBound, 1).complement(),
          amount(at.stream().mapToDouble(r -> r.millis() / 1e3).toArray()),
          amount(at.stream().filter(r -> r.gpusNeeded() >= 0).mapToDouble(Row::gpusNeeded).toArray()),
          amount(withPlan.stream().mapToDouble(Row::unusableSlices).toArray()),
          proportion(withPlan.stream().mapToDouble(Row::idleCompute).filter(v -> !Double.isNaN(v)).toArray()),
          amount(withPlan.stream().mapToDouble(Row::reconfigured).toArray())));
    }
    return out;
  }

  /** Per (cluster, regime): the best of our planners against the strongest baseline, seed by seed. */
  public static List<Headline> headlines(List<Row> rows) {
    List<Headline> out = new ArrayList<>();
    List<List<String>> pairs = keys(rows).stream().map(k -> List.of(k.get(0), k.get(1))).distinct().toList();
    for (List<String> pair : pairs) {
      Map<Config, List<Row>> bySeed = new LinkedHashMap<>();
      rows.stream().filter(r -> r.config().cluster().label().equals(pair.get(0)) && r.config().regime().label().equals(pair.get(1)))
          .forEach(r -> bySeed.computeIfAbsent(r.config(), c -> new ArrayList<>()).add(r));
      List<Double> ratios = new ArrayList<>();
      Map<String, Integer> best = new LinkedHashMap<>();
      Map<String, Integer> strongest = new LinkedHashMap<>();
      for (List<Row> seedRows : bySeed.values()) {
        Row ours = seedRows.stream().filter(r -> ClusterExperiment.OURS.contains(r.planner())).max(java.util.Comparator.comparingDouble(Row::scale))
            .orElse(null);
        Row base = seedRows.stream().filter(r -> !ClusterExperiment.OURS.contains(r.planner())).max(java.util.Comparator.comparingDouble(Row::scale))
            .orElse(null);
        if (ours == null || base == null || base.scale() <= 0) {
          continue;
        }
        ratios.add(ours.scale() / base.scale());
        best.merge(ours.planner(), 1, Integer::sum);
        strongest.merge(base.planner(), 1, Integer::sum);
      }
      if (!ratios.isEmpty()) {
        out.add(new Headline(pair.get(0), pair.get(1), Interval.ratio(ratios.stream().mapToDouble(Double::doubleValue).toArray()), mostOften(best),
            mostOften(strongest)));
      }
    }
    return out;
  }

  private static String mostOften(Map<String, Integer> counts) {
    return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(e -> e.getKey() + " (" + e.getValue() + ")").orElse("-");
  }

  private static List<List<String>> keys(List<Row> rows) {
    return rows.stream().map(r -> List.of(r.config().cluster().label(), r.config().regime().label(), r.planner())).distinct().toList();
  }

  private static double exclusiveScale(List<Row> rows, Config c) {
    return rows.stream().filter(r -> r.config().equals(c) && r.planner().equals("exclusive")).mapToDouble(Row::scale).findFirst().orElse(0);
  }

  private static double boundOf(List<Row> rows, Config c) {
    return rows.stream().filter(r -> r.config().equals(c) && r.planner().equals("exact")).mapToDouble(Row::bound).findFirst().orElse(Double.NaN);
  }

  private static Interval proportion(double[] values) {
    return values.length == 0 ? null : Interval.proportion(values);
  }

  private static Interval amount(double[] values) {
    return values.length == 0 ? null : Interval.amount(values);
  }

  public static String rawCsv(List<Row> rows) {
    StringBuilder csv = new StringBuilder("cluster,regime,small_share,batch_cap,seed,services,planner,status,scale,gain_over_exclusive,bound,"
        + "gap_to_bound,seconds,hit_time_limit,gpus_used,gpus_needed,needed_seconds,unusable_slices,idle_compute,reconfigured_gpus,layouts\n");
    for (Row r : rows) {
      double excl = exclusiveScale(rows, r.config());
      double bound = boundOf(rows, r.config());
      Config c = r.config();
      csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%s,%s,%.6f,%s,%s,%s,%.3f,%s,%d,%s,%s,%d,%s,%d,%d%n", c.cluster().label(),
          c.regime().label(), c.regime().smallShare(), c.regime().cap(), c.seed(), c.services(), r.planner(), r.status(), r.scale(),
          excl > 0 && r.scale() > 0 ? fmt(r.scale() / excl) : "", Double.isNaN(bound) ? "" : fmt(bound),
          Double.isNaN(bound) ? "" : fmt(1 - r.scale() / bound), r.millis() / 1e3, r.hitLimit(), r.gpusUsed(), r.gpusNeeded() < 0 ? "" : r.gpusNeeded(),
          Double.isNaN(r.neededMillis()) ? "" : String.format(Locale.ROOT, "%.3f", r.neededMillis() / 1e3), r.unusableSlices(),
          Double.isNaN(r.idleCompute()) ? "" : fmt(r.idleCompute()), r.reconfigured(), r.layouts()));
    }
    return csv.toString();
  }

  public static String summaryCsv(List<Summary> summaries) {
    StringBuilder csv = new StringBuilder("cluster,regime,planner,seeds,plans,interval,gain_geomean,gain_low,gain_high,scale_mean,gap_mean,gap_low,gap_high,"
        + "seconds_mean,seconds_low,seconds_high,gpus_needed_mean,gpus_needed_low,gpus_needed_high,unusable_slices_mean,idle_compute_mean,"
        + "reconfigured_mean\n");
    for (Summary s : summaries) {
      csv.append(String.join(",", s.cluster(), s.regime(), s.planner(), Integer.toString(s.seeds()), Integer.toString(s.plans()),
          s.seeds() < Interval.MIN_SEEDS_FOR_INTERVAL ? "range" : "95%",
          three(s.gain()), s.scale() == null ? "" : fmt(s.scale().mean()), three(s.gap()), three(s.seconds()), three(s.gpusNeeded()),
          s.unusableSlices() == null ? "" : fmt(s.unusableSlices().mean()), s.idleCompute() == null ? "" : fmt(s.idleCompute().mean()),
          s.reconfigured() == null ? "" : fmt(s.reconfigured().mean()))).append('\n');
    }
    return csv.toString();
  }

  private static String three(Interval i) {
    return i == null ? ",," : fmt(i.mean()) + "," + fmt(i.low()) + "," + fmt(i.high());
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  /**
   * The summary as a Markdown table per cluster and regime (what the command prints and the docs
   * quote), each under a line that says what its intervals are; a report where only exclusive use
   * ran says there is nothing to compare.
   */
  public static String table(List<Summary> summaries, List<Headline> headlines) {
    StringBuilder out = new StringBuilder();
    if (summaries.stream().allMatch(s -> s.planner().equals("exclusive"))) {
      out.append(String.format(Locale.ROOT, "%nOnly exclusive use ran: nothing to compare it with (gains are relative to it). "
          + "Its scale and solve times are below and in the CSV files.%n"));
    }
    List<List<String>> pairs = summaries.stream().map(s -> List.of(s.cluster(), s.regime())).distinct().toList();
    for (List<String> pair : pairs) {
      List<Summary> here = summaries.stream().filter(s -> s.cluster().equals(pair.get(0)) && s.regime().equals(pair.get(1))).toList();
      List<Headline> headline = headlines.stream().filter(h -> h.cluster().equals(pair.get(0)) && h.regime().equals(pair.get(1))).toList();
      out.append(String.format(Locale.ROOT, "%n%s, %s%s%n", pair.get(0), pair.get(1), ClusterMixes.modelled(pair.get(0)) ? " (MODELLED: analytic tier)" : ""));
      List<Interval> ratios = new ArrayList<>(here.stream().map(Summary::gain).toList());
      headline.forEach(h -> ratios.add(h.bestOverStrongest()));
      out.append("gain over exclusive, best over strongest: ").append(orNone(Interval.header(ratios)))
          .append("; gap to bound: 1 - scale / bound, ").append(orNone(Interval.header(here.stream().map(Summary::gap).toList())))
          .append("; solve s, GPUs needed: ").append(orNone(Interval.header(here.stream().map(Summary::seconds).toList()))).append('\n');
      out.append("| planner | plans | gain over exclusive | gap to bound | solve s | GPUs needed | unusable slices | idle compute | reconfigured GPUs |\n");
      out.append("|---|---:|---|---|---|---|---:|---:|---:|\n");
      for (Summary s : here) {
        out.append(String.format(Locale.ROOT, "| %s | %d/%d | %s | %s | %s | %s | %s | %s | %s |%n", s.planner(), s.plans(), s.seeds(),
            f(s.gain(), 2), s.gap() == null ? "-" : s.gap().asPercent().format(1) + " %", f(s.seconds(), 1), f(s.gpusNeeded(), 0),
            s.unusableSlices() == null ? "-" : String.format(Locale.ROOT, "%.1f", s.unusableSlices().mean()),
            s.idleCompute() == null ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * s.idleCompute().mean()),
            s.reconfigured() == null ? "-" : String.format(Locale.ROOT, "%.0f", s.reconfigured().mean())));
      }
      headline.forEach(h -> out.append(String.format(Locale.ROOT, "best of ours over the strongest baseline: %s (best: %s; strongest baseline: %s)%n",
          f(h.bestOverStrongest(), 2), h.bestMostOften(), h.strongestMostOften())));
    }
    return out.toString();
  }

  private static String orNone(String header) {
    return header.isEmpty() ? "none" : header;
  }

  private static String f(Interval i, int decimals) {
    return i == null ? "-" : i.format(decimals);
  }

  /**
   * Writes {@code e2.csv}, {@code e2-summary.csv}, {@code e2-summary.md} and the charts (PNG and
   * SVG) there are data for into {@code directory}; returns the names of the files written.
   */
  public static List<String> write(List<Row> rows, Path directory) {
    List<Summary> summaries = summarise(rows);
    try {
      Files.writeString(directory.resolve("e2.csv"), rawCsv(rows));
      Files.writeString(directory.resolve("e2-summary.csv"), summaryCsv(summaries));
      Files.writeString(directory.resolve("e2-summary.md"), table(summaries, headlines(rows)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write into " + directory, e);
    }
    List<String> written = new ArrayList<>(List.of("e2.csv", "e2-summary.csv", "e2-summary.md"));
    charts(summaries).forEach((name, chart) -> {
      Charts.save(chart, directory, name);
      written.add(name + ".png");
      written.add(name + ".svg");
    });
    return written;
  }

  /** Every chart the summaries have data for, by file stem. */
  public static Map<String, Chart<?, ?>> charts(List<Summary> summaries) {
    Map<String, Chart<?, ?>> out = new LinkedHashMap<>();
    for (String cluster : summaries.stream().map(Summary::cluster).distinct().toList()) {
      gainAgainstBatch(summaries, cluster).ifPresent(c -> out.put("e2-gain-batch-" + cluster, c));
    }
    gainPerCluster(summaries).ifPresent(c -> out.put("e2-gain-cluster", c));
    gapToBound(summaries).ifPresent(c -> out.put("e2-gap", c));
    return out;
  }

  private static int seeds(List<Summary> summaries) {
    return summaries.stream().mapToInt(Summary::seeds).max().orElse(0);
  }

  /**
   * Gain over exclusive use against the batch cap: per planner the measured caps as points with
   * their intervals (geometric mean, interval in log space, or range below 5 seeds); a planner
   * with no plan at any cap is named "no plan".
   */
  static java.util.Optional<XYChart> gainAgainstBatch(List<Summary> summaries, String cluster) {
    List<Summary> capped = summaries.stream().filter(s -> s.cluster().equals(cluster) && s.regime().startsWith("batch<=")).toList();
    if (capped.stream().map(Summary::regime).distinct().count() < 2 || capped.stream().allMatch(s -> s.planner().equals("exclusive"))) {
      return java.util.Optional.empty();
    }
    int seeds = seeds(capped);
    XYChart chart = new XYChartBuilder().width(1000).height(620)
        .title("E2, " + cluster + " (1000 accelerators" + (ClusterMixes.modelled(cluster) ? ", MODELLED" : "")
            + "): gain over exclusive use against batch size, " + Charts.seeds(seeds))
        .xAxisTitle("largest batch a service may use")
        .yAxisTitle("scale / exclusive's (x): " + Charts.describe(capped.stream().map(Summary::gain).toList())).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setMarkerSize(7);
    List<String> planners = capped.stream().map(Summary::planner).distinct().toList();
    for (int k = 0; k < planners.size(); k++) {
      String planner = planners.get(k);
      List<Summary> line = capped.stream().filter(s -> s.planner().equals(planner) && s.gain() != null).toList();
      if (line.isEmpty()) {
        Charts.noPlan(chart, planner, capped.stream().mapToDouble(ClusterReport::cap).min().orElse(1), Charts.colour(chart, k));
        continue;
      }
      double[] x = line.stream().mapToDouble(ClusterReport::cap).toArray();
      Charts.points(chart, withPlans(planner, line), x, line.stream().map(Summary::gain).toArray(Interval[]::new), Charts.colour(chart, k));
    }
    return java.util.Optional.of(chart);
  }

  private static double cap(Summary s) {
    return Integer.parseInt(s.regime().substring("batch<=".length()));
  }

  /**
   * Gain over exclusive use per cluster type, per planner: the geometric mean over the regimes
   * every cluster ran of each regime's geometric mean over seeds (so a regime weighs the same
   * whatever its gain); a planner without a plan on a cluster is named so in the legend.
   */
  static java.util.Optional<CategoryChart> gainPerCluster(List<Summary> summaries) {
    List<String> clusters = summaries.stream().map(Summary::cluster).distinct().toList();
    List<String> planners = summaries.stream().map(Summary::planner).distinct().filter(p -> !p.equals("exclusive")).toList();
    List<String> regimes = summaries.stream().map(Summary::regime).distinct()
        .filter(r -> clusters.stream().allMatch(c -> summaries.stream().anyMatch(s -> s.cluster().equals(c) && s.regime().equals(r)))).toList();
    if (regimes.isEmpty() || planners.isEmpty()) {
      return java.util.Optional.empty();
    }
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(620)
        .title("E2: gain over exclusive use per cluster, geometric mean over " + String.join(", ", regimes) + ", " + Charts.seeds(seeds(summaries)))
        .xAxisTitle("cluster (1000 accelerators)")
        .yAxisTitle("scale / exclusive's (x), geometric mean over regimes")
        .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    for (String planner : planners) {
      List<Double> y = new ArrayList<>();
      List<String> missing = new ArrayList<>();
      for (String c : clusters) {
        double[] gains = summaries.stream().filter(s -> s.cluster().equals(c) && s.planner().equals(planner) && regimes.contains(s.regime()))
            .filter(s -> s.gain() != null).mapToDouble(s -> s.gain().mean()).toArray();
        if (gains.length < regimes.size() || java.util.Arrays.stream(gains).anyMatch(g -> g <= 0)) {
          y.add(null);
          missing.add(c);
        } else {
          y.add(Math.exp(java.util.Arrays.stream(gains).map(Math::log).average().orElseThrow()));
        }
      }
      String name = missing.isEmpty() ? planner : missing.size() == clusters.size() ? planner + Charts.NO_PLAN
          : planner + " (no plan in some regime on " + String.join(", ", missing) + ")";
      chart.addSeries(name, clusters.stream().map(c -> ClusterMixes.modelled(c) ? c + " (MODELLED)" : c).toList(), y);
    }
    return java.util.Optional.of(chart);
  }

  /** Gap to exact's proven bound per cluster, regime and planner: 1 - the geometric mean of scale / bound over the seeds with a plan. */
  static java.util.Optional<CategoryChart> gapToBound(List<Summary> summaries) {
    List<Summary> gapped = summaries.stream().filter(s -> s.gap() != null).toList();
    if (gapped.isEmpty()) {
      return java.util.Optional.empty();
    }
    List<String> categories = gapped.stream().map(s -> s.cluster() + " " + s.regime()).distinct().toList();
    CategoryChart chart = new CategoryChartBuilder().width(1100).height(620)
        .title("E2: gap to exact's proven bound on the demand scale (lower is better), " + Charts.seeds(seeds(gapped)))
        .xAxisTitle("cluster and batch regime").yAxisTitle("1 - scale / bound (%), geometric mean of scale / bound").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisLabelRotation(30);
    for (String planner : summaries.stream().map(Summary::planner).distinct().toList()) {
      List<Double> y = new ArrayList<>();
      for (String cat : categories) {
        y.add(gapped.stream().filter(s -> (s.cluster() + " " + s.regime()).equals(cat) && s.planner().equals(planner)).findFirst()
            .map(s -> 100 * s.gap().mean()).orElse(null));
      }
      boolean none = y.stream().allMatch(java.util.Objects::isNull);
      chart.addSeries(none ? planner + Charts.NO_PLAN : planner, categories, y);
    }
    return java.util.Optional.of(chart);
  }

  /** The planner's name, saying so when it had no plan on some mixes (its mean is over the others). */
  private static String withPlans(String planner, List<Summary> line) {
    int plans = line.stream().mapToInt(Summary::plans).min().orElse(0);
    int seeds = line.stream().mapToInt(Summary::seeds).max().orElse(0);
    if (plans >= seeds) {
      return planner;
    }
    return planner + " (a plan on only " + plans + " of " + seeds + " mixes" + (plans > 1 && plans < Interval.MIN_SEEDS_FOR_INTERVAL ? ": range)" : ")");
  }

}
