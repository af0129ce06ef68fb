package org.rampa.examples.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.domain.Cluster;
import org.rampa.examples.bound.OfflineBound;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.AdmissionExperiment;
import org.rampa.examples.experiment.ExperimentResult;
import org.rampa.examples.experiment.ExperimentSummary;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.experiment.Schedulers;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.examples.sim.WorkloadSpec;
import org.rampa.json.RampaJson;
import org.rampa.strategy.StrategyOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = "Run the RAMPA online-admission experiment: every planner on the same arrivals, over a sweep of offered load.")
final class SimulateCommand implements Callable<Integer> {

  /** Bounds checked before any work: beyond them a run would not end in reasonable time or memory. */
  static final int MAX_LOADS = 100;

  static final double MAX_LOAD = 1e6;

  static final int MAX_PLANNERS = 100;
  /** Each seed is a full trace per load and planner: more than this is a typo, not an experiment. */
  static final int MAX_SEEDS = 1000;
  static final int MAX_THREADS = 256;

  /** The files a run writes into --out. */
  static final List<String> OUTPUTS = List.of("admission.csv", "admission-summary.csv", "rejections.csv", "admission.png", "admission.svg", "summary.txt");

  @Spec
  CommandSpec spec;

  @Option(names = "--preset", defaultValue = "small",
      description = "small (48 GPUs, 12 nodes), large (1000 GPUs, 250 nodes) or a cluster JSON file. Default: ${DEFAULT-VALUE}.")
  String preset;

  @Option(names = "--workload", description = "Workload mix JSON file (default: the built-in standard mix).")
  Path workload;

  @Option(names = "--planners", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL,
      description = "Planners to compare (default: all baselines and greedy RAMPA with every importance; with --full also exact RAMPA with capability)."
          + " A greedy, DP or exact RAMPA planner with +sharing appended (rampa-greedy/capability+sharing) may place services on MPS shares; the offline"
          + " bound counts whole GPUs, so such a planner may exceed it.")
  List<String> planners;

  @Mixin
  SharingMarginOption margin;

  @Option(names = "--full",
      description = "The fuller sweep: the default planners plus exact RAMPA with capability importance (unless --planners"
          + " names others), and offline bounds solved to proven optimality instead of SCIP's root-node bound (minutes, not seconds).")
  boolean full;

  @Option(names = "--loads", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "8,16,24,32,40,48",
      description = "Offered loads in Erlangs (arrival rate x mean lifetime), each in (0, 1e6], at most 100. Default: ${DEFAULT-VALUE}.")
  List<Double> loads;

  @Option(names = "--arrivals", defaultValue = "400", description = "Arrivals per load, in [1, 1000000]. Default: ${DEFAULT-VALUE}.")
  int arrivals;

  @Option(names = "--lifetime", defaultValue = "3600", description = "Mean service lifetime in seconds, in (0, 1e8]. Default: ${DEFAULT-VALUE}.")
  double lifetime;

