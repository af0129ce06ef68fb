package org.rampa.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.rampa.domain.Invalid;
import org.rampa.examples.learned.DemandMixes;
import org.rampa.examples.learned.Training;
import org.rampa.heuristics.learned.CandidatePolicy;
import org.rampa.heuristics.learned.ColocationEnvironment;
import org.rampa.heuristics.learned.PolicyDocument;
import org.rampa.heuristics.learned.PolicyTrainer;
import org.rampa.heuristics.learned.ReinforceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "train", mixinStandardHelpOptions = true,
    description = "Train the learned co-location policy (REINFORCE) on random demand mixes (around ParvaGPU's scenarios, E2's generated"
        + " mixes scaled down, or both); writes the"
        + " weights (JSON), the learning curve (CSV) and its chart (PNG, SVG).")
final class TrainCommand implements Callable<Integer> {
  /** Training plays every episode on a cluster of this size: beyond it an episode takes minutes. */
  static final int MAX_GPUS = 4096;
  /**
   * Episodes x GPUs of one training: an episode's time grows with the cluster, and this many take
   * about as long as {@link PolicyTrainer#MAX_EPISODES} on the default 32 GPUs (under two hours).
   */
  static final long MAX_GPU_EPISODES = (long) PolicyTrainer.MAX_EPISODES * 32;

  @Spec
  CommandSpec spec;

  @Option(names = "--mix-family", defaultValue = "parvagpu", paramLabel = "FAMILY",
      description = "Mixes to train on: parvagpu (around ParvaGPU's six scenarios), e2 (E2's generated a100 mixes on the training cluster, "
          + "E2's services per GPU, every batch regime), both (each mix either, with probability 1/2). Default: ${DEFAULT-VALUE}.")
  String mixFamily;

  @Option(names = "--gpus", defaultValue = "32", description = "A100-80GB GPUs of the training cluster, in [1, " + MAX_GPUS + "]. Default: ${DEFAULT-VALUE}.")
  int gpus;

  @Option(names = "--episodes", defaultValue = "2000",
      description = "Episodes in all, in [1, " + PolicyTrainer.MAX_EPISODES + "] and at most " + MAX_GPU_EPISODES + " / --gpus (rounded up to whole updates;"
          + " about 50 ms an episode on 32 GPUs). Default: ${DEFAULT-VALUE}.")
  int episodes;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the initial weights, the mixes and the sampling. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--mixes-per-update", defaultValue = "8", description = "Demand mixes per update, in [1, 1024]. Default: ${DEFAULT-VALUE}.")
  int mixesPerUpdate;

  @Option(names = "--rollouts", defaultValue = "4",
      description = "Rollouts per mix, in [2, 64]; their mean return is the mix's baseline. Default: ${DEFAULT-VALUE}.")
  int rollouts;

  @Option(names = "--learning-rate", defaultValue = "0.003", description = "Adam's step size, in (0, 1]. Default: ${DEFAULT-VALUE}.")
  double learningRate;

  @Option(names = "--entropy", defaultValue = "0.01", description = "Weight of the entropy bonus, in [0, 1]. Default: ${DEFAULT-VALUE}.")
  double entropy;

  @Option(names = "--hidden", split = ListOption.SEPARATOR, splitSynopsisLabel = ListOption.LABEL, defaultValue = "24,12", description = "Widths of the hidden layers, each in [1, 256], at most 4. Default: ${DEFAULT-VALUE}.")
  List<Integer> hidden;

  @Option(names = "--top-k", defaultValue = "8", description = "Partly used GPUs offered per step, in [1, 1024]. Default: ${DEFAULT-VALUE}.")
  int topK;

