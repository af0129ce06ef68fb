package org.rampa.examples.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.domain.Cluster;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.experiment.Schedulers;
import org.rampa.examples.experiment.SharingExperiment;
import org.rampa.examples.sim.ArrivalTrace;
import org.rampa.examples.sim.DefragPolicy;
import org.rampa.examples.sim.DefragTrigger;
import org.rampa.examples.sim.MigStart;
import org.rampa.moves.MoveProblem;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.StrategyOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "vastpipe-e4", mixinStandardHelpOptions = true,
    description = "VastPipe experiment E4, RAMPA with sharing: the admission experiment with every planner holding whole GPUs only and, "
        + "where it can, allowed to place services on parts of GPUs (MPS shares), on the same arrivals. Reports admitted services, SLO "
        + "violations (verifier-checked, incumbents included) and stranded capacity, mean and 95 %% interval over seeds. "
        + "Writes e4.csv, e4-summary.csv, e4-refusals.csv (refused arrivals broken down) and a chart per workload (e4-WORKLOAD.png, .svg).")
final class VastPipeE4Command implements Callable<Integer> {

  /** The loads each built-in workload runs at unless --loads says otherwise. */
  static final Map<String, List<Double>> DEFAULT_LOADS = Map.of(
      "standard", List.of(16.0, 32.0, 48.0),
      "light", List.of(48.0, 96.0, 192.0, 384.0));

  @Spec
  CommandSpec spec;

  @Option(names = "--workloads", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "standard,light",
      description = "Built-in workloads: standard (the admission experiment's mix) and light (batch-1 CNNs, a BERT-base pass, decode steps). "
          + "Default: ${DEFAULT-VALUE}.")
  List<String> workloads;

  @Option(names = "--planners", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "performance-first,rampa-greedy/scarcity,rampa-greedy/capability",
      description = "Planners, each run on whole GPUs and, if its strategy can share (rampa-greedy, rampa-dp, rampa-exact), once more with sharing on. "
          + "Default: ${DEFAULT-VALUE}.")
  List<String> planners;

  @Option(names = "--loads", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL,
      description = "Offered loads in Erlangs for every workload, each in (0, 1e6] (default: standard 16,32,48; light 48,96,192,384).")
  List<Double> loads;

  @Option(names = "--preset", defaultValue = "small", description = "Cluster: small, large or a cluster JSON file. Default: ${DEFAULT-VALUE}.")
  String preset;

  @Option(names = "--arrivals", defaultValue = "400", description = "Arrivals per load and seed, in [1, 1000000]. Default: ${DEFAULT-VALUE}.")
  int arrivals;

  @Option(names = "--lifetime", defaultValue = "3600", description = "Mean service lifetime in seconds, in (0, 1e8]. Default: ${DEFAULT-VALUE}.")
  double lifetime;

