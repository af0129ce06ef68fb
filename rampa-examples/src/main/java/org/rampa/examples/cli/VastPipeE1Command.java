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
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.OneGpuChart;
import org.rampa.examples.experiment.OneGpuExperiment;
import org.rampa.examples.experiment.OneGpuShareExperiment;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.solver.colocation.PatternColocationPlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "vastpipe-e1", mixinStandardHelpOptions = true,
    description = "VastPipe experiment E1 on one accelerator: for every pair and triple of services, exclusive use (one process on the whole "
        + "device, the services taking turns) against the best co-location, per batch size and with the best batch under the SLO. Sources: "
        + "parvagpu (A100-80GB, ParvaGPU's measured MIG tables, exact planner), muxserve (A100-80GB, MuxServe's measured MPS table for LLaMA, "
        + "MPS shares enumerated, modelled linear interference), modelled (MI100 CU masks and the NPU's templates, analytic tier, modelled "
        + "interference). Writes e1.csv, e1-summary.csv and PNG/SVG charts.")
final class VastPipeE1Command implements Callable<Integer> {

  /** The sources E1 can run; "all" runs every one. */
  static final List<String> SOURCES = List.of("all", OneGpuExperiment.SOURCE, "muxserve", "modelled");

  @Spec
  CommandSpec spec;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for the CSV files and the charts (created if missing).")
  Path out;

  @Option(names = "--source", defaultValue = "all", paramLabel = "NAME",
      description = "all, parvagpu, muxserve or modelled (MI100 and NPU). Default: ${DEFAULT-VALUE}.")
  String source;

  @Option(names = "--slo-scenario", defaultValue = "2", paramLabel = "K",
      description = "ParvaGPU scenario (1..6) whose latency SLOs bound parvagpu's best-under-SLO regime; its models form the mixes. Default: ${DEFAULT-VALUE}.")
  int sloScenario;

  @Option(names = "--slo-scale", defaultValue = "5", paramLabel = "X",
      description = "muxserve and modelled: a service's SLO is X times its batch-1 time alone on the whole device (1 <= X <= 1000). Default: ${DEFAULT-VALUE}.")
  double sloScale;

  @Option(names = "--max-segments", defaultValue = "" + OneGpuShareExperiment.DEFAULT_MAX_SEGMENTS, paramLabel = "N",
      description = "muxserve and modelled: the most segments (processes) co-location runs on the device (3..6; exclusive use runs one). Default: ${DEFAULT-VALUE}.")
  int maxSegments;

  @Option(names = "--mixes", paramLabel = "N", description = "Run only the first N mixes (pairs first) of each source, for a quick look. Default: all.")
  Integer mixes;

  @Option(names = "--exclusive-processes", defaultValue = "1", paramLabel = "N",
      description = "parvagpu: MPS processes exclusive use may run on the whole GPU (1..3; 1 is one process, 3 gives it the MPS overlap co-location has). Default: ${DEFAULT-VALUE}.")
  int exclusiveProcesses;

  @Option(names = "--time-limit-s", defaultValue = "10", paramLabel = "SECONDS", description = "parvagpu: time limit of each exact solve (0 < s <= 600). Default: ${DEFAULT-VALUE}.")
  double timeLimitSeconds;

  /** Every file the command may write (which ones depends on --source). */
  static final List<String> OUTPUTS = List.of("e1.csv", "e1-summary.csv", "e1-gain.png", "e1-gain.svg", "e1-gain-muxserve.png", "e1-gain-muxserve.svg",
      "e1-gain-mi100.png", "e1-gain-mi100.svg", "e1-gain-npu.png", "e1-gain-npu.svg", "e1-sources.png", "e1-sources.svg", "e1-gamma.png", "e1-gamma.svg");

  /** γ of the per-source charts. */
  private static final double CHART_GAMMA = 0.05;

