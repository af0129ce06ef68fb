package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.rampa.domain.Cluster;
import org.rampa.domain.Invalid;
import org.rampa.examples.sim.RunResult;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.strategy.StrategyOptions;

/**
 * VastPipe experiment E4, RAMPA with sharing: the admission experiment run twice on the same
 * arrivals, once with every planner holding whole GPUs only and once with it allowed to place
 * services on parts of GPUs, for one or more workloads. Per planner, load and mode it reports
 * admitted services, SLO violations (plans the verifier or the commit refused, plus services the
 * simulator's own audit found missing their SLO after an admission: both must be 0) and
 * fragmentation (free capacity no class of the workload could use), each as a mean with a 95 %
 * interval over the seeds; the gain of sharing is paired per seed.
 */
public final class SharingExperiment {

  /**
   * The experiment's settings.
   *
   * @param loads offered loads (Erlangs) per workload name ("standard", "light"), in run order
   */
  public record Settings(Cluster cluster, Map<String, List<Double>> loads, int arrivals, double meanLifetimeSeconds,
      long firstSeed, int seeds, List<String> planners, StrategyOptions options, int threads) {

    public Settings {
      if (loads.isEmpty()) {
        throw Invalid.value("workloads", "[]", "name at least one workload", "standard, light");
      }
      loads = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(loads));
      loads.keySet().forEach(WorkloadSpec::named); // fails fast on an unknown name
      planners = List.copyOf(planners);
    }

