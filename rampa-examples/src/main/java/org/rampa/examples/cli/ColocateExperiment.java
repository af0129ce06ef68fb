package org.rampa.examples.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.ClusterExperiment;
import org.rampa.examples.experiment.ClusterExperiment.Regime;
import org.rampa.examples.experiment.ClusterInputs;
import org.rampa.examples.experiment.ClusterMixes;
import org.rampa.examples.experiment.ClusterReport;
import org.rampa.perf.share.TierMargins;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code rampa colocate}'s experiment mode (E2, issue 13): generated demand mixes on 1000-accelerator
 * cluster presets, every planner, several seeds; prints the summary, writes the raw CSV, the
 * summary and the charts. Used when no {@code --parvagpu-scenario} is given.
 */
final class ColocateExperiment {
  static final int MAX_SEEDS = 100;
  static final int MAX_SERVICES = 1000;
  static final List<String> OUTPUTS = List.of("e2.csv", "e2-summary.csv", "e2-summary.md");
  /** The options of experiment mode, which the scenario mode does not use. */
  static final List<String> OPTIONS = List.of("--cluster", "--cluster-file", "--demand", "--from-csv", "--batch-caps", "--small-batch-shares",
      "--services", "--planners", "--seeds", "--seed", "--gpus-needed", "--threads", "--out");
  /** The options that generate mixes, which a demand file (one given mix) does not use. */
  private static final List<String> GENERATION = List.of("--batch-caps", "--small-batch-shares", "--services", "--seeds", "--seed");

  @Option(names = "--cluster", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "a100", paramLabel = "PRESET",
      description = "Experiment mode: cluster presets of 250 nodes x 4 accelerators: a100 (A100-SXM4-80GB, MIG + MPS, measured tables), "
          + "hetero (A100, H100, L4, V100 from the catalog, analytic tier), npu (modelled NPU-8C-64GB cut into templates of 1/2/4/8 cores, "
          + "analytic tier; uniform-mig refuses it, the even split and gpu-lets use templates). Default: ${DEFAULT-VALUE}.")
  List<String> clusters;

  @Option(names = "--cluster-file", paramLabel = "FILE",
      description = "Experiment mode: a CSV cluster (header gpu_type,count; catalog types, analytic tier, catalog models) instead of the presets.")
  Path clusterFile;

  @Option(names = "--demand", paramLabel = "FILE",
      description = "Experiment mode: a CSV demand (header model,rate,slo_ms,max_batch; models of the cluster's family) instead of generated mixes.")
  Path demandFile;

  @Option(names = "--from-csv", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, paramLabel = "FILE",
      description = "Experiment mode: plan nothing; redraw the summary and charts of earlier runs' e2.csv files together into --out.")
  List<Path> fromCsv;

  // the default run is one regime x 5 seeds (about a minute on 2 cores, the planners' time limits bind): five seeds
  // give an interval that means something, where more regimes with fewer seeds gave a +-12.7-standard-error t-interval
  @Option(names = "--batch-caps", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "none", paramLabel = "B",
      description = "Experiment mode: regimes where every service batches at most B (powers of two), e.g. 1,8,128 for the gain "
          + "against batch size; none for no such regime. Default: ${DEFAULT-VALUE}.")
  List<String> batchCaps;

  @Option(names = "--small-batch-shares", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "0.75", paramLabel = "F",
      description = "Experiment mode: regimes where each service is small-batch (batch <= " + ClusterMixes.SMALL_BATCH
          + ") with probability F, else batches up to " + ClusterMixes.LARGE_BATCH + "; none for no such regime. Default: ${DEFAULT-VALUE}.")
  List<String> smallShares;

  @Option(names = "--services", defaultValue = "100-150", paramLabel = "MIN-MAX",
      description = "Experiment mode: services per mix, drawn uniformly per seed (E2: 100-400). Default: ${DEFAULT-VALUE}.")
  String services;

  @Option(names = "--planners", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, paramLabel = "NAME",
      description = "Experiment mode: planners to compare (default: all of exact, heuristic, learned, exclusive, even-mps-2, even-mps-4, gpu-lets, "
          + "uniform-mig-1g, uniform-mig-3g; exclusive is always run, gains are relative to it).")
  List<String> planners;

