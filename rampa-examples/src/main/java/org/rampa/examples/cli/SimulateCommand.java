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
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = "Run the RAMPA online-admission experiment: every planner on the same arrivals, over a sweep of offered load.")
final class SimulateCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--preset", defaultValue = "small",
      description = "small (48 GPUs, 12 nodes), large (1000 GPUs, 250 nodes) or a cluster JSON file. Default: ${DEFAULT-VALUE}.")
  String preset;

  @Option(names = "--workload", description = "Workload mix JSON file (default: the built-in standard mix).")
  Path workload;

  @Option(names = "--planners", split = ",",
      description = "Planners to compare (default: all baselines and greedy RAMPA with every importance; with --full also exact RAMPA with capability).")
  List<String> planners;

  @Option(names = "--full",
      description = "The fuller sweep: the default planners plus exact RAMPA with capability importance (unless --planners"
          + " names others), and offline bounds solved to proven optimality instead of SCIP's root-node bound (minutes, not seconds).")
  boolean full;

  @Option(names = "--loads", split = ",", defaultValue = "8,16,24,32,40,48",
      description = "Offered loads in Erlangs (arrival rate x mean lifetime). Default: ${DEFAULT-VALUE}.")
  List<Double> loads;

  @Option(names = "--arrivals", defaultValue = "400", description = "Arrivals per load. Default: ${DEFAULT-VALUE}.")
  int arrivals;

  @Option(names = "--lifetime", defaultValue = "3600", description = "Mean service lifetime in seconds. Default: ${DEFAULT-VALUE}.")
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

  @Option(names = "--time-limit", defaultValue = "PT2S", description = "Time limit per exact solve (ISO-8601). Default: ${DEFAULT-VALUE}.")
  Duration timeLimit;

  @Option(names = "--out", defaultValue = "rampa-results", description = "Output folder. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    Cluster cluster = Presets.cluster(preset);
    WorkloadSpec mix = workload == null ? WorkloadSpec.standardMix() : RampaJson.read(workload, WorkloadSpec.class);
    StrategyOptions options = StrategyOptions.builder().timeLimit(timeLimit).seed(seed).build();
    List<String> names = planners != null ? planners : Schedulers.defaults(full);
    var settings = new AdmissionExperiment.Settings(cluster, mix.resolve(cluster), loads, arrivals, lifetime, seed, seeds, names,
        options, threads == null ? Runtime.getRuntime().availableProcessors() : threads,
        noBound ? 0 : full ? -1 : OfflineBound.ROOT_ONLY);
    ArrivalTrace replayed = trace == null ? null : ArrivalTrace.read(trace, settings.workload().classes().size());
    AdmissionExperiment experiment = new AdmissionExperiment(settings);
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
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("simulate").setInitialMax(experiment.taskCount(replayed != null))
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
        .continuousUpdate().build()) {
      result = replayed == null
          ? experiment.run(bar::step)
          : experiment.replay(replayed, replayed.offeredLoad(), bar::step);
    }
    AdmissionExperiment.printTable(result, stdout);
    Files.createDirectories(out);
    List<String> types = cluster.gpuTypes().stream().map(t -> t.name()).toList();
    AdmissionExperiment.writeCsv(result, types, out.resolve("admission.csv"));
    AdmissionExperiment.writeSummaryCsv(result, out.resolve("admission-summary.csv"));
    AdmissionExperiment.writeRejections(result, out.resolve("rejections.csv"));
    AdmissionExperiment.writeChart(result, "RAMPA admission, " + cluster.gpus().size() + " GPUs", out);
    String summary = ExperimentSummary.paragraph(result);
    Files.writeString(out.resolve("summary.txt"), summary + System.lineSeparator());
    stdout.println();
    stdout.println(summary);
    stdout.printf("Wrote admission.csv, admission-summary.csv, rejections.csv, admission.png, admission.svg and summary.txt to %s%n", out);
    return 0;
  }
}