  @Option(names = "--seed", defaultValue = "1",
      description = "First seed: seeds seed, seed+1, ... make the arrival sequences (and seed the planners). Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--seeds", defaultValue = "5",
      description = "Arrival sequences per load; results are means with 95 %% intervals over them. Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Option(names = "--threads", description = "Runs executed in parallel (default: the machine's cores). Results do not depend on it.")
  Integer threads;

  @Option(names = "--no-bound", description = "Skip the offline upper bound on admissions.")
  boolean noBound;

  @Option(names = "--trace", paramLabel = "FILE.csv",
      description = "Replay this arrival trace (arrival_s,class,lifetime_s) instead of the generated load sweep.")
  Path trace;

  @Option(names = "--time-limit", defaultValue = "PT2S", converter = IsoDuration.class, description = "Time limit per exact solve (ISO-8601), at most PT24H. Default: ${DEFAULT-VALUE}.")
  Duration timeLimit;

  @Option(names = "--out", defaultValue = "rampa-results", description = "Output folder, created if needed; checked to be writable before the run. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    if (trace != null) {
      OptionChecks.refuseUnused(spec, "with --trace (the trace gives the arrivals, their lifetimes and its one load)",
          "drop it, or drop --trace for the generated sweep", "--loads", "--arrivals", "--seeds", "--lifetime");
    }
    if (noBound && full) {
      // harmless: --full still adds its planners; only its proven bounds are dropped
      spec.commandLine().getErr().println("rampa: warning: --no-bound skips the offline bound, so --full adds its planners but proves no bound");
    }
    checkSizes();
    Cluster cluster = Presets.cluster(preset);
    WorkloadSpec mix = workload == null ? WorkloadSpec.standardMix() : RampaJson.read(workload, WorkloadSpec.class);
    StrategyOptions options = margin.plannerOptions(timeLimit, seed);
    List<String> names = planners != null ? planners : Schedulers.defaults(full);
    var settings = new AdmissionExperiment.Settings(cluster, mix.resolve(cluster), loads, arrivals, lifetime, seed, seeds, names,
        options, threads == null ? Runtime.getRuntime().availableProcessors() : threads,
        noBound ? 0 : full ? -1 : OfflineBound.ROOT_ONLY);
    ArrivalTrace replayed = trace == null ? null : ArrivalTrace.read(trace, settings.workload().classes().size());
    AdmissionExperiment experiment = new AdmissionExperiment(settings);
    OutputPaths.folder("--out", out, OUTPUTS);
    if (replayed == null) {
      stdout.printf("RAMPA admission experiment: %d GPUs on %d nodes, %d service classes, %d planners x %d loads x %d seeds"
              + " x %d arrivals (seeds %d..%d), on %d threads%n",
          cluster.gpus().size(), cluster.nodes().size(), settings.workload().classes().size(), names.size(), loads.size(), seeds,
          arrivals, seed, seed + seeds - 1, settings.threads());
    } else {
      stdout.printf("RAMPA admission experiment: %d GPUs on %d nodes, %d planners replaying %s (%d arrivals, offered load %.1f)%n",
          cluster.gpus().size(), cluster.nodes().size(), names.size(), trace, replayed.arrivals().size(), replayed.offeredLoad());
    }
    stdout.flush();
    ExperimentResult result;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("simulate").setInitialMax(experiment.progressSteps(replayed)).setUnit(" arrivals", 1)
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
        .continuousUpdate().build()) {
      result = replayed == null
          ? experiment.run(bar::step)
          : experiment.replay(replayed, replayed.offeredLoad(), bar::step);
    }
    AdmissionExperiment.printTable(result, stdout);
    List<String> types = cluster.gpuTypes().stream().map(t -> t.name()).toList();
    AdmissionExperiment.writeCsv(result, types, out.resolve("admission.csv"));
    AdmissionExperiment.writeSummaryCsv(result, out.resolve("admission-summary.csv"));
    AdmissionExperiment.writeRejections(result, out.resolve("rejections.csv"));
    AdmissionExperiment.writeChart(result, "RAMPA admission, " + cluster.gpus().size() + " GPUs", out);
    String summary = ExperimentSummary.paragraph(result);
    Files.writeString(out.resolve("summary.txt"), summary + System.lineSeparator());
    stdout.println();
    stdout.println(summary);
    stdout.printf("Wrote %s to %s%n", String.join(", ", OUTPUTS), out);
    return 0;
  }

  private void checkSizes() {
    if (arrivals < 1 || arrivals > ArrivalTrace.MAX_ARRIVALS) {
      throw Invalid.value("--arrivals", arrivals, "must lie in [1, " + ArrivalTrace.MAX_ARRIVALS + "]");
    }
    if (loads.isEmpty() || loads.size() > MAX_LOADS) {
      throw Invalid.value("--loads", loads, "must list 1 to " + MAX_LOADS + " loads");
    }
    for (double load : loads) {
      if (!(load > 0 && load <= MAX_LOAD)) {
        throw Invalid.value("--loads", load, "each load must lie in (0, " + MAX_LOAD + "] Erlangs", "--loads 8,16,24");
      }
    }
    if (seeds < 1 || seeds > MAX_SEEDS) {
      throw Invalid.value("--seeds", seeds, "must lie in [1, " + MAX_SEEDS + "]", "--seeds 5");
    }
    if (threads != null && (threads < 1 || threads > MAX_THREADS)) {
      throw Invalid.value("--threads", threads, "must lie in [1, " + MAX_THREADS + "]", "leave it out to use every core");
    }
    if (!(lifetime > 0 && lifetime <= ArrivalTrace.MAX_SECONDS)) {
      throw Invalid.value("--lifetime", lifetime, "must lie in (0, " + ArrivalTrace.MAX_SECONDS + "] seconds", "--lifetime 3600 for one hour");
    }
    if (planners != null && (planners.isEmpty() || planners.size() > MAX_PLANNERS)) {
      throw Invalid.value("--planners", planners.size() + " planners", "must list 1 to " + MAX_PLANNERS);
    }
    if (planners != null) {
      OptionChecks.requireDistinct("--planners", planners);
    }
    OptionChecks.requireDistinct("--loads", loads);
  }
}
