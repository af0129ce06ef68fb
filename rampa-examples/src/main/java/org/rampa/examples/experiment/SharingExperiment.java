package org.rampa.examples.experiment;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.rampa.domain.Cluster;
import org.rampa.domain.Invalid;
import org.rampa.examples.bound.OfflineBound;
import org.rampa.examples.bound.SharedFootprints;
import org.rampa.examples.sim.DefragPolicy;
import org.rampa.examples.sim.MigStart;
import org.rampa.examples.sim.RunResult;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.strategy.StrategyOptions;

/**
 * VastPipe experiment E4, RAMPA with sharing: the admission experiment on the same arrivals with
 * every planner holding whole GPUs only and, for every planner that can share
 * ({@link Schedulers#canShare}), once more allowed to place services on parts of GPUs, for one or
 * more workloads. Per configuration and load it reports admitted services, SLO violations (plans
 * the verifier or the commit refused, plus services the simulator's own audit found missing their
 * SLO after an admission: both must be 0) and fragmentation (free capacity no class of the workload
 * could use), each as a mean with its {@link Interval} over the seeds; gains are paired per seed,
 * geometric means with intervals in log space.
 */
public final class SharingExperiment {

  /**
   * The experiment's settings.
   *
   * @param loads offered loads (Erlangs) per workload name ("standard", "light"), in run order
   */
  public record Settings(Cluster cluster, Map<String, List<Double>> loads, int arrivals, double meanLifetimeSeconds,
      long firstSeed, int seeds, List<String> planners, StrategyOptions options, int threads, boolean withMoves, MigStart migStart,
      int defragBudget, DefragPolicy defragPolicy) {

    /** Defragmenting as the seventh session did ({@link DefragPolicy#DEFAULT}). */
    public Settings(Cluster cluster, Map<String, List<Double>> loads, int arrivals, double meanLifetimeSeconds, long firstSeed, int seeds,
        List<String> planners, StrategyOptions options, int threads, boolean withMoves, MigStart migStart, int defragBudget) {
      this(cluster, loads, arrivals, meanLifetimeSeconds, firstSeed, seeds, planners, options, threads, withMoves, migStart, defragBudget,
          DefragPolicy.DEFAULT);
    }

    /** Without defragmentation in quiet periods. */
    public Settings(Cluster cluster, Map<String, List<Double>> loads, int arrivals, double meanLifetimeSeconds, long firstSeed, int seeds,
        List<String> planners, StrategyOptions options, int threads, boolean withMoves, MigStart migStart) {
      this(cluster, loads, arrivals, meanLifetimeSeconds, firstSeed, seeds, planners, options, threads, withMoves, migStart, 0);
    }

    /** Every GPU starting unconfigured ({@link MigStart#NONE}). */
    public Settings(Cluster cluster, Map<String, List<Double>> loads, int arrivals, double meanLifetimeSeconds, long firstSeed, int seeds,
        List<String> planners, StrategyOptions options, int threads, boolean withMoves) {
      this(cluster, loads, arrivals, meanLifetimeSeconds, firstSeed, seeds, planners, options, threads, withMoves, MigStart.NONE);
    }

    /** Without the "with moves" variant. */
    public Settings(Cluster cluster, Map<String, List<Double>> loads, int arrivals, double meanLifetimeSeconds, long firstSeed, int seeds,
        List<String> planners, StrategyOptions options, int threads) {
      this(cluster, loads, arrivals, meanLifetimeSeconds, firstSeed, seeds, planners, options, threads, false);
    }

    public Settings {
      if (loads.isEmpty()) {
        throw Invalid.value("workloads", "[]", "name at least one workload", "standard, light");
      }
      loads = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(loads));
      loads.keySet().forEach(WorkloadSpec::named); // fails fast on an unknown name
      planners = List.copyOf(planners);
      Invalid.requireNonNull("migStart", migStart);
      if (defragBudget < 0 || defragBudget > org.rampa.moves.MoveProblem.MAX_BUDGET) {
        throw Invalid.value("defragBudget", defragBudget, "must lie in [0, " + org.rampa.moves.MoveProblem.MAX_BUDGET + "]",
            "0 never defragments; a quiet period's budget is a few moves");
      }
      if (defragBudget > 0 && !withMoves) {
        throw Invalid.value("defragBudget", defragBudget, "defragments the runs with moves, and there are none", "add the with-moves variant");
      }
      Invalid.requireNonNull("defragPolicy", defragPolicy);
      if (defragBudget == 0 && !defragPolicy.equals(DefragPolicy.DEFAULT)) {
        throw Invalid.value("defragPolicy", defragPolicy, "configures defragmentation, and the defragmentation budget is 0",
            "give a defragBudget of at least 1");
      }
    }

