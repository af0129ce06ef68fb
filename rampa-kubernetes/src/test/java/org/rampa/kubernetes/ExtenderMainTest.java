package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad flags end the extender before it listens, with exit code 2 and the flag named. */
class ExtenderMainTest {

  private static String run(int expectedExit, String... args) {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(new ExtenderMain()).execute(args)).isEqualTo(expectedExit);
    } finally {
      System.setErr(err);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aTimeLimitKubeSchedulerWouldNotWaitForIsRefused() {
    assertThat(run(2, "--no-watch", "--time-limit-ms", "6000")).startsWith(
        "rampa-extender: timeLimit = PT6S: must lie in (0, PT4S]. Maybe keep it below kube-scheduler's httpTimeout");
  }

  @Test
  void unknownStrategiesImportancesAndProductTypesAreRefused() {
    assertThat(run(2, "--no-watch", "--strategy", "exact")).startsWith("rampa-extender: strategy = exact: is not on the class path");
    assertThat(run(2, "--no-watch", "--importance", "price")).startsWith(
        "rampa-extender: --importance = price: must be capability or uniform");
    assertThat(run(2, "--no-watch", "--gpu-product", "NVIDIA-H100-NVL=H100-NVL")).startsWith(
        "rampa-extender: gpuProduct[NVIDIA-H100-NVL] = H100-NVL: is not a type of RAMPA's GPU catalog");
  }
}
