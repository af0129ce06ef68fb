package org.rampa.examples.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.Interval;
import org.rampa.examples.experiment.RobustnessChart;
import org.rampa.examples.experiment.RobustnessExperiment;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.solver.colocation.PatternColocationPlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "vastpipe-e3", mixinStandardHelpOptions = true,
    description = "VastPipe experiment E3 (robustness): seeded demand mixes on A100-80GBs (catalog models on analytic share times with "
        + "linear interference gamma = 0.05, or ParvaGPU's measured tables; ParvaGPU's SLO rule; fewest GPUs or largest scale) planned by each planner with "
        + "a safety margin, every plan replayed under perturbed truths (the share law's A and C x [0.8, 1.2] per model and placement kind, interference alpha - 1 x [0.9, 1.1] "
        + "per service, gamma x 2) and judged by the co-location verifier's rules. Writes e3-plans.csv, e3-replays.csv, e3-summary.csv and "
        + "PNG/SVG charts.")
final class VastPipeE3Command implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for the CSV files and the charts (created if missing).")
  Path out;

  @Option(names = "--seeds", defaultValue = "10", paramLabel = "N", description = "Seeds (demand mixes with their truths), 1..1000. Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Option(names = "--first-seed", defaultValue = "1", paramLabel = "SEED", description = "The first seed (>= 0). Default: ${DEFAULT-VALUE}.")
  long firstSeed;

  @Option(names = "--draws", defaultValue = "20", paramLabel = "N",
      description = "Perturbed truths per seed and plan, 1..1000 (gamma x 2 alone draws nothing and has one). Default: ${DEFAULT-VALUE}.")
  int draws;

  @Option(names = "--margins", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "0,5,10,15,20", paramLabel = "PERCENT",
      description = "Safety margins in percent, each in [0, 100); with --margin-kind tiers, percent of each tier's default margin, in [0, 1000] "
          + "(0,100: none against the defaults). Default: ${DEFAULT-VALUE}.")
  List<Double> margins;

  @Option(names = "--margin-kind", defaultValue = "times", paramLabel = "KIND",
      description = "times: plan with every batch time x (1 + m) (latency and throughput); slo: plan with the SLO rule x (1 - m) (latency only); "
          + "tiers: plan with each time x (1 + m x the default margin of the tier that answered it, from that tier's measured error). "
          + "Default: ${DEFAULT-VALUE}.")
  String marginKind;

  @Option(names = "--family", defaultValue = "analytic", paramLabel = "FAMILY",
      description = "analytic: catalog models on the analytic share-time tier (MIG and MPS); parvagpu: ParvaGPU's measured models and "
          + "tables (MIG only, laws fitted through real measurements). Default: ${DEFAULT-VALUE}.")
  String family;

  @Option(names = "--objective", defaultValue = "min-gpus", paramLabel = "GOAL",
      description = "min-gpus: the fewest GPUs for the whole demand; max-scale: the largest demand scale on --gpus GPUs. Default: ${DEFAULT-VALUE}.")
  String objective;

  @Option(names = "--gpus", paramLabel = "N",
      description = "A100-80GBs in the cluster, 1..100000 (default: 1000 for min-gpus, 16 for max-scale).")
  Integer gpus;

  @Option(names = "--planners", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, paramLabel = "NAME",
      description = "Co-location planners: exact, learned and the heuristics and baselines of colocate. Default: heuristic, exact, exclusive, "
          + "even-mps-2, gpu-lets (analytic); heuristic, exact, exclusive, uniform-mig-1g, uniform-mig-3g (parvagpu).")
  List<String> planners;

  @Option(names = "--time-limit-s", defaultValue = "10", paramLabel = "SECONDS", description = "Time limit of each planner call (0 < s <= 600). Default: ${DEFAULT-VALUE}.")
  double timeLimitSeconds;

  @Option(names = "--threads", paramLabel = "N", description = "Planner calls run in parallel, 1..256 (default: the machine's cores). Results do not depend on it.")
  Integer threads;

  static final List<String> CSV = List.of("e3-plans.csv", "e3-replays.csv", "e3-summary.csv");

  static List<String> outputs(ColocationObjective goal) {
    List<String> all = new ArrayList<>(CSV);
    all.addAll(RobustnessChart.files(goal));
    return all;
  }

  @Override
  public Integer call() {
    if (seeds < 1 || seeds > 1000) {
      throw Invalid.value("--seeds", seeds, "must lie in [1, 1000]");
    }
    if (firstSeed < 0) {
      throw Invalid.value("--first-seed", firstSeed, "must be >= 0");
    }
    if (draws < 1 || draws > 1000) {
      throw Invalid.value("--draws", draws, "must lie in [1, 1000]");
    }
    RobustnessExperiment.MarginKind kind = RobustnessExperiment.MarginKind.parse("--margin-kind", marginKind);
    List<Double> fractions = new ArrayList<>();
    for (double m : margins) {
      if (!(m >= 0 && m <= 100 * kind.largest()) || (m == 100 * kind.largest() && kind != RobustnessExperiment.MarginKind.TIERS)) {
        throw Invalid.value("--margins", m, "every margin must lie in [0, " + (kind == RobustnessExperiment.MarginKind.TIERS ? "1000]" : "100)")
            + " percent for --margin-kind " + kind.label(), "e.g. --margins 0,5,10,20, or 0,100 with --margin-kind tiers");
      }
      fractions.add(m / 100);
    }
    RobustnessExperiment.Family mixes = RobustnessExperiment.Family.parse("--family", family);
    ColocationObjective goal = switch (objective) {
      case "min-gpus" -> ColocationObjective.MIN_GPUS;
      case "max-scale" -> ColocationObjective.MAX_SCALE;
      default -> throw Invalid.value("--objective", objective, "is not an E3 objective", "use min-gpus or max-scale");
    };
    if (gpus != null && (gpus < 1 || gpus > 100_000)) {
      throw Invalid.value("--gpus", gpus, "must lie in [1, 100000]");
    }
    int clusterGpus = gpus != null ? gpus : goal == ColocationObjective.MIN_GPUS ? 1000 : 16;
    Map<String, Supplier<ColocationPlanner>> known = new LinkedHashMap<>();
    known.put("exact", () -> VerifiedColocationPlanner.of(new PatternColocationPlanner(ColocationPlanners.named("heuristic"))));
    for (String name : ColocationPlanners.NAMES) {
      known.put(name, () -> ColocationPlanners.named(name));
    }
    // a planner for every objective since issue 24: the fewest GPUs as well as the largest scale
    known.put(ColocationPlanners.LEARNED, () -> ColocationPlanners.named(ColocationPlanners.LEARNED));
    List<String> chosen = planners == null ? mixes.defaultPlanners() : planners;
    OptionChecks.requireDistinct("--planners", chosen);
    for (String p : chosen) {
      if (!known.containsKey(p)) {
        throw Invalid.value("--planners", p, "is not a co-location planner", "use some of " + known.keySet());
      }
    }
    OptionChecks.requireDistinct("--margins", margins);
    Duration limit = OptionChecks.seconds("--time-limit-s", timeLimitSeconds, 600);
    if (threads != null && (threads < 1 || threads > SimulateCommand.MAX_THREADS)) {
      throw Invalid.value("--threads", threads, "must lie in [1, " + SimulateCommand.MAX_THREADS + "]", "leave it out to use every core");
    }
    RobustnessExperiment.Settings settings = new RobustnessExperiment.Settings(mixes, goal, clusterGpus, firstSeed, seeds, draws, fractions, kind, chosen,
        limit, threads == null ? Runtime.getRuntime().availableProcessors() : threads);
    RobustnessExperiment experiment = new RobustnessExperiment(settings, known);
    OutputPaths.folder("--out", out, outputs(goal));
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf("VastPipe E3 (%s mixes, %s on %d GPUs): %d seeds (%d..%d) x %d planners x %d margins (%s), %d perturbed truths per plan, on %d threads%n",
        mixes.label(), objective, clusterGpus, seeds, firstSeed, firstSeed + seeds - 1, chosen.size(), settings.margins().size(), kind.label(), draws, settings.threads());
    stdout.flush();
    long t0 = System.nanoTime();
    RobustnessExperiment.Result result;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("e3").setInitialMax(experiment.tasks()).setStyle(ProgressBarStyle.ASCII)
        .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err)).continuousUpdate().build()) {
      result = experiment.run(bar::step);
    }
    List<RobustnessExperiment.Summary> summaries = RobustnessExperiment.summarise(result, settings);
    RobustnessExperiment.writePlans(result, out.resolve("e3-plans.csv"));
    RobustnessExperiment.writeReplays(result, out.resolve("e3-replays.csv"));
    RobustnessExperiment.writeSummary(summaries, out.resolve("e3-summary.csv"));
    RobustnessChart.write(summaries, settings, mixes.label() + " mixes, " + seeds + " seeds, " + kind.label() + " margin", out);
    stdout.println(summaries.stream().filter(x -> x.seedsPlanned() > 0).findFirst().map(x -> x.brokenPlans().label()).orElse("no plans")
        + " (fewer seeds where a planner found no plan); broken: replays where the plan breaks a verifier rule; late segs: "
        + "segments over the SLO rule; underserved: services below their rate; served: demand served by segments within the SLO rule");
    stdout.printf("%-14s %6s %-19s %5s %20s %20s %20s %20s %20s%n", "planner", "margin", "scenario", "seeds",
        goal == ColocationObjective.MIN_GPUS ? "GPUs" : "scale", "broken %",
        "late segs %", "underserved %", "served %");
    for (RobustnessExperiment.Summary s : summaries) {
      if (s.seedsPlanned() == 0) {
        stdout.printf("%-14s %5.0f%% %-19s %5d  no plan%n", s.planner(), 100 * s.margin(), s.scenario(), 0);
        continue;
      }
      stdout.printf("%-14s %5.0f%% %-19s %5d %20s %20s %20s %20s %20s%n", s.planner(), 100 * s.margin(), s.scenario(), s.seedsPlanned(),
          goal == ColocationObjective.MIN_GPUS ? s.gpus().format(1) : s.scale().format(3), percent(s.brokenPlans()), percent(s.lateSegments()), percent(s.underservedServices()), percent(s.servedFraction()));
    }
    long noPlan = result.plans().stream().filter(p -> !p.planned()).count();
    stdout.printf("%d planner calls (%d without a plan), %d replays in %.1f s. Wrote %s to %s%n", result.plans().size(), noPlan,
        result.replays().size(), (System.nanoTime() - t0) / 1e9, String.join(", ", outputs(goal)), out);
    return 0;
  }

  private static String percent(Interval i) {
    return i.asPercent().format(1);
  }
}
