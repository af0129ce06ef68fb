package org.rampa.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.Invalid;
import org.rampa.examples.learned.PolicyEvaluation;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.heuristics.learned.LearnedColocationPlanner;
import org.rampa.heuristics.learned.PolicyDocument;
import org.rampa.json.InputFiles;
import org.rampa.solver.colocation.PatternColocationPlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "evaluate-policy", mixinStandardHelpOptions = true,
    description = "Compare the learned co-location policy with the heuristic, the baselines and the column-generation bound on"
        + " held-out demand mixes; prints mean and 95 %% intervals and the policy's decision times, writes a CSV.")
final class EvaluatePolicyCommand implements Callable<Integer> {
  static final int MAX_MIXES = 1000;

  @Spec
  CommandSpec spec;

  @Option(names = "--policy", description = "Weights file written by rampa train (default: the shipped policy).")
  Path policy;

  @Option(names = "--gpus", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "32,256,1000",
      description = "Cluster sizes (A100-80GB GPUs), each in [1, " + TrainCommand.MAX_GPUS + "]. Default: ${DEFAULT-VALUE}.")
  List<Integer> gpus;

  @Option(names = "--mixes", defaultValue = "10", description = "Held-out mixes per size, in [1, " + MAX_MIXES + "]. Default: ${DEFAULT-VALUE}.")
  int mixes;

  @Option(names = "--seed", defaultValue = "1000000", description = "Mix i is drawn from seed + i. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--time-limit", defaultValue = "PT20S", converter = IsoDuration.class,
      description = "Time limit of each planner per mix (ISO-8601), at most PT24H. Default: ${DEFAULT-VALUE}.")
  Duration timeLimit;

  @Option(names = "--out", defaultValue = "policy-evaluation.csv", description = "CSV of every mix and planner. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter stdout = spec.commandLine().getOut();
    if (gpus.isEmpty() || gpus.size() > 16) {
      throw Invalid.value("--gpus", gpus, "must list 1 to 16 sizes", "--gpus 32,256,1000");
    }
    for (int g : gpus) {
      if (g < 1 || g > TrainCommand.MAX_GPUS) {
        throw Invalid.value("--gpus", g, "each size must lie in [1, " + TrainCommand.MAX_GPUS + "]");
      }
    }
    if (mixes < 1 || mixes > MAX_MIXES) {
      throw Invalid.value("--mixes", mixes, "must lie in [1, " + MAX_MIXES + "]", "--mixes 10");
    }
    if (timeLimit.isNegative() || timeLimit.isZero() || timeLimit.compareTo(Duration.ofHours(24)) > 0) {
      throw Invalid.value("--time-limit", timeLimit, "must lie in (0, PT24H]", "--time-limit PT20S");
    }
    LearnedColocationPlanner learned = policy == null ? LearnedColocationPlanner.shipped() : readPolicy(policy);
    OptionChecks.requireDistinct("--gpus", gpus);
    OutputPaths.file("--out", out);
    Map<String, ColocationPlanner> others = new LinkedHashMap<>();
    for (String name : ColocationPlanners.NAMES) {
      if (!name.equals(learned.name())) {
        others.put(name, ColocationPlanners.named(name));
      }
    }
    ColocationPlanner exact = VerifiedColocationPlanner.of(new PatternColocationPlanner(ColocationPlanners.named("heuristic")));
    stdout.printf("Learned policy vs %s and %s's bound: %d held-out mixes (seeds %d..%d) at %s GPUs%n", others.keySet(), exact.name(),
        mixes, seed, seed + mixes - 1, gpus);
    stdout.flush();
    List<PolicyEvaluation.MixResult> results;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("evaluate").setInitialMax((long) mixes * gpus.size())
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
        .continuousUpdate().build()) {
      results = PolicyEvaluation.run(learned, others, exact, gpus, mixes, seed, timeLimit, r -> bar.step());
    }
    PolicyEvaluation.printSummary(results, stdout);
    write(results, out);
    stdout.printf("Wrote %s%n", out);
    return 0;
  }

  private static LearnedColocationPlanner readPolicy(Path file) {
    try {
      return new LearnedColocationPlanner(PolicyDocument.read(InputFiles.readText(file)).policy(), LearnedColocationPlanner.DEFAULT_TOP_K);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--policy " + file + ": " + e.getMessage(), e);
    }
  }

  private static void write(List<PolicyEvaluation.MixResult> results, Path file) throws IOException {
    StringBuilder csv = new StringBuilder("gpus,mix,planner,scale,bound\n");
    for (PolicyEvaluation.MixResult r : results) {
      for (Map.Entry<String, Double> e : r.scales().entrySet()) {
        csv.append(String.format(Locale.ROOT, "%d,%d,%s,%.6f,%.6f%n", r.gpus(), r.mix(), e.getKey(), e.getValue(), r.bound()));
      }
    }
    Files.writeString(file, csv);
  }
}
