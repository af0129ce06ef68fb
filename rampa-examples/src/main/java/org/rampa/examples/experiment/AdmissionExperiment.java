package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.rampa.domain.Cluster;
import org.rampa.domain.Invalid;
import org.rampa.examples.bound.GpuCountOptions;
import org.rampa.examples.bound.OfflineBound;
import org.rampa.examples.experiment.ExperimentResult.TraceBound;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.examples.sim.MigStart;
import org.rampa.examples.sim.RunResult;
import org.rampa.examples.sim.Simulator;
import org.rampa.examples.sim.StrandedCapacity;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.strategy.ImmutableStrategyOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The RAMPA online-admission experiment (docs/SPEC.md section 8.1): at every offered load and for every
 * seed, every scheduler sees the same generated arrival sequence, and the offline bound says how
 * many of those arrivals any scheduler could have admitted at most.
 *
 * <p>Offered load is in Erlangs: arrival rate × mean lifetime, the mean number of services that
 * would be running if all were admitted. Seed {@code s} makes the trace and seeds the schedulers'
 * own randomness, so a run depends on its (scheduler, load, seed) alone: the runs are independent
 * and execute in parallel, and the results, collected in a fixed order, are the same whatever the
 * number of threads (time-limited exact solves aside, whose outcome depends on machine speed).
 */
public final class AdmissionExperiment {

  /**
   * The experiment's settings.
   *
   * @param seeds seeds {@code firstSeed, firstSeed + 1, ...}: this many traces per load
   * @param threads runs executed at once
   * @param boundNodeLimit branch-and-bound nodes of each offline-bound solve ({@link OfflineBound#ROOT_ONLY},
   *     -1 until proven optimal); 0 skips the bound
   * @param measureSharing whether every run also audits every admission and samples, at every
   *     arrival, the free capacity no class could use ({@link StrandedCapacity}): experiment E4's
   *     measurements; runs of schedulers that share GPUs are audited anyway
   * @param migStart the MIG layouts every run starts from ({@link MigStart#NONE}: every GPU unconfigured)
   */
  public record Settings(Cluster cluster, WorkloadForecast workload, List<Double> offeredLoads, int arrivalsPerLoad,
      double meanLifetimeSeconds, long firstSeed, int seeds, List<String> schedulers, StrategyOptions options, int threads,
      long boundNodeLimit, boolean measureSharing, MigStart migStart) {

    /** Every GPU starting unconfigured. */
    public Settings(Cluster cluster, WorkloadForecast workload, List<Double> offeredLoads, int arrivalsPerLoad,
        double meanLifetimeSeconds, long firstSeed, int seeds, List<String> schedulers, StrategyOptions options, int threads,
        long boundNodeLimit, boolean measureSharing) {
      this(cluster, workload, offeredLoads, arrivalsPerLoad, meanLifetimeSeconds, firstSeed, seeds, schedulers, options, threads,
          boundNodeLimit, measureSharing, MigStart.NONE);
    }

    /** Without experiment E4's measurements: the admission experiment as it always ran. */
    public Settings(Cluster cluster, WorkloadForecast workload, List<Double> offeredLoads, int arrivalsPerLoad,
        double meanLifetimeSeconds, long firstSeed, int seeds, List<String> schedulers, StrategyOptions options, int threads,
        long boundNodeLimit) {
      this(cluster, workload, offeredLoads, arrivalsPerLoad, meanLifetimeSeconds, firstSeed, seeds, schedulers, options, threads,
          boundNodeLimit, false);
    }

    public Settings {
      offeredLoads = List.copyOf(offeredLoads);
      schedulers = List.copyOf(schedulers);
      Invalid.requireNonNull("migStart", migStart);
      if (seeds < 1) {
        throw Invalid.value("seeds", seeds, "must be >= 1", "use 1 for a single trace per load");
      }
      if (threads < 1) {
        throw Invalid.value("threads", threads, "must be >= 1");
      }
      schedulers.forEach(name -> Schedulers.named(name, options)); // fails fast on an unknown name or one that cannot share
    }
  }

  private final Settings settings;
  private final Optional<StrandedCapacity> stranded;

  public AdmissionExperiment(Settings settings) {
    this.settings = settings;
    this.stranded = settings.measureSharing()
        ? Optional.of(new StrandedCapacity(settings.cluster(), settings.workload()))
        : Optional.empty();
  }