  @Option(names = "--seeds", defaultValue = "5", paramLabel = "N", description = "Experiment mode: mixes per cluster and regime (seeds seed .. seed + N - 1); "
      + "below 5 the summaries show the seeds' range instead of a 95 %% interval. Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Experiment mode: first seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--gpus-needed", negatable = true, defaultValue = "false", fallbackValue = "true",
      description = "Experiment mode: also solve for the fewest GPUs serving the demand exclusive use serves on the whole cluster (doubles the run). Default: ${DEFAULT-VALUE}.")
  boolean gpusNeeded;

  @Option(names = "--threads", paramLabel = "N", description = "Experiment mode: mixes planned in parallel (default: the machine's cores, at most 8).")
  Integer threads;

  @Option(names = "--out", defaultValue = "colocate-results", paramLabel = "DIR",
      description = "Experiment mode: folder for e2.csv (every seed and planner), e2-summary.csv/.md and the charts (PNG, SVG). Default: ${DEFAULT-VALUE}.")
  Path out;

  int run(CommandSpec spec, Duration timeLimit, TierMargins margins) {
    PrintWriter stdout = spec.commandLine().getOut();
    if (fromCsv != null) {
      List<String> planning = new ArrayList<>(OPTIONS);
      planning.removeAll(List.of("--from-csv", "--out"));
      planning.add("--time-limit-s");
      planning.add("--margin");
      OptionChecks.refuseUnused(spec, "with --from-csv (it plans nothing)", "drop it, or drop --from-csv to plan", planning.toArray(String[]::new));
      OptionChecks.requireDistinct("--from-csv", fromCsv);
      List<ClusterExperiment.Row> rows = new ArrayList<>();
      fromCsv.forEach(f -> rows.addAll(ClusterInputs.raw(f)));
      OutputPaths.folder("--out", out, OUTPUTS);
      List<String> written = ClusterReport.write(rows, out);
      stdout.print(ClusterReport.table(ClusterReport.summarise(rows), ClusterReport.headlines(rows)));
      stdout.printf("%nWrote %s to %s from %s%n", String.join(", ", written), out, fromCsv);
      return 0;
    }
    if (clusterFile != null) {
      OptionChecks.refuseUnused(spec, "with --cluster-file (the file is the cluster)", "drop one of the two", "--cluster");
    }
    if (demandFile != null) {
      OptionChecks.refuseUnused(spec, "with --demand (the file is the one mix)", "drop it, or drop --demand for generated mixes",
          GENERATION.toArray(String[]::new));
    }
    OptionChecks.requireDistinct("--cluster", clusters);
    OptionChecks.requireDistinct("--batch-caps", batchCaps);
    OptionChecks.requireDistinct("--small-batch-shares", smallShares);
    List<Regime> regimes = new ArrayList<>();
    for (String text : batchCaps) {
      if (text.equals("none")) {
        continue;
      }
      int b;
      try {
        b = Integer.parseInt(text.trim());
      } catch (NumberFormatException e) {
        b = -1;
      }
      if (b < 1 || b > ClusterMixes.LARGE_BATCH || Integer.bitCount(b) != 1) {
        throw Invalid.value("--batch-caps", text, "each cap must be a power of two in [1, " + ClusterMixes.LARGE_BATCH + "] (or none)",
            "--batch-caps 1,8,128");
      }
      regimes.add(Regime.cap(b));
    }
    for (String text : smallShares) {
      if (text.equals("none")) {
        continue;
      }
      double f;
      try {
        f = Double.parseDouble(text.trim());
      } catch (NumberFormatException e) {
        f = Double.NaN;
      }
      if (!(f >= 0 && f <= 1)) {
        throw Invalid.value("--small-batch-shares", text, "each share must lie in [0, 1] (or none)");
      }
      regimes.add(Regime.small(f));
    }
    if (regimes.isEmpty()) {
      throw Invalid.value("--batch-caps", batchCaps, "with --small-batch-shares must give at least one regime");
    }
    int[] range = serviceRange();
    if (seeds < 1 || seeds > MAX_SEEDS) {
      throw Invalid.value("--seeds", seeds, "must lie in [1, " + MAX_SEEDS + "]");
    }
    List<String> names = planners == null ? ClusterExperiment.PLANNERS : new ArrayList<>(planners);
    OptionChecks.requireDistinct("--planners", names);
    for (String p : names) {
      if (!ClusterExperiment.PLANNERS.contains(p)) {
        throw Invalid.value("--planners", p, "is not a co-location planner", "use some of " + ClusterExperiment.PLANNERS);
      }
    }
    if (!names.contains("exclusive")) {
      names = new ArrayList<>(names);
      names.add("exclusive");
    }
    int workers = threads == null ? Math.min(8, Runtime.getRuntime().availableProcessors()) : threads;
    if (workers < 1 || workers > 64) {
      throw Invalid.value("--threads", workers, "must lie in [1, 64]");
    }
    List<ClusterMixes.Cluster> chosen = new ArrayList<>();
    if (clusterFile != null) {
      chosen.add(ClusterInputs.cluster(clusterFile));
    } else {
      for (String c : clusters) {
        chosen.add(ClusterMixes.Cluster.of(c));
      }
    }
    chosen.forEach(ClusterMixes::models); // refuses a cluster that cannot be planned before anything runs
    List<ClusterMixes.DemandLine> demand = demandFile == null ? List.of() : ClusterInputs.demand(demandFile);
    List<ClusterExperiment.Config> configs = demand.isEmpty() ? ClusterExperiment.configs(chosen, regimes, seed, seeds, range[0], range[1])
        : ClusterExperiment.configs(chosen, demand);
    if (!demand.isEmpty()) {
      // a demand file is one mix: check every model against each cluster before planning
      configs.forEach(c -> c.problem(org.rampa.colocation.ColocationObjective.MAX_SCALE));
    }
    OutputPaths.folder("--out", out, OUTPUTS);
    String what = demand.isEmpty()
        ? String.format(Locale.ROOT, "%s x seeds %d..%d, %d-%d services", regimes.stream().map(Regime::label).toList(), seed, seed + seeds - 1,
            range[0], range[1])
        : "the demand in " + demandFile + " (" + demand.size() + " services)";
    stdout.printf(Locale.ROOT, "E2: %d mixes (%s; %s), planners %s, %s s limit each, %d threads, margins %s%n", configs.size(),
        chosen.stream().map(ClusterMixes.Cluster::label).toList(), what, names, timeLimit.toNanos() / 1e9, workers, margins.byLabel());
    stdout.flush();
    long t0 = System.nanoTime();
    List<ClusterExperiment.Row> rows;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("colocate")
        .setInitialMax((long) configs.size() * ClusterExperiment.solvesPerConfig(names, gpusNeeded)).setUnit(" solves", 1)
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(System.err)).continuousUpdate().build()) {
      rows = ClusterExperiment.run(configs, names, timeLimit, gpusNeeded, margins, workers, bar::step);
    }
    List<String> written = ClusterReport.write(rows, out);
    List<ClusterReport.Summary> summaries = ClusterReport.summarise(rows);
    stdout.print(ClusterReport.table(summaries, ClusterReport.headlines(rows)));
    stdout.printf(Locale.ROOT, "%nWall time %.1f s. Wrote %s to %s%n", (System.nanoTime() - t0) / 1e9, String.join(", ", written), out);
    return 0;
  }

  private int[] serviceRange() {
    String[] parts = services.split("-", -1);
    try {
      int lo = Integer.parseInt(parts[0].trim());
      int hi = parts.length == 1 ? lo : Integer.parseInt(parts[1].trim());
      if (parts.length > 2 || lo < 1 || hi < lo || hi > MAX_SERVICES) {
        throw new NumberFormatException();
      }
      return new int[] {lo, hi};
    } catch (NumberFormatException e) {
      throw Invalid.value("--services", services, "must be N or MIN-MAX with 1 <= MIN <= MAX <= " + MAX_SERVICES, "--services 100-400");
    }
  }
}