    /**
     * Every planner, then with sharing every one that can share, and with {@code withMoves} that one with moves too
     * (defragmenting in quiet periods with a {@code defragBudget}).
     */
    List<String> schedulers() {
      List<String> out = new ArrayList<>();
      for (String p : planners) {
        out.add(p);
        // a planner named with its sharing suffix already shares: no second, identical sharing run
        if (Schedulers.canShare(p) && !p.endsWith(Schedulers.SHARING_SUFFIX)) {
          out.add(p + Schedulers.SHARING_SUFFIX);
        }
        if (withMoves && (Schedulers.canShare(p) || p.endsWith(Schedulers.SHARING_SUFFIX))) {
          out.add((p.endsWith(Schedulers.SHARING_SUFFIX) ? p : p + Schedulers.SHARING_SUFFIX) + Schedulers.MOVES_SUFFIX
              + (defragBudget > 0 ? Schedulers.DEFRAG_SUFFIX + defragBudget + defragPolicy.suffix() : ""));
        }
      }
      return out;
    }

    AdmissionExperiment.Settings admission(String workload) {
      return new AdmissionExperiment.Settings(cluster, WorkloadSpec.named(workload).resolve(cluster), loads.get(workload), arrivals,
          meanLifetimeSeconds, firstSeed, seeds, schedulers(), options, threads, 0, true, migStart);
    }
  }

  /**
   * The runs of one workload and, when a planner shared GPUs, the offline bound with sharing of each
   * of its traces ({@link SharedFootprints}; empty otherwise).
   */
  public record WorkloadResult(String workload, ExperimentResult result, List<ExperimentResult.TraceBound> sharedBounds) {

    public WorkloadResult {
      sharedBounds = List.copyOf(sharedBounds);
    }

    /** Without the bound with sharing. */
    public WorkloadResult(String workload, ExperimentResult result) {
      this(workload, result, List.of());
    }

    /** The runs measured against the bound with sharing: {@link ExperimentResult}'s bound statistics over it. */
    ExperimentResult againstSharedBound() {
      return new ExperimentResult(result.runs(), sharedBounds);
    }
  }

  /**
   * Branch-and-bound nodes of each bound-with-sharing solve: the root with SCIP's cuts (a
   * deterministic limit; the result says whether it proved the optimum, else it is SCIP's dual bound).
   */
  public static final long SHARED_BOUND_NODE_LIMIT = OfflineBound.ROOT_ONLY;

  /**
   * One planner in one sharing mode at one load of one workload: means and 95 % intervals over
   * seeds. Gains are in percent, taken per seed (every configuration saw the same arrivals).
   *
   * @param planner the planner's name without {@value Schedulers#SHARING_SUFFIX}
   * @param gainOverWhole with sharing, the gain over the same planner on whole GPUs; empty without
   * @param gainOverPerformanceFirst the gain over performance-first on whole GPUs, when it ran
   * @param violations plans refused by the verifier or the commit, plus audit findings, over all seeds
   * @param moves whether the planner admitted with moves (issue 25; sharing on)
   * @param gainOverSharing with moves, the gain over the same planner with sharing alone; empty without
   * @param movesPerAdmitted with moves, moves applied per admitted service; empty without
   * @param sharedBound the offline bound with sharing of the same traces over seeds; empty when no planner shared
   * @param percentOfSharedBound admitted as a percentage of the trace's bound with sharing (geometric mean); empty without
   */
  public record Row(String workload, String planner, boolean sharing, double load, int seeds, Interval admitted,
      java.util.Optional<Interval> gainOverWhole, java.util.Optional<Interval> gainOverPerformanceFirst, Interval stranded,
      Interval free, Interval sharedPlans, int violations, boolean moves, java.util.Optional<Interval> gainOverSharing,
      java.util.Optional<Interval> movesPerAdmitted, java.util.Optional<Interval> sharedBound,
      java.util.Optional<Interval> percentOfSharedBound) {

    /** A row without the bound with sharing. */
    public Row(String workload, String planner, boolean sharing, double load, int seeds, Interval admitted,
        java.util.Optional<Interval> gainOverWhole, java.util.Optional<Interval> gainOverPerformanceFirst, Interval stranded,
        Interval free, Interval sharedPlans, int violations, boolean moves, java.util.Optional<Interval> gainOverSharing,
        java.util.Optional<Interval> movesPerAdmitted) {
      this(workload, planner, sharing, load, seeds, admitted, gainOverWhole, gainOverPerformanceFirst, stranded, free, sharedPlans,
          violations, moves, gainOverSharing, movesPerAdmitted, java.util.Optional.empty(), java.util.Optional.empty());
    }

    /** A row of a planner without moves. */
    public Row(String workload, String planner, boolean sharing, double load, int seeds, Interval admitted,
        java.util.Optional<Interval> gainOverWhole, java.util.Optional<Interval> gainOverPerformanceFirst, Interval stranded,
        Interval free, Interval sharedPlans, int violations) {
      this(workload, planner, sharing, load, seeds, admitted, gainOverWhole, gainOverPerformanceFirst, stranded, free, sharedPlans,
          violations, false, java.util.Optional.empty(), java.util.Optional.empty());
    }

    /** "rampa-greedy/scarcity, sharing on" (", sharing + moves" with moves). */
    public String label() {
      return planner + (moves ? ", sharing + moves" : sharing ? ", sharing on" : ", sharing off");
    }
  }

  private final Settings settings;
  private final Map<String, AdmissionExperiment> experiments = new LinkedHashMap<>();
  private final boolean sharedBound;

  /** Checks every setting (planner names included) before anything runs. */
  public SharingExperiment(Settings settings) {
    this.settings = settings;
    settings.loads().keySet().forEach(w -> experiments.put(w, new AdmissionExperiment(settings.admission(w))));
    this.sharedBound = settings.schedulers().stream().anyMatch(n -> Schedulers.named(n, settings.options()).sharing());
  }

  /** How many runs {@link #run} executes (the bounds with sharing, one per trace when a planner shares, not counted). */
  public int taskCount() {
    return experiments.values().stream().mapToInt(e -> e.taskCount(false)).sum();
  }

  /**
   * How many times {@link #run} tells its progress: once per arrival of every run (see
   * {@link AdmissionExperiment#progressSteps}), and a trace's arrivals when its bound with sharing is done.
   */
  public long progressSteps() {
    return experiments.values().stream().mapToLong(e -> e.progressSteps(null)).sum()
        + (sharedBound ? (long) traceCount() * settings.arrivals() : 0);
  }

  private int traceCount() {
    return settings.loads().values().stream().mapToInt(List::size).sum() * settings.seeds();
  }

  /**
   * Every planner, both modes, every load and seed of every workload, and when a planner shares the
   * bound with sharing of every trace; {@code progress} is told as each arrival is taken up.
   */
  public List<WorkloadResult> run(Runnable progress) {
    List<WorkloadResult> out = new ArrayList<>();
    experiments.forEach((w, e) -> {
      ExperimentResult result = e.run(progress);
      out.add(new WorkloadResult(w, result, sharedBound ? sharedBounds(w, e, result, progress) : List.of()));
    });
    return out;
  }

  /**
   * The bound with sharing of every trace of {@code workload}, on the settings' threads; throws
   * when a run admitted more than its trace's bound (the bound would not be a relaxation, and
   * every number against it would be wrong).
   */
  private List<ExperimentResult.TraceBound> sharedBounds(String workload, AdmissionExperiment e, ExperimentResult result, Runnable progress) {
    Cluster cluster = settings.cluster();
    // the simulator's ledger starts from an empty state (MIG layouts aside), with its overcommit
    double overcommit = org.rampa.domain.ClusterState.empty(cluster).mpsOvercommit();
    List<List<double[]>> options = new ArrayList<>();
    for (org.rampa.heuristics.importance.ServiceClass c : settings.admission(workload).workload().classes()) {
      options.add(SharedFootprints.of(c.template(), cluster, overcommit));
    }
    double[] capacity = SharedFootprints.capacity(cluster, overcommit);
    List<java.util.concurrent.Callable<ExperimentResult.TraceBound>> tasks = new ArrayList<>();
    for (double load : settings.loads().get(workload)) {
      for (int k = 0; k < settings.seeds(); k++) {
        long seed = settings.firstSeed() + k;
        tasks.add(() -> {
          var trace = e.trace(load, seed);
          var bound = new ExperimentResult.TraceBound(load, seed, OfflineBound.of(trace, options, capacity, SHARED_BOUND_NODE_LIMIT));
          trace.arrivals().forEach(a -> progress.run()); // a bound weighs like a run of its trace
          return bound;
        });
      }
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(settings.threads());
    List<ExperimentResult.TraceBound> bounds = new ArrayList<>();
    try {
      for (var f : pool.invokeAll(tasks)) {
        bounds.add(f.get());
      }
    } catch (InterruptedException x) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while computing E4's bounds with sharing", x);
    } catch (java.util.concurrent.ExecutionException x) {
      throw x.getCause() instanceof RuntimeException r ? r : new IllegalStateException(x.getCause());
    } finally {
      pool.shutdownNow();
    }
    ExperimentResult against = new ExperimentResult(result.runs(), bounds);
    for (RunResult r : result.runs()) {
      int bound = against.bound(r.offeredLoad(), r.seed()).orElseThrow().admissions();
      if (r.admitted() > bound) {
        throw new IllegalStateException(String.format(Locale.ROOT,
            "%s admitted %d services at load %.1f, seed %d (%s workload), above the offline bound with sharing %d: the bound is not a relaxation",
            r.scheduler(), r.admitted(), r.offeredLoad(), r.seed(), workload, bound));
      }
    }
    return bounds;
  }

  /** The statistics per workload, load and configuration (planner and sharing mode), in run order. */
  public static List<Row> summarise(List<WorkloadResult> results) {
    List<Row> rows = new ArrayList<>();
    for (WorkloadResult w : results) {
      ExperimentResult r = w.result();
      ExperimentResult shared = w.againstSharedBound();
      boolean hasReference = r.schedulers().contains(ExperimentSummary.PERFORMANCE_FIRST);
      for (double load : r.loads()) {
        for (String scheduler : r.schedulers()) {
          List<RunResult> runs = r.runs(scheduler, load);
          boolean sharing = runs.get(0).capacity().sharing();
          boolean moves = Schedulers.withMoves(scheduler);
          String planner = baseName(scheduler);
          // a gain is empty when its reference did not run (a sharing planner alone): nothing to compare with
          rows.add(new Row(w.workload(), planner, sharing, load, runs.size(), r.admitted(scheduler, load),
              sharing ? r.gainPercent(scheduler, planner, load) : java.util.Optional.empty(),
              hasReference ? r.gainPercent(scheduler, ExperimentSummary.PERFORMANCE_FIRST, load) : java.util.Optional.empty(),
              over(runs, x -> x.capacity().meanStrandedGpuEquivalents()), over(runs, x -> x.capacity().meanFreeGpuEquivalents()),
              sharedPlans(runs), violations(runs), moves,
              moves ? r.gainPercent(scheduler, planner + Schedulers.SHARING_SUFFIX, load) : java.util.Optional.empty(),
              moves ? java.util.Optional.of(over(runs, x -> (double) x.capacity().moves() / Math.max(1, x.admitted())))
                  : java.util.Optional.empty(),
              shared.bound(load), w.sharedBounds().isEmpty() ? java.util.Optional.empty() : shared.percentOfBound(scheduler, load)));
        }
      }
    }
    return rows;
  }

  private static String baseName(String scheduler) {
    if (Schedulers.withMoves(scheduler)) {
      String moves = Schedulers.withoutDefrag(scheduler);
      return baseName(moves.substring(0, moves.length() - Schedulers.MOVES_SUFFIX.length()));
    }
    return scheduler.endsWith(Schedulers.SHARING_SUFFIX)
        ? scheduler.substring(0, scheduler.length() - Schedulers.SHARING_SUFFIX.length())
        : scheduler;
  }

  private static Interval over(List<RunResult> runs, ToDoubleFunction<RunResult> metric) {
    return Interval.amount(runs.stream().mapToDouble(metric).toArray());
  }

  /** Shared plans per run: at most the run's arrivals, like the admissions they are part of. */
  private static Interval sharedPlans(List<RunResult> runs) {
    return Interval.amount(runs.stream().mapToDouble(x -> x.capacity().sharedPlans()).toArray(),
        runs.stream().mapToInt(RunResult::arrivals).max().orElse(0));
  }

  private static int violations(List<RunResult> runs) {
    if (!runs.stream().allMatch(r -> r.capacity().audited())) {
      throw new IllegalStateException("E4 reports audited violations, but a run was not audited");
    }
    return runs.stream().mapToInt(x -> x.violations() + x.capacity().auditFindings().size()).sum();
  }

  /** One line per workload, load and configuration. */
  public static void printTable(List<Row> rows, PrintWriter out) {
    if (rows.isEmpty()) {
      out.println("No runs: nothing to report.");
      return;
    }
    out.print("admitted, stranded and free GPUs: " + rows.get(0).admitted().label());
    java.util.Optional<Interval> gain = rows.stream().flatMap(r -> r.gainOverPerformanceFirst().or(r::gainOverWhole).stream()).findFirst();
    if (gain.isPresent()) {
      out.println("; gains, paired per seed: " + gain.get().label());
    } else {
      out.println();
      out.println("Nothing to compare: neither a planner on whole GPUs next to its sharing run nor performance-first ran, so no gain is "
          + "reported; admissions and capacity are below and in the CSV files.");
    }
    boolean moves = rows.stream().anyMatch(Row::moves);
    boolean bound = rows.stream().anyMatch(r -> r.sharedBound().isPresent());
    out.printf("%-9s %6s %-38s %5s %21s %21s %21s %5s %21s %21s %8s%s%s%n", "workload", "load", "planner", "seeds", "admitted",
        "gain vs whole %", "gain vs perf-1st", "viol", "stranded GPUs", "free GPUs", "shared",
        moves ? String.format(" %21s %21s", "gain vs sharing %", "moves/admitted") : "",
        bound ? String.format(" %21s %21s", "bound with sharing", "% of that bound") : "");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%-9s %6.1f %-38s %5d %21s %21s %21s %5d %21s %21s %8.1f%s%s%n", r.workload(), r.load(), r.label(), r.seeds(),
          r.admitted().format(1), r.gainOverWhole().map(i -> i.format(1)).orElse("-"),
          r.gainOverPerformanceFirst().map(i -> i.format(1)).orElse("-"), r.violations(), r.stranded().format(2), r.free().format(2),
          r.sharedPlans().mean(), moves ? String.format(" %21s %21s", r.gainOverSharing().map(i -> i.format(1)).orElse("-"),
              r.movesPerAdmitted().map(i -> i.format(3)).orElse("-")) : "",
          bound ? String.format(" %21s %21s", r.sharedBound().map(i -> i.format(1)).orElse("-"),
              r.percentOfSharedBound().map(i -> i.format(1)).orElse("-")) : "");
    }
  }

  /** Every run, one row each, with its workload, planner, sharing mode and seed. */
  public static void writeCsv(List<WorkloadResult> results, Path file) {
    StringBuilder b = new StringBuilder("workload,planner,sharing,offered_load,seed,arrivals,admitted,admission_ratio,"
        + "refused_by_verifier_or_commit,audited_slo_violations,shared_plans,mean_free_gpu_equivalents,mean_stranded_gpu_equivalents,"
        + "decision_p50_ms,decision_p99_ms,wall_s,moves,admitted_with_moves,migrations,recuts,mode_changes,defrag_moves,placement_changes,"
        + "offline_bound_shared,offline_bound_shared_proven,offline_bound_shared_lp\n");
    for (WorkloadResult w : results) {
      ExperimentResult shared = w.againstSharedBound();
      for (RunResult r : w.result().runs()) {
        String planner = baseName(r.scheduler());
        Map<String, Integer> kinds = r.capacity().moveKinds();
        b.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%d,%d,%d,%.5f,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.3f,%d,%d,%d,%d,%d,%d,%d", w.workload(), planner,
            Schedulers.withMoves(r.scheduler()) ? "moves" : r.capacity().sharing() ? "on" : "off", r.offeredLoad(), r.seed(), r.arrivals(), r.admitted(), r.admissionRatio(),
            r.violations(), r.capacity().auditFindings().size(), r.capacity().sharedPlans(), r.capacity().meanFreeGpuEquivalents(),
            r.capacity().meanStrandedGpuEquivalents(), r.decisionMillis(0.5), r.decisionMillis(0.99), r.wallSeconds(), r.capacity().moves(),
            r.capacity().admittedWithMoves(), kinds.getOrDefault("migrate", 0), kinds.getOrDefault("recut", 0), kinds.getOrDefault("mode", 0),
            r.capacity().defragMoves(), r.capacity().placementChanges()));
        b.append(shared.bound(r.offeredLoad(), r.seed())
            .map(x -> String.format(Locale.ROOT, ",%d,%b,%.3f", x.admissions(), x.proven(), x.lpRelaxation())).orElse(",,,")).append(String.format("%n"));
      }
    }
    TextFiles.write(file, b);
  }

  /**
   * Every run's refused arrivals broken down ({@link org.rampa.examples.sim.RefusalBreakdown}): one row per run and
   * (class, demand, smallest piece, moves to room) with its count.
   */
  public static void writeRefusalsCsv(List<WorkloadResult> results, Path file) {
    StringBuilder b = new StringBuilder("workload,planner,sharing,offered_load,seed,class,demand,smallest_piece_gpu_eq,moves_to_room,count\n");
    for (WorkloadResult w : results) {
      for (RunResult r : w.result().runs()) {
        r.capacity().refusals().forEach((key, count) -> b.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%d,%s,%d%n", w.workload(),
            baseName(r.scheduler()), Schedulers.withMoves(r.scheduler()) ? "moves" : r.capacity().sharing() ? "on" : "off",
            r.offeredLoad(), r.seed(), key.replace('|', ','), count)));
      }
    }
    TextFiles.write(file, b);
  }

  /** The summary rows: every interval as mean, low and high (empty where a gain does not apply). */
  public static void writeSummaryCsv(List<Row> rows, Path file) {
    StringBuilder b = new StringBuilder("workload,planner,sharing,offered_load,seeds");
    for (String m : List.of("admitted", "gain_vs_whole_percent", "gain_vs_performance_first_percent", "stranded_gpu_eq", "free_gpu_eq",
        "shared_plans", "gain_vs_sharing_percent", "moves_per_admitted")) {
      b.append(',').append(m).append("_mean,").append(m).append("_low,").append(m).append("_high");
    }
    b.append(",slo_violations");
    for (String m : List.of("offline_bound_shared", "percent_of_offline_bound_shared")) {
      b.append(',').append(m).append("_mean,").append(m).append("_low,").append(m).append("_high");
    }
    b.append('\n');
    for (Row r : rows) {
      b.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%d", r.workload(), r.planner(), r.moves() ? "moves" : r.sharing() ? "on" : "off",
          r.load(), r.seeds()));
      for (java.util.Optional<Interval> i : List.of(java.util.Optional.of(r.admitted()), r.gainOverWhole(), r.gainOverPerformanceFirst(),
          java.util.Optional.of(r.stranded()), java.util.Optional.of(r.free()), java.util.Optional.of(r.sharedPlans()), r.gainOverSharing(),
          r.movesPerAdmitted())) {
        b.append(i.map(x -> String.format(Locale.ROOT, ",%.4f,%.4f,%.4f", x.mean(), x.low(), x.high())).orElse(",,,"));
      }
      b.append(String.format(Locale.ROOT, ",%d", r.violations()));
      for (java.util.Optional<Interval> i : List.of(r.sharedBound(), r.percentOfSharedBound())) {
        b.append(i.map(x -> String.format(Locale.ROOT, ",%.4f,%.4f,%.4f", x.mean(), x.low(), x.high())).orElse(",,,"));
      }
      b.append('\n');
    }
    TextFiles.write(file, b);
  }

  /** The file names {@link #writeCharts} writes for {@code workload}. */
  public static List<String> chartFiles(String workload) {
    return List.of("e4-" + workload + ".png", "e4-" + workload + ".svg");
  }

  /**
   * Per workload, admitted services against offered load: one colour per planner, a solid line
   * with sharing on and a dashed one with it off, mean over seeds with the 95 % interval as error
   * bars.
   */
  public static void writeCharts(List<Row> rows, int gpus, Path directory) {
    charts(rows, gpus).forEach((workload, chart) -> Charts.save(chart, directory, "e4-" + workload));
  }

  /**
   * Per workload, admitted services against offered load: one colour per planner, sharing on as
   * circles (and a solid line where enough loads were measured), off as crosses (dashed),
   * the mean over seeds with its interval as whiskers; the seed count in the title.
   */
  public static Map<String, XYChart> charts(List<Row> rows, int gpus) {
    Map<String, XYChart> out = new LinkedHashMap<>();
    for (String workload : rows.stream().map(Row::workload).distinct().toList()) {
      List<Row> mine = rows.stream().filter(r -> r.workload().equals(workload)).toList();
      XYChart chart = new XYChartBuilder().width(1000).height(620)
          .title("E4: admitted services, sharing off and on (" + workload + " workload, " + gpus + " GPUs, "
              + Charts.seeds(mine.stream().mapToInt(Row::seeds).max().orElse(0)) + ")")
          .xAxisTitle("offered load (Erlangs: arrival rate x mean lifetime)")
          .yAxisTitle("admitted services (" + Charts.describe(mine.stream().map(Row::admitted).toList()) + ")").build();
      chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
      chart.getStyler().setMarkerSize(6);
      List<String> planners = mine.stream().map(Row::planner).distinct().toList();
      for (String label : mine.stream().map(Row::label).distinct().toList()) {
        List<Row> series = mine.stream().filter(r -> r.label().equals(label)).toList();
        XYSeries line = Charts.points(chart, label, series.stream().mapToDouble(Row::load).toArray(),
            series.stream().map(Row::admitted).toArray(Interval[]::new), Charts.colour(chart, planners.indexOf(series.get(0).planner())));
        // the planner's colour in both modes; the marker tells the mode apart (and the line style, where lines are drawn)
        line.setMarker(series.get(0).moves() ? org.knowm.xchart.style.markers.SeriesMarkers.DIAMOND
            : series.get(0).sharing() ? org.knowm.xchart.style.markers.SeriesMarkers.CIRCLE
            : org.knowm.xchart.style.markers.SeriesMarkers.CROSS);
        if (!series.get(0).sharing()) {
          line.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
        }
      }
      out.put(workload, chart);
    }
    return out;
  }
}
