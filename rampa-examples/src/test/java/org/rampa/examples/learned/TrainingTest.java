package org.rampa.examples.learned;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.examples.cli.RampaCli;
import org.rampa.heuristics.learned.ColocationEnvironment;
import org.rampa.heuristics.learned.PolicyDocument;

/**
 * The CI's short deterministic training: 8 GPUs, 32 episodes of both mix families (ParvaGPU's
 * scenarios and E2's generated mixes), through the CLI as a user runs it.
 */
class TrainingTest {

  private static String train(Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code = RampaCli.run(new String[] {"train", "--gpus", "8", "--episodes", "32", "--mixes-per-update", "4", "--mix-family", "both", "--seed", "5",
            "--out", out.toString()},
        new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    assertThat(code).as(stderr.toString()).isZero();
    return stdout.toString();
  }

  @Test
  void aSmokeTrainingWritesWeightsCurveAndChartAndIsDeterministic(@TempDir Path dir) throws Exception {
    Path first = dir.resolve("a.json");
    String printed = train(first);
    assertThat(printed).contains("8 GPUs, 2 updates x 4 mixes (both) x 4 rollouts = 32 episodes, seed 5");
    PolicyDocument document = PolicyDocument.read(Files.readString(first));
    assertThat(document.features()).isEqualTo(ColocationEnvironment.FEATURES);
    assertThat(document.provenance()).startsWith("rampa train --gpus 8 --episodes 32 --seed 5 --mixes-per-update 4 --mix-family both");
    List<String> curve = Files.readAllLines(dir.resolve("a-curve.csv"));
    assertThat(curve).hasSize(3);
    assertThat(curve.get(0)).isEqualTo("update,episodes,mean_scale_of_reference,mean_entropy");
    assertThat(curve.get(2)).startsWith("2,32,");
    assertThat(Files.size(dir.resolve("a-curve.png"))).isPositive();
    assertThat(Files.readString(dir.resolve("a-curve.svg"))).contains("<svg");

    Path second = dir.resolve("b.json");
    train(second);
    assertThat(Files.readString(second)).isEqualTo(Files.readString(first));
  }
}