  @Option(names = "--seed", defaultValue = "1", description = "First seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--seeds", defaultValue = "10", description = "Arrival sequences per load, in [1, 1000]. Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Option(names = "--threads", description = "Runs executed in parallel (default: the machine's cores). Results do not depend on it.")
  Integer threads;

  @Option(names = "--time-limit", defaultValue = "PT2S", converter = IsoDuration.class,
      description = "Time limit per placement decision (ISO-8601), at most PT24H. Default: ${DEFAULT-VALUE}.")
  Duration timeLimit;

  @Option(names = "--with-moves",
      description = "Also run every sharing planner with moves (issue 25): an arrival refused as the cluster stands is admitted after at most "
          + Schedulers.MOVE_BUDGET + " moves (migrations, MIG re-cuts, mode changes) found by the heuristic mover, if it finds some.")
  boolean withMoves;

  @Option(names = "--defrag-budget", defaultValue = "0", paramLabel = "N",
      description = "With --with-moves, the runs with moves also defragment the cluster for the workload's class mix in every quiet period "
          + "(after departures, before the next arrival): at most N moves of the greedy defragmenter, in [0, 16]; 0 never defragments. "
          + "Default: ${DEFAULT-VALUE}.")
  int defragBudget;

  @Option(names = "--defrag-trigger", defaultValue = "departure", paramLabel = "WHEN",
      description = "With --defrag-budget, which quiet periods are defragmented: departure (every one), refusal (only one after an "
          + "arrival was refused since the last defragmentation) or hybrid (every one, but re-cuts and mode changes only unless an arrival "
          + "was refused since the last defragmentation). Default: ${DEFAULT-VALUE}.")
  String defragTrigger;

  @Option(names = "--defrag-room", defaultValue = "alone", paramLabel = "ROOM",
      description = "With --defrag-budget, the room the defragmenter increases: alone (MPS room by the alone-test) or guarded (MPS room on a "
          + "GPU that runs services only as far as the interference guard keeps every incumbent within its SLO). Default: ${DEFAULT-VALUE}.")
  String defragRoom;

  @Option(names = "--defrag-forecast", defaultValue = "pieces", paramLabel = "DEMAND",
      description = "With --defrag-budget, the forecast demand the defragmenter serves: pieces (each class's smallest piece alone on a "
          + "GPU) or pipelines (also the classes no GPU serves alone, on whole free GPUs). Default: ${DEFAULT-VALUE}.")
  String defragForecast;

  @Option(names = "--mig-layouts", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = MigStart.NONE_NAME,
      paramLabel = "POLICY",
      description = "MIG layouts every run starts from: none; mig-heavy (every A100/H100 GPU in 3g+2g+1g+1g); or per GPU type "
          + "TYPE=PROFILE@START+PROFILE@START...[:FRACTION], the layout on that fraction of the type's GPUs, each layout checked against "
          + "the type's MIG geometry. Default: ${DEFAULT-VALUE}.")
  List<String> migLayouts;

  @Mixin
  SharingMarginOption margin;

  @Option(names = "--out", defaultValue = "rampa-results/e4", paramLabel = "DIR",
      description = "Output folder, created if needed. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    checkSizes();
    Cluster cluster = Presets.cluster(preset);
    Map<String, List<Double>> byWorkload = new LinkedHashMap<>();
    for (String w : workloads) {
      if (!DEFAULT_LOADS.containsKey(w)) {
        throw Invalid.value("--workloads", w, "is not a built-in workload", "use standard, light or both");
      }
      byWorkload.put(w, loads != null ? loads : DEFAULT_LOADS.get(w));
    }
    MigStart migStart = MigStart.parse("--mig-layouts", migLayouts, cluster);
    if (defragBudget < 0 || defragBudget > MoveProblem.MAX_BUDGET) {
      throw Invalid.value("--defrag-budget", defragBudget, "must lie in [0, " + MoveProblem.MAX_BUDGET + "]", "0 never defragments; try 2");
    }
    if (defragBudget > 0 && !withMoves) {
      throw Invalid.value("--defrag-budget", defragBudget, "defragments the runs with moves, and there are none", "add --with-moves");
    }
    DefragTrigger trigger = java.util.Arrays.stream(DefragTrigger.values()).filter(t -> t.cliName().equals(defragTrigger)).findFirst()
        .orElseThrow(() -> Invalid.value("--defrag-trigger", defragTrigger, "is not a trigger", "departure, refusal or hybrid"));
    if (!defragForecast.equals("pieces") && !defragForecast.equals("pipelines")) {
      throw Invalid.value("--defrag-forecast", defragForecast, "is not a forecast demand", "pieces or pipelines");
    }
    if (!defragRoom.equals("alone") && !defragRoom.equals("guarded")) {
      throw Invalid.value("--defrag-room", defragRoom, "is not a room measure", "alone or guarded");
    }
    DefragPolicy policy = new DefragPolicy(trigger, defragForecast.equals("pipelines"), defragRoom.equals("guarded"));
    if (defragBudget == 0 && !policy.equals(DefragPolicy.DEFAULT)) {
      throw Invalid.value("--defrag-budget", defragBudget, "is 0, and --defrag-trigger, --defrag-forecast or --defrag-room configure defragmentation",
          "add --defrag-budget 2");
    }
    TierMargins margins = margin.margins();
    StrategyOptions options = margin.plannerOptions(timeLimit, seed);
    SharingExperiment experiment;
    try {
      experiment = new SharingExperiment(new SharingExperiment.Settings(cluster, byWorkload, arrivals, lifetime, seed, seeds, planners,
          options, threads == null ? Runtime.getRuntime().availableProcessors() : threads, withMoves, migStart, defragBudget, policy));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--planners: " + e.getMessage(), e);
    }
    List<String> outputs = new ArrayList<>(List.of("e4.csv", "e4-summary.csv", "e4-refusals.csv"));
    byWorkload.keySet().forEach(w -> outputs.addAll(SharingExperiment.chartFiles(w)));
    OutputPaths.folder("--out", out, outputs);
    // the margin is named only when there is one, so that a margin-free run prints the header E4 printed before the margins
    stdout.printf("VastPipe E4: %d GPUs on %d nodes, loads per workload %s, planners %s on whole GPUs and, where they can, with "
            + "sharing%s; %d seeds x %d arrivals (seeds %d..%d); MIG layouts at the start: %s%n",
        cluster.gpus().size(), cluster.nodes().size(), byWorkload, planners,
        margins.isNone() ? "" : " (planning margins " + margin.margin + ": " + margins.byLabel() + ")", seeds, arrivals, seed, seed + seeds - 1, migStart);
    stdout.flush();
    long t0 = System.nanoTime();
    List<SharingExperiment.WorkloadResult> results;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("e4").setInitialMax(experiment.progressSteps()).setUnit(" arrivals", 1)
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
        .continuousUpdate().build()) {
      results = experiment.run(bar::step);
    }
    List<SharingExperiment.Row> rows = SharingExperiment.summarise(results);
    SharingExperiment.printTable(rows, stdout);
    SharingExperiment.writeCsv(results, out.resolve("e4.csv"));
    SharingExperiment.writeSummaryCsv(rows, out.resolve("e4-summary.csv"));
    SharingExperiment.writeRefusalsCsv(results, out.resolve("e4-refusals.csv"));
    SharingExperiment.writeCharts(rows, cluster.gpus().size(), out);
    stdout.printf("%d runs in %.1f s. Wrote %s to %s%n", experiment.taskCount(), (System.nanoTime() - t0) / 1e9, String.join(", ", outputs), out);
    return 0;
  }

  private void checkSizes() {
    if (arrivals < 1 || arrivals > ArrivalTrace.MAX_ARRIVALS) {
      throw Invalid.value("--arrivals", arrivals, "must lie in [1, " + ArrivalTrace.MAX_ARRIVALS + "]");
    }
    if (loads != null) {
      if (loads.isEmpty() || loads.size() > SimulateCommand.MAX_LOADS) {
        throw Invalid.value("--loads", loads, "must list 1 to " + SimulateCommand.MAX_LOADS + " loads");
      }
      for (double load : loads) {
        if (!(load > 0 && load <= SimulateCommand.MAX_LOAD)) {
          throw Invalid.value("--loads", load, "each load must lie in (0, " + SimulateCommand.MAX_LOAD + "] Erlangs", "--loads 48,96");
        }
      }
    }
    if (seeds < 1 || seeds > SimulateCommand.MAX_SEEDS) {
      throw Invalid.value("--seeds", seeds, "must lie in [1, " + SimulateCommand.MAX_SEEDS + "]", "--seeds 10");
    }
    if (threads != null && (threads < 1 || threads > SimulateCommand.MAX_THREADS)) {
      throw Invalid.value("--threads", threads, "must lie in [1, " + SimulateCommand.MAX_THREADS + "]", "leave it out to use every core");
    }
    if (!(lifetime > 0 && lifetime <= ArrivalTrace.MAX_SECONDS)) {
      throw Invalid.value("--lifetime", lifetime, "must lie in (0, " + ArrivalTrace.MAX_SECONDS + "] seconds", "--lifetime 3600 for one hour");
    }
    if (planners.isEmpty() || planners.size() > SimulateCommand.MAX_PLANNERS) {
      throw Invalid.value("--planners", planners.size() + " planners", "must list 1 to " + SimulateCommand.MAX_PLANNERS);
    }
    OptionChecks.requireDistinct("--planners", planners);
    OptionChecks.requireDistinct("--workloads", workloads);
    if (loads != null) {
      OptionChecks.requireDistinct("--loads", loads);
    }
    if (workloads.isEmpty()) {
      throw Invalid.value("--workloads", "[]", "name at least one workload", "standard, light");
    }
  }
}