  @Option(names = "--out", defaultValue = "learned-policy.json",
      description = "Weights file; FILE-curve.csv, FILE-curve.png and FILE-curve.svg are written next to it. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter stdout = spec.commandLine().getOut();
    if (gpus < 1 || gpus > MAX_GPUS) {
      throw Invalid.value("--gpus", gpus, "must lie in [1, " + MAX_GPUS + "]", "--gpus 32");
    }
    if (hidden.isEmpty() || hidden.size() > 4) {
      throw Invalid.value("--hidden", hidden, "must list 1 to 4 layer widths", "--hidden 24,12");
    }
    if (topK < 1 || topK > 1024) {
      throw Invalid.value("--top-k", topK, "must lie in [1, 1024]", "--top-k 8");
    }
    DemandMixes.Family family = DemandMixes.Family.of(mixFamily);
    PolicyTrainer.Settings settings = settings();
    OutputPaths.file("--out", out);
    Path folder = out.toAbsolutePath().getParent();
    String stem = out.getFileName().toString().replaceFirst("\\.json$", "");
    Path csv = folder.resolve(stem + "-curve.csv");
    Path png = folder.resolve(stem + "-curve.png");
    Path svg = folder.resolve(stem + "-curve.svg");
    OutputPaths.replaceable("--out", out, List.of(csv, png, svg));
    CandidatePolicy policy;
    try {
      policy = CandidatePolicy.initialised(ColocationEnvironment.FEATURES, hidden.stream().mapToInt(Integer::intValue).toArray(), seed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--hidden: " + e.getMessage(), e);
    }
    stdout.printf("Training the learned co-location policy: %d GPUs, %d updates x %d mixes (%s) x %d rollouts = %d episodes, seed %d%n",
        gpus, settings.updates(), mixesPerUpdate, family.label(), rollouts, settings.updates() * mixesPerUpdate * rollouts, seed);
    stdout.flush();
    long start = System.nanoTime();
    List<PolicyTrainer.CurvePoint> curve;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("train").setInitialMax((long) settings.updates() * mixesPerUpdate * rollouts)
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
        .continuousUpdate().build()) {
      curve = Training.train(policy, family, gpus, topK, settings, bar::stepBy);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String command = "rampa train --gpus " + gpus + " --episodes " + episodes + " --seed " + seed + " --mixes-per-update " + mixesPerUpdate
        + " --mix-family " + family.label() + " --rollouts " + rollouts + " --learning-rate " + learningRate + " --entropy " + entropy + " --hidden "
        + String.join(",", hidden.stream().map(String::valueOf).toList()) + " --top-k " + topK;
    Files.writeString(out, PolicyDocument.of(policy, command).write());
    Training.writeCurveCsv(curve, csv);
    Training.writeCurveChart(curve, "Learned co-location policy, " + gpus + " GPUs, 1 training seed (seed " + seed + ")", png, svg);
    PolicyTrainer.CurvePoint first = curve.get(0);
    PolicyTrainer.CurvePoint last = curve.get(curve.size() - 1);
    stdout.printf("Mean scale / reference: %.4f in the first update, %.4f in the last (%d episodes) in %.1f s%n",
        first.meanResult(), last.meanResult(), last.episodes(), seconds);
    stdout.printf("Wrote %s, %s, %s, %s%n", out, csv, png, svg);
    return 0;
  }

  /** Settings checked before any work, each refusal naming its option. */
  private PolicyTrainer.Settings settings() {
    ReinforceOptions reinforce;
    try {
      reinforce = new ReinforceOptions(learningRate, entropy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + (e.getMessage().startsWith("learningRate") ? "learning-rate" : "entropy") + ": " + e.getMessage(), e);
    }
    if (episodes < 1 || episodes > PolicyTrainer.MAX_EPISODES) {
      throw Invalid.value("--episodes", episodes, "must lie in [1, " + PolicyTrainer.MAX_EPISODES + "] (about 50 ms an episode on 32 GPUs)",
          "--episodes 2000");
    }
    if ((long) episodes * gpus > MAX_GPU_EPISODES) {
      throw Invalid.value("--episodes", episodes, "with --gpus " + gpus + " exceeds " + MAX_GPU_EPISODES
          + " episodes x GPUs, about two hours of training (an episode's time grows with the cluster)", "fewer episodes or GPUs");
    }
    if (mixesPerUpdate < 1 || mixesPerUpdate > 1024) {
      throw Invalid.value("--mixes-per-update", mixesPerUpdate, "must lie in [1, 1024]", "--mixes-per-update 8");
    }
    if (rollouts < 2 || rollouts > 64) {
      throw Invalid.value("--rollouts", rollouts, "must lie in [2, 64]", "--rollouts 4: several rollouts of a mix make its baseline");
    }
    return new PolicyTrainer.Settings(episodes, mixesPerUpdate, rollouts, reinforce, seed);
  }
}
