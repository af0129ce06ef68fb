package org.rampa.examples.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.colocation.ParvaGpuScenarios;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.OneGpuChart;
import org.rampa.examples.experiment.OneGpuExperiment;
import org.rampa.solver.PatternColocationPlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "vastpipe-e1", mixinStandardHelpOptions = true,
    description = "VastPipe experiment E1 on one A100-80GB from ParvaGPU's measured tables: for every pair and triple of its models, "
        + "exclusive use (one process on the whole GPU, the services taking turns) against the best co-location (MIG layout x MPS processes, "
        + "exact planner), per batch size and with the best batch under the SLO. Writes e1.csv, e1-summary.csv, e1-gain.png and e1-gain.svg.")
final class VastPipeE1Command implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for the CSV files and the chart (created if missing).")
  Path out;

  @Option(names = "--slo-scenario", defaultValue = "2", paramLabel = "K",
      description = "ParvaGPU scenario (1..6) whose latency SLOs bound the best-under-SLO regime; its models form the mixes. Default: ${DEFAULT-VALUE}.")
  int sloScenario;

  @Option(names = "--mixes", paramLabel = "N", description = "Run only the first N mixes (pairs first), for a quick look. Default: all.")
  Integer mixes;

  @Option(names = "--exclusive-processes", defaultValue = "1", paramLabel = "N",
      description = "MPS processes exclusive use may run on the whole GPU (1..3; 1 is one process, 3 gives it the MPS overlap co-location has). Default: ${DEFAULT-VALUE}.")
  int exclusiveProcesses;

  @Option(names = "--time-limit-s", defaultValue = "10", paramLabel = "SECONDS", description = "Time limit of each exact solve (0 < s <= 600). Default: ${DEFAULT-VALUE}.")
  double timeLimitSeconds;

  static final List<String> OUTPUTS = List.of("e1.csv", "e1-summary.csv", "e1-gain.png", "e1-gain.svg");

  @Override
  public Integer call() {
    if (sloScenario < 1 || sloScenario > ParvaGpuScenarios.SCENARIOS) {
      throw Invalid.value("--slo-scenario", sloScenario, "must lie in [1, " + ParvaGpuScenarios.SCENARIOS + "]", "ParvaGPU published six scenarios");
    }
    if (!(timeLimitSeconds > 0 && timeLimitSeconds <= 600)) {
      throw Invalid.value("--time-limit-s", timeLimitSeconds, "must lie in (0, 600]");
    }
    if (exclusiveProcesses < 1 || exclusiveProcesses > ParvaGpuScenarios.MAX_PROCESSES) {
      throw Invalid.value("--exclusive-processes", exclusiveProcesses, "must lie in [1, " + ParvaGpuScenarios.MAX_PROCESSES + "]",
          "ParvaGPU's search runs at most " + ParvaGpuScenarios.MAX_PROCESSES + " processes per instance");
    }
    OneGpuExperiment experiment = new OneGpuExperiment(new PatternColocationPlanner(), Duration.ofNanos((long) (timeLimitSeconds * 1e9)),
        sloScenario, exclusiveProcesses);
    List<List<String>> all = experiment.mixes();
    if (mixes != null && (mixes < 1 || mixes > all.size())) {
      throw Invalid.value("--mixes", mixes, "must lie in [1, " + all.size() + "]", "leave it out to run every pair and triple");
    }
    SimulateCommand.prepareOutput(out, OUTPUTS);
    List<List<String>> chosen = mixes == null ? all : all.subList(0, mixes);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf("VastPipe E1: %d mixes of ParvaGPU's models on one A100-80GB, batches %s and best under scenario %d's SLOs; "
        + "exclusive use runs up to %d process(es)%n", chosen.size(), ParvaGpuScenarios.BATCHES, sloScenario, exclusiveProcesses);
    stdout.flush();
    long t0 = System.nanoTime();
    List<OneGpuExperiment.Row> rows;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("e1").setInitialMax((long) chosen.size() * (ParvaGpuScenarios.BATCHES.size() + 1))
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err)).build()) {
      rows = experiment.run(chosen, r -> bar.step());
    }
    List<OneGpuExperiment.Summary> summaries = OneGpuExperiment.summarise(rows);
    OneGpuExperiment.writeCsv(rows, out.resolve("e1.csv"));
    OneGpuExperiment.writeSummaryCsv(summaries, out.resolve("e1-summary.csv"));
    OneGpuChart.write(summaries, "E1: one A100-80GB, co-location against exclusive use (ParvaGPU tables)", out);
    stdout.println("gain over exclusive use (geometric mean over mixes; worst and best mix)");
    stdout.printf("%-15s %6s %8s %8s %8s %8s %8s%n", "batch", "mixes", "pairs", "triples", "all", "min", "max");
    for (OneGpuExperiment.Summary s : summaries) {
      stdout.printf("%-15s %6d %8.2f %8.2f %8.2f %8.2f %8.2f%n", s.label(), s.mixes(), s.pairs(), s.triples(), s.all(), s.min(), s.max());
    }
    long notOptimal = rows.stream().filter(r -> r.gain().isPresent() && !r.status().equals("OPTIMAL")).count();
    long skipped = rows.stream().filter(r -> r.gain().isEmpty()).count();
    stdout.printf("%d solves in %.1f s; %d not proven optimal; %d skipped (no exclusive measurement or no plan). Wrote %s to %s%n",
        rows.size(), (System.nanoTime() - t0) / 1e9, notOptimal, skipped, String.join(", ", OUTPUTS), out);
    return 0;
  }
}