    AdmissionExperiment.Settings admission(String workload) {
      return new AdmissionExperiment.Settings(cluster, WorkloadSpec.named(workload).resolve(cluster), loads.get(workload), arrivals,
          meanLifetimeSeconds, firstSeed, seeds, planners, options, threads, 0, List.of(false, true), true);
    }
  }

  /** The runs of one workload. */
  public record WorkloadResult(String workload, ExperimentResult result) {}

  /**
   * One planner at one load of one workload, sharing off against on: means and 95 % intervals over
   * seeds; {@code gainPercent} is taken per seed (both modes saw the same arrivals).
   *
   * @param violationsOff plans refused by the verifier or the commit, plus audit findings, over all seeds, sharing off
   * @param violationsOn the same, sharing on
   */
  public record Row(String workload, String planner, double load, int seeds, Interval admittedOff, Interval admittedOn,
      Interval gainPercent, Interval strandedOff, Interval strandedOn, Interval freeOff, Interval freeOn, Interval sharedPlansOn,
      int violationsOff, int violationsOn) {}

  private final Map<String, AdmissionExperiment> experiments = new LinkedHashMap<>();

  /** Checks every setting (planner names included) before anything runs. */
  public SharingExperiment(Settings settings) {
    settings.loads().keySet().forEach(w -> experiments.put(w, new AdmissionExperiment(settings.admission(w))));
  }

  /** How many runs {@link #run} executes. */
  public int taskCount() {
    return experiments.values().stream().mapToInt(e -> e.taskCount(false)).sum();
  }

  /** Every planner, both modes, every load and seed of every workload; {@code progress} is told after each run. */
  public List<WorkloadResult> run(Runnable progress) {
    List<WorkloadResult> out = new ArrayList<>();
    experiments.forEach((w, e) -> out.add(new WorkloadResult(w, e.run(progress))));
    return out;
  }

  /** The sharing-off against sharing-on statistics, per workload, planner and load. */
  public static List<Row> summarise(List<WorkloadResult> results) {
    List<Row> rows = new ArrayList<>();
    for (WorkloadResult w : results) {
      ExperimentResult r = w.result();
      for (String planner : planners(r)) {
        String shared = planner + Schedulers.SHARING_SUFFIX;
        for (double load : r.loads()) {
          List<RunResult> off = r.runs(planner, load);
          List<RunResult> on = r.runs(shared, load);
          rows.add(new Row(w.workload(), planner, load, off.size(), r.admitted(planner, load), r.admitted(shared, load),
              r.gainPercent(shared, planner, load), over(off, x -> x.capacity().meanStrandedGpuEquivalents()),
              over(on, x -> x.capacity().meanStrandedGpuEquivalents()), over(off, x -> x.capacity().meanFreeGpuEquivalents()),
              over(on, x -> x.capacity().meanFreeGpuEquivalents()), over(on, x -> x.capacity().sharedPlans()), violations(off),
              violations(on)));
        }
      }
    }
    return rows;
  }

  /** The planners of {@code r}, without their sharing twins. */
  private static List<String> planners(ExperimentResult r) {
    return r.schedulers().stream().filter(s -> !s.endsWith(Schedulers.SHARING_SUFFIX)).toList();
  }

  private static Interval over(List<RunResult> runs, ToDoubleFunction<RunResult> metric) {
    return Interval.of(runs.stream().mapToDouble(metric).toArray());
  }

  private static int violations(List<RunResult> runs) {
    return runs.stream().mapToInt(x -> x.violations() + x.capacity().auditFindings().size()).sum();
  }

  /** One line per workload, planner and load. */
  public static void printTable(List<Row> rows, PrintWriter out) {
    out.printf("%-9s %-24s %6s %5s %15s %15s %18s %6s %6s %12s %12s %10s%n", "workload", "planner", "load", "seeds", "admitted off",
        "admitted on", "gain % (paired)", "viol", "viol", "stranded off", "stranded on", "shared");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%-9s %-24s %6.1f %5d %15s %15s %18s %6d %6d %12s %12s %10.1f%n", r.workload(), r.planner(), r.load(),
          r.seeds(), r.admittedOff().format(1), r.admittedOn().format(1), r.gainPercent().format(1), r.violationsOff(),
          r.violationsOn(), r.strandedOff().format(2), r.strandedOn().format(2), r.sharedPlansOn().mean());
    }
  }

  /** Every run, one row each, with its workload, planner, sharing mode and seed. */
  public static void writeCsv(List<WorkloadResult> results, Path file) {
    StringBuilder b = new StringBuilder("workload,planner,sharing,offered_load,seed,arrivals,admitted,admission_ratio,"
        + "refused_by_verifier_or_commit,audited_slo_violations,shared_plans,mean_free_gpu_equivalents,mean_stranded_gpu_equivalents,"
        + "decision_p50_ms,decision_p99_ms,wall_s\n");
    for (WorkloadResult w : results) {
      for (RunResult r : w.result().runs()) {
        String planner = r.capacity().sharing()
            ? r.scheduler().substring(0, r.scheduler().length() - Schedulers.SHARING_SUFFIX.length())
            : r.scheduler();
        b.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%d,%d,%d,%.5f,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.3f%n", w.workload(), planner,
            r.capacity().sharing() ? "on" : "off", r.offeredLoad(), r.seed(), r.arrivals(), r.admitted(), r.admissionRatio(),
            r.violations(), r.capacity().auditFindings().size(), r.capacity().sharedPlans(), r.capacity().meanFreeGpuEquivalents(),
            r.capacity().meanStrandedGpuEquivalents(), r.decisionMillis(0.5), r.decisionMillis(0.99), r.wallSeconds()));
      }
    }
    write(file, b);
  }

  /** The summary rows: every interval as mean, low and high. */
  public static void writeSummaryCsv(List<Row> rows, Path file) {
    StringBuilder b = new StringBuilder("workload,planner,offered_load,seeds");
    for (String m : List.of("admitted_off", "admitted_on", "gain_percent", "stranded_gpu_eq_off", "stranded_gpu_eq_on", "free_gpu_eq_off",
        "free_gpu_eq_on", "shared_plans_on")) {
      b.append(',').append(m).append("_mean,").append(m).append("_low,").append(m).append("_high");
    }
    b.append(",slo_violations_off,slo_violations_on\n");
    for (Row r : rows) {
      b.append(String.format(Locale.ROOT, "%s,%s,%.3f,%d", r.workload(), r.planner(), r.load(), r.seeds()));
      for (Interval i : List.of(r.admittedOff(), r.admittedOn(), r.gainPercent(), r.strandedOff(), r.strandedOn(), r.freeOff(), r.freeOn(),
          r.sharedPlansOn())) {
        b.append(String.format(Locale.ROOT, ",%.4f,%.4f,%.4f", i.mean(), i.low(), i.high()));
      }
      b.append(String.format(Locale.ROOT, ",%d,%d%n", r.violationsOff(), r.violationsOn()));
    }
    write(file, b);
  }

  /** The file names {@link #writeCharts} writes for {@code workload}. */
  public static List<String> chartFiles(String workload) {
    return List.of("e4-" + workload + ".png", "e4-" + workload + ".svg");
  }

  /**
   * Per workload, admitted services against offered load: one solid line per planner with sharing
   * on and a dashed one with it off, mean over seeds with the 95 % interval as error bars.
   */
  public static void writeCharts(List<Row> rows, int gpus, Path directory) {
    for (String workload : rows.stream().map(Row::workload).distinct().toList()) {
      XYChart chart = new XYChartBuilder().width(1000).height(620)
          .title("E4: admitted services, sharing off and on (" + workload + " workload, " + gpus + " GPUs)")
          .xAxisTitle("offered load (Erlangs: arrival rate x mean lifetime)")
          .yAxisTitle("admitted services (mean, 95 % interval over seeds)").build();
      chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
      chart.getStyler().setMarkerSize(6);
      List<Row> mine = rows.stream().filter(r -> r.workload().equals(workload)).toList();
      java.awt.Color[] palette = chart.getStyler().getSeriesColors();
      List<String> planners = mine.stream().map(Row::planner).distinct().toList();
      for (int p = 0; p < planners.size(); p++) {
        String planner = planners.get(p);
        java.awt.Color colour = palette[p % palette.length];
        List<Row> series = mine.stream().filter(r -> r.planner().equals(planner)).toList();
        double[] x = series.stream().mapToDouble(Row::load).toArray();
        XYSeries on = chart.addSeries(planner + ", sharing on", x, series.stream().mapToDouble(r -> r.admittedOn().mean()).toArray(),
            series.stream().mapToDouble(r -> r.admittedOn().halfWidth()).toArray());
        XYSeries off = chart.addSeries(planner + ", sharing off", x,
            series.stream().mapToDouble(r -> r.admittedOff().mean()).toArray(),
            series.stream().mapToDouble(r -> r.admittedOff().halfWidth()).toArray());
        on.setLineColor(colour);
        on.setMarkerColor(colour);
        off.setLineColor(colour);
        off.setMarkerColor(colour);
        off.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
      }
      List<String> files = chartFiles(workload);
      try {
        Files.createDirectories(directory);
        BitmapEncoder.saveBitmap(chart, directory.resolve(files.get(0)).toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(chart, directory.resolve(files.get(1)).toString(),
            VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the chart to " + directory, e);
      }
    }
  }

  private static void write(Path file, CharSequence text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
