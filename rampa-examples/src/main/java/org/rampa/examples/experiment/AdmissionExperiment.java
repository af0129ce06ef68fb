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
import java.util.function.Consumer;
import org.rampa.domain.Cluster;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.examples.sim.PlannerSpec;
import org.rampa.examples.sim.RunResult;
import org.rampa.examples.sim.Simulator;
import org.rampa.examples.sim.Workload;
import org.rampa.perf.PerformanceModel;

/**
 * The RAMPA online-admission experiment (SPEC section 8.1): every planner sees the same seeded
 * arrival sequence at every offered load; the report compares admissions.
 *
 * <p>Offered load is in Erlangs: arrival rate × mean lifetime, the mean number of services that
 * would be running if all were admitted.
 */
public final class AdmissionExperiment {

  /** The experiment's settings. */
  public record Settings(Cluster cluster, Workload workload, List<Double> offeredLoads, int arrivalsPerLoad,
      double meanLifetimeSeconds, long seed, List<PlannerSpec> planners) {}

  private final Settings settings;

  public AdmissionExperiment(Settings settings) {
    this.settings = settings;
  }

  /** Runs every planner at every load; {@code progress} is told after each run. */
  public List<RunResult> run(Consumer<RunResult> progress) {
    List<RunResult> results = new ArrayList<>();
    for (double load : settings.offeredLoads()) {
      double rate = load / settings.meanLifetimeSeconds();
      ArrivalTrace trace = ArrivalTrace.poisson(settings.workload(), rate, settings.meanLifetimeSeconds(),
          settings.arrivalsPerLoad(), settings.seed());
      results.addAll(replay(trace, load, progress));
    }
    return results;
  }

  /** Runs every planner on one given trace, whose offered load is {@code load}. */
  public List<RunResult> replay(ArrivalTrace trace, double load, Consumer<RunResult> progress) {
    Simulator simulator = new Simulator(settings.cluster(), settings.workload(), PerformanceModel.defaults());
    List<RunResult> results = new ArrayList<>();
    for (PlannerSpec planner : settings.planners()) {
      RunResult r = simulator.run(planner, trace, load);
      results.add(r);
      progress.accept(r);
    }
    return results;
  }

  /** One line per planner and load. */
  public static void printTable(List<RunResult> results, PrintWriter out) {
    out.printf("%-36s %6s %8s %8s %7s %5s %9s %9s %9s%n", "planner", "load", "arrivals", "admitted", "ratio", "viol",
        "free/node", "p50 ms", "p99 ms");
    for (RunResult r : results) {
      out.printf(Locale.ROOT, "%-36s %6.1f %8d %8d %6.1f%% %5d %9.2f %9.3f %9.3f%n", r.planner(), r.offeredLoad(), r.arrivals(),
          r.admitted(), 100 * r.admissionRatio(), r.violations(), r.meanFreeGpusPerNode(), r.decisionMillis(0.5), r.decisionMillis(0.99));
    }
  }

  /** Every metric of every run, one row each. */
  public static void writeCsv(List<RunResult> results, List<String> types, Path file) {
    StringBuilder b = new StringBuilder("planner,offered_load,arrivals,admitted,admission_ratio,slo_violations,"
        + "mean_free_gpus_per_node,decision_p50_ms,decision_p99_ms,wall_s,statuses");
    for (String t : types) {
      b.append(",gpu_hours_").append(t).append(",utilisation_").append(t).append(",free_at_rejection_").append(t);
    }
    b.append('\n');
    for (RunResult r : results) {
      b.append(String.format(Locale.ROOT, "%s,%.3f,%d,%d,%.5f,%d,%.4f,%.4f,%.4f,%.3f,\"%s\"", r.planner(), r.offeredLoad(),
          r.arrivals(), r.admitted(), r.admissionRatio(), r.violations(), r.meanFreeGpusPerNode(), r.decisionMillis(0.5),
          r.decisionMillis(0.99), r.wallSeconds(), r.statuses()));
      for (String t : types) {
        b.append(String.format(Locale.ROOT, ",%.4f,%.5f,%.3f", r.gpuHoursByType().getOrDefault(t, 0.0),
            r.utilisationByType().getOrDefault(t, 0.0), r.freeGpusAtRejection().getOrDefault(t, 0.0)));
      }
      b.append('\n');
    }
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, b);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Why arrivals were rejected: one row per planner, load and reason, with its count. */
  public static void writeRejections(List<RunResult> results, Path file) {
    StringBuilder b = new StringBuilder("planner,offered_load,count,reason\n");
    for (RunResult r : results) {
      r.rejectionReasons().forEach((reason, count) -> b.append(String.format(Locale.ROOT, "%s,%.3f,%d,\"%s\"%n",
          r.planner(), r.offeredLoad(), count, reason.replace("\"", "'"))));
    }
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, b);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** The admission-ratio chart, as admission.png and admission.svg in {@code directory}. */
  public static void writeChart(List<RunResult> results, String title, Path directory) {
    AdmissionChart.write(results, title, directory);
  }

  /** Results grouped per planner, in load order. */
  static Map<String, List<RunResult>> byPlanner(List<RunResult> results) {
    Map<String, List<RunResult>> by = new LinkedHashMap<>();
    for (RunResult r : results) {
      by.computeIfAbsent(r.planner(), k -> new ArrayList<>()).add(r);
    }
    return by;
  }
}