  /** How many tasks (runs and bounds) {@link #run} executes, or {@link #replay} when {@code replaying}. */
  public int taskCount(boolean replaying) {
    int perTrace = settings.schedulers().size() + (computesBound() ? 1 : 0);
    return replaying ? perTrace : settings.offeredLoads().size() * settings.seeds() * perTrace;
  }

  /**
   * How many times {@link #run} tells its progress: once per arrival of every run, and as many times
   * as its trace has arrivals when a trace's bound is done; {@code replayed} (or null) as for {@link #taskCount}.
   */
  public long progressSteps(ArrivalTrace replayed) {
    return (long) taskCount(replayed != null) * (replayed == null ? settings.arrivalsPerLoad() : replayed.arrivals().size());
  }

  /**
   * Runs every scheduler at every load for every seed; {@code progress} is told as each arrival of
   * each run is taken up (and a bound's worth of arrivals when a bound is done), from any thread:
   * {@link #progressSteps} times in all.
   */
  public ExperimentResult run(Runnable progress) {
    List<Callable<RunResult>> runs = new ArrayList<>();
    List<Callable<TraceBound>> bounds = new ArrayList<>();
    List<List<int[]>> options = computesBound() ? options() : List.of();
    for (double load : settings.offeredLoads()) {
      for (int k = 0; k < settings.seeds(); k++) {
        long seed = settings.firstSeed() + k;
        addTasks(trace(load, seed), load, seed, options, runs, bounds, progress);
      }
    }
    return execute(runs, bounds);
  }

  /** The arrivals {@link #run} gives every scheduler at {@code load} for {@code seed}. */
  public ArrivalTrace trace(double load, long seed) {
    return ArrivalTrace.poisson(settings.workload(), load / settings.meanLifetimeSeconds(), settings.meanLifetimeSeconds(),
        settings.arrivalsPerLoad(), seed);
  }

  /** Runs every scheduler on one given trace, whose offered load is {@code load}, with the options' seed. */
  public ExperimentResult replay(ArrivalTrace trace, double load, Runnable progress) {
    List<Callable<RunResult>> runs = new ArrayList<>();
    List<Callable<TraceBound>> bounds = new ArrayList<>();
    addTasks(trace, load, settings.options().seed(), computesBound() ? options() : List.of(), runs, bounds, progress);
    return execute(runs, bounds);
  }

  private boolean computesBound() {
    return settings.boundNodeLimit() != 0;
  }

  /** The minimal GPU vectors of every class, indexed like the workload's classes. */
  private List<List<int[]>> options() {
    List<List<int[]>> options = new ArrayList<>();
    for (ServiceClass c : settings.workload().classes()) {
      options.add(GpuCountOptions.of(c.template(), settings.cluster()));
    }
    return options;
  }

  private void addTasks(ArrivalTrace trace, double load, long seed, List<List<int[]>> options,
      List<Callable<RunResult>> runs, List<Callable<TraceBound>> bounds, Runnable progress) {
    Simulator simulator = new Simulator(settings.cluster(), settings.workload(), stranded, settings.migStart());
    StrategyOptions seeded = ImmutableStrategyOptions.copyOf(settings.options()).withSeed(seed);
    for (String name : settings.schedulers()) {
      var spec = Schedulers.named(name, seeded);
      runs.add(() -> simulator.run(spec, trace, load, seed, progress));
    }
    if (computesBound()) {
      int[] capacity = GpuCountOptions.capacity(settings.cluster());
      bounds.add(() -> {
        TraceBound bound = new TraceBound(load, seed, OfflineBound.of(trace, options, capacity, settings.boundNodeLimit()));
        for (int i = 0; i < trace.arrivals().size(); i++) {
          progress.run(); // a bound weighs like a run of its trace
        }
        return bound;
      });
    }
  }