  @Override
  public Integer call() {
    if (!SOURCES.contains(source)) {
      throw Invalid.value("--source", source, "must be one of " + SOURCES);
    }
    if (sloScenario < 1 || sloScenario > ParvaGpuScenarios.SCENARIOS) {
      throw Invalid.value("--slo-scenario", sloScenario, "must lie in [1, " + ParvaGpuScenarios.SCENARIOS + "]", "ParvaGPU published six scenarios");
    }
    if (!(sloScale >= 1 && sloScale <= 1000)) {
      throw Invalid.value("--slo-scale", sloScale, "must lie in [1, 1000]", "below 1 not even batch 1 meets the SLO alone");
    }
    if (maxSegments < OneGpuShareExperiment.MIN_SEGMENTS || maxSegments > OneGpuShareExperiment.MAX_SEGMENTS) {
      throw Invalid.value("--max-segments", maxSegments, "must lie in [" + OneGpuShareExperiment.MIN_SEGMENTS + ", " + OneGpuShareExperiment.MAX_SEGMENTS + "]",
          "every triple needs three segments");
    }
    Duration limit = OptionChecks.seconds("--time-limit-s", timeLimitSeconds, 600);
    if (source.equals(OneGpuExperiment.SOURCE)) {
      OptionChecks.refuseUnused(spec, "to --source " + source + " (it applies to muxserve and modelled)", "drop it, or use --source all",
          "--slo-scale", "--max-segments");
    } else if (!source.equals("all")) {
      OptionChecks.refuseUnused(spec, "to --source " + source + " (it applies to parvagpu)", "drop it, or use --source all",
          "--slo-scenario", "--exclusive-processes", "--time-limit-s");
    }
    if (exclusiveProcesses < 1 || exclusiveProcesses > ParvaGpuScenarios.MAX_PROCESSES) {
      throw Invalid.value("--exclusive-processes", exclusiveProcesses, "must lie in [1, " + ParvaGpuScenarios.MAX_PROCESSES + "]",
          "ParvaGPU's search runs at most " + ParvaGpuScenarios.MAX_PROCESSES + " processes per instance");
    }
    OneGpuExperiment parva = new OneGpuExperiment(VerifiedColocationPlanner.of(new PatternColocationPlanner()), limit,
        sloScenario, exclusiveProcesses);
    List<OneGpuShareExperiment> shared = new ArrayList<>();
    if (source.equals("all") || source.equals("muxserve")) {
      shared.add(new OneGpuShareExperiment(OneGpuShareExperiment.muxServe(), sloScale, maxSegments));
    }
    if (source.equals("all") || source.equals("modelled")) {
      shared.add(new OneGpuShareExperiment(OneGpuShareExperiment.mi100(), sloScale, maxSegments));
      shared.add(new OneGpuShareExperiment(OneGpuShareExperiment.npu(), sloScale, maxSegments));
    }
    boolean runParva = source.equals("all") || source.equals(OneGpuExperiment.SOURCE);
    int most = runParva ? parva.mixes().size() : shared.stream().mapToInt(e -> e.mixes().size()).max().orElseThrow();
    if (mixes != null && (mixes < 1 || mixes > most)) {
      throw Invalid.value("--mixes", mixes, "must lie in [1, " + most + "]", "leave it out to run every pair and triple");
    }
    OutputPaths.folder("--out", out, OUTPUTS);
    PrintWriter stdout = spec.commandLine().getOut();
    long steps = 0;
    List<List<String>> parvaMixes = runParva ? first(parva.mixes()) : List.of();
    steps += (long) parvaMixes.size() * (ParvaGpuScenarios.BATCHES.size() + 1);
    for (OneGpuShareExperiment e : shared) {
      steps += (long) first(e.mixes()).size() * OneGpuShareExperiment.GAMMAS.size() * OneGpuShareExperiment.rowsPerMix();
    }
    if (runParva) {
      stdout.printf("parvagpu: %d mixes of ParvaGPU's models on one A100-80GB (measured), batches %s and best under scenario %d's SLOs; "
          + "exclusive use runs up to %d process(es)%n", parvaMixes.size(), ParvaGpuScenarios.BATCHES, sloScenario, exclusiveProcesses);
    }
    for (OneGpuShareExperiment e : shared) {
      stdout.printf("%s: %d mixes on one %s (%s), γ %s, SLO %s x batch-1 time alone, at most %d segments%n", e.device().source(),
          first(e.mixes()).size(), e.device().type().name(), e.device().tier(), OneGpuShareExperiment.GAMMAS, sloScale, maxSegments);
    }
    stdout.flush();
    long t0 = System.nanoTime();
    List<OneGpuExperiment.Row> rows = new ArrayList<>();
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("e1").setInitialMax(steps)
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err)).build()) {
      if (runParva) {
        rows.addAll(parva.run(parvaMixes, r -> bar.step()));
      }
      for (OneGpuShareExperiment e : shared) {
        rows.addAll(e.run(first(e.mixes()), OneGpuShareExperiment.GAMMAS, r -> bar.step()));
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<OneGpuExperiment.Summary> summaries = OneGpuExperiment.summarise(rows);
    OneGpuExperiment.writeCsv(rows, out.resolve("e1.csv"));
    OneGpuExperiment.writeSummaryCsv(summaries, out.resolve("e1-summary.csv"));
    List<String> written = new ArrayList<>(List.of("e1.csv", "e1-summary.csv"));
    written.addAll(charts(summaries));
    stdout.println("gain over exclusive use (geometric mean over mixes; worst and best mix)");
    String group = null;
    for (OneGpuExperiment.Summary s : summaries) {
      if (!s.group().equals(group)) {
        group = s.group();
        stdout.printf("%n%s%n%-15s %6s %8s %8s %8s %8s %8s%n", group, "batch", "mixes", "pairs", "triples", "all", "min", "max");
      }
      stdout.printf("%-15s %6d %8.2f %8.2f %8.2f %8.2f %8.2f%n", s.label(), s.mixes(), s.pairs(), s.triples(), s.all(), s.min(), s.max());
    }
    long notOptimal = rows.stream().filter(r -> r.gain().isPresent() && !r.status().equals("OPTIMAL") && !r.status().equals("ENUMERATED")).count();
    long skipped = rows.stream().filter(r -> r.gain().isEmpty()).count();
    stdout.printf("%n%d rows in %.1f s; %d not proven optimal; %d skipped (no exclusive measurement or no plan). Wrote %s to %s%n",
        rows.size(), seconds, notOptimal, skipped, String.join(", ", written), out);
    return 0;
  }

  private List<List<String>> first(List<List<String>> all) {
    return mixes == null ? all : all.subList(0, Math.min(mixes, all.size()));
  }

  /** One chart per source and device (γ = 0.05 where γ enters), every source together, and γ sensitivity. */
  private List<String> charts(List<OneGpuExperiment.Summary> summaries) {
    List<String> written = new ArrayList<>();
    Map<String, List<OneGpuExperiment.Summary>> groups = new LinkedHashMap<>();
    summaries.stream().filter(s -> Double.isNaN(s.gamma()) || Math.abs(s.gamma() - CHART_GAMMA) < 1e-12)
        .forEach(s -> groups.computeIfAbsent(s.source() + "/" + s.device(), k -> new ArrayList<>()).add(s));
    for (List<OneGpuExperiment.Summary> g : groups.values()) {
      OneGpuExperiment.Summary s = g.get(0);
      String stem = switch (s.device()) {
        case "MI100" -> "e1-gain-mi100";
        case "NPU-8C-64GB" -> "e1-gain-npu";
        default -> s.source().equals("muxserve") ? "e1-gain-muxserve" : "e1-gain";
      };
      String title = "E1: one " + s.device() + " against exclusive use (" + s.source()
          + (Double.isNaN(s.gamma()) ? "" : String.format(java.util.Locale.ROOT, ", γ=%.2f", s.gamma())) + "; "
          + (s.tier().equals("modelled") ? "MODELLED" : s.tier().replace('-', ' ')) + ")";
      OneGpuChart.write(g, title, out, stem);
      written.add(stem + ".png");
      written.add(stem + ".svg");
    }
    if (groups.size() > 1) {
      OneGpuChart.writeSources(summaries, CHART_GAMMA, out, "e1-sources");
      written.addAll(List.of("e1-sources.png", "e1-sources.svg"));
    }
    if (summaries.stream().anyMatch(s -> !Double.isNaN(s.gamma()))) {
      OneGpuChart.writeGamma(summaries, out, "e1-gamma");
      written.addAll(List.of("e1-gamma.png", "e1-gamma.svg"));
    }
    return written;
  }
}