  /**
   * Executes every task on {@code settings.threads()} threads, the slow ones (exact solves and
   * bounds) submitted first so no core idles at the end, and collects the results in task order.
   */
  private ExperimentResult execute(List<Callable<RunResult>> runs, List<Callable<TraceBound>> bounds) {
    ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), r -> {
      Thread t = new Thread(r, "rampa-experiment");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<RunResult>> runFutures = new ArrayList<>(Collections.nCopies(runs.size(), null));
      int perTrace = settings.schedulers().size();
      for (int i = 0; i < runs.size(); i++) {
        if (settings.schedulers().get(i % perTrace).startsWith("rampa-exact")) {
          runFutures.set(i, pool.submit(runs.get(i)));
        }
      }
      List<Future<TraceBound>> boundFutures = new ArrayList<>();
      for (Callable<TraceBound> b : bounds) {
        boundFutures.add(pool.submit(b));
      }
      for (int i = 0; i < runs.size(); i++) {
        if (runFutures.get(i) == null) {
          runFutures.set(i, pool.submit(runs.get(i)));
        }
      }
      List<RunResult> runResults = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        runResults.add(await(runFutures.get(i)));
      }
      List<TraceBound> boundResults = new ArrayList<>();
      for (Future<TraceBound> f : boundFutures) {
        boundResults.add(await(f));
      }
      ExperimentResult result = new ExperimentResult(runResults, boundResults);
      requireWithinBound(result);
      return result;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * No scheduler on whole GPUs may admit more than the offline bound of its trace; one that does
   * means the bound is not a relaxation, and every number reported against it would be wrong. The
   * bound counts whole GPUs, so schedulers that share GPUs may exceed it.
   */
  private static void requireWithinBound(ExperimentResult result) {
    for (RunResult r : result.runs()) {
      if (r.capacity().sharing()) {
        continue;
      }
      result.bound(r.offeredLoad(), r.seed()).ifPresent(b -> {
        if (r.admitted() > b.admissions()) {
          throw new IllegalStateException(String.format(Locale.ROOT,
              "%s admitted %d services at load %.1f, seed %d, above the offline bound %d: the bound is not a relaxation",
              r.scheduler(), r.admitted(), r.offeredLoad(), r.seed(), b.admissions()));
        }
      });
    }
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the experiment's runs", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * One line per scheduler and load: admitted services (mean and its interval over seeds), that as
   * a percentage of the offline bound (geometric mean and its interval in log space), SLO
   * violations (all seeds), decision time quantiles (all seeds' decisions); then the bound itself
   * per load. The first lines say what the intervals are.
   */
  public static void printTable(ExperimentResult result, PrintWriter out) {
    if (result.runs().isEmpty()) {
      out.println("No runs: nothing to report.");
      return;
    }
    String planner0 = result.schedulers().get(0);
    double load0 = result.loads().get(0);
    out.println("admitted: " + result.admitted(planner0, load0).label());
    result.percentOfBound(planner0, load0).ifPresent(i -> out.println("% of bound: " + i.label()));
    out.printf("%-36s %6s %5s %8s %21s %21s %5s %9s %9s%n", "planner", "load", "seeds", "arrivals", "admitted", "% of bound",
        "viol", "p50 ms", "p99 ms");
    for (double load : result.loads()) {
      for (String name : result.schedulers()) {
        List<RunResult> runs = result.runs(name, load);
        long[] decisions = runs.stream().flatMapToLong(r -> java.util.Arrays.stream(r.decisionNanos())).toArray();
        out.printf(Locale.ROOT, "%-36s %6.1f %5d %8d %21s %21s %5d %9.3f %9.3f%n", name, load, runs.size(),
            runs.get(0).arrivals(), result.admitted(name, load).format(1),
            result.percentOfBound(name, load).map(i -> i.format(1)).orElse("-"),
            runs.stream().mapToInt(RunResult::violations).sum(), RunResult.quantileMillis(decisions, 0.5),
            RunResult.quantileMillis(decisions, 0.99));
      }
      Optional<Interval> bound = result.bound(load);
      if (bound.isPresent()) {
        long unproven = result.bounds().stream().filter(b -> b.load() == load && !b.bound().proven()).count();
        double lp = result.bounds().stream().filter(b -> b.load() == load).mapToDouble(b -> b.bound().lpRelaxation()).average()
            .orElse(0);
        out.printf(Locale.ROOT, "%-36s %6.1f %5d %8s %21s %21s   (LP relaxation %.1f%s)%n", "offline bound", load, bound.get().n(), "",
            bound.get().format(1), "100.0", lp, unproven == 0 ? "" : "; " + unproven + " not proven optimal: dual bound");
      }
    }
  }

  /** Every metric of every run, one row each, with the run's seed and the offline bound of its trace. */
  public static void writeCsv(ExperimentResult result, List<String> types, Path file) {
    StringBuilder b = new StringBuilder("planner,offered_load,seed,arrivals,admitted,admission_ratio,offline_bound,"
        + "lp_relaxation_bound,percent_of_bound,slo_violations,mean_free_gpus_per_node,decision_p50_ms,decision_p99_ms,wall_s,statuses");
    for (String t : types) {
      b.append(",gpu_hours_").append(t).append(",utilisation_").append(t).append(",free_at_rejection_").append(t);
    }
    b.append('\n');
    for (RunResult r : result.runs()) {
      Optional<OfflineBound.Result> bound = result.bound(r.offeredLoad(), r.seed());
      b.append(String.format(Locale.ROOT, "%s,%.3f,%d,%d,%d,%.5f,%s,%s,%s,%d,%.4f,%.4f,%.4f,%.3f,\"%s\"", r.scheduler(),
          r.offeredLoad(), r.seed(), r.arrivals(), r.admitted(), r.admissionRatio(),
          bound.map(x -> Integer.toString(x.admissions())).orElse(""),
          bound.map(x -> String.format(Locale.ROOT, "%.3f", x.lpRelaxation())).orElse(""),
          bound.map(x -> String.format(Locale.ROOT, "%.3f", x.admissions() == 0 ? 100.0 : 100.0 * r.admitted() / x.admissions()))
              .orElse(""),
          r.violations(), r.meanFreeGpusPerNode(), r.decisionMillis(0.5), r.decisionMillis(0.99), r.wallSeconds(), r.statuses()));
      for (String t : types) {
        b.append(String.format(Locale.ROOT, ",%.4f,%.5f,%.3f", r.gpuHoursByType().getOrDefault(t, 0.0),
            r.utilisationByType().getOrDefault(t, 0.0), r.freeGpusAtRejection().getOrDefault(t, 0.0)));
      }
      b.append('\n');
    }
    TextFiles.write(file, b);
  }

  /**
   * The statistics over seeds, one row per scheduler and load (and one per load for the bound):
   * admitted services (mean, interval), their percentage of the bound and the gain over
   * performance-first, paired per seed (geometric mean, interval in log space); the column
   * {@code interval} says which kind of interval the row's columns hold (a range below 5 seeds).
   */
  public static void writeSummaryCsv(ExperimentResult result, Path file) {
    StringBuilder b = new StringBuilder("planner,offered_load,seeds,interval,admitted_mean,admitted_low,admitted_high,"
        + "percent_of_bound_geomean,percent_of_bound_low,percent_of_bound_high,gain_vs_performance_first_geomean,"
        + "gain_vs_performance_first_low,gain_vs_performance_first_high\n");
    boolean hasReference = result.schedulers().contains(ExperimentSummary.PERFORMANCE_FIRST);
    for (double load : result.loads()) {
      for (String name : result.schedulers()) {
        Interval admitted = result.admitted(name, load);
        b.append(String.format(Locale.ROOT, "%s,%.3f,%d,%s,%s,%s,%s%n", name, load, result.runs(name, load).size(),
            admitted.n() < Interval.MIN_SEEDS_FOR_INTERVAL ? "range" : "95%", triple(Optional.of(admitted)),
            triple(result.percentOfBound(name, load)),
            triple(hasReference ? result.gainPercent(name, ExperimentSummary.PERFORMANCE_FIRST, load) : Optional.empty())));
      }
      Optional<Interval> bound = result.bound(load);
      if (bound.isPresent()) {
        b.append(String.format(Locale.ROOT, "offline-bound,%.3f,%d,%s,%s,,,,,,%n", load, bound.get().n(),
            bound.get().n() < Interval.MIN_SEEDS_FOR_INTERVAL ? "range" : "95%", triple(bound)));
      }
    }
    TextFiles.write(file, b);
  }

  private static String triple(Optional<Interval> interval) {
    return interval.map(i -> String.format(Locale.ROOT, "%.4f,%.4f,%.4f", i.mean(), i.low(), i.high())).orElse(",,");
  }

  /** Why arrivals were rejected: one row per planner, load, seed and reason, with its count. */
  public static void writeRejections(ExperimentResult result, Path file) {
    StringBuilder b = new StringBuilder("planner,offered_load,seed,count,reason\n");
    for (RunResult r : result.runs()) {
      r.rejectionReasons().forEach((reason, count) -> b.append(String.format(Locale.ROOT, "%s,%.3f,%d,%d,\"%s\"%n",
          r.scheduler(), r.offeredLoad(), r.seed(), count, reason.replace("\"", "'"))));
    }
    TextFiles.write(file, b);
  }

  /** The admission chart, as admission.png and admission.svg in {@code directory}. */
  public static void writeChart(ExperimentResult result, String title, Path directory) {
    AdmissionChart.write(result, title, directory);
  }
}
