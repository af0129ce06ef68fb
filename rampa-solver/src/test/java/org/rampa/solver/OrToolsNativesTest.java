package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OR-Tools' loader swallows a failure to unpack into {@code java.io.tmpdir}; our loader must report
 * it with the cause and the fix. This needs a JVM whose natives are not loaded yet, so it forks one.
 */
class OrToolsNativesTest {

  private static String probe(Path tmpdir) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Djava.io.tmpdir=" + tmpdir, "-cp", System.getProperty("java.class.path"),
        NativesProbe.class.getName())).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the probe JVM ends").isTrue();
    return p.exitValue() + ": " + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void anUnusableTemporaryDirectoryIsReportedWithItsCauseAndTheFix(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("missing");
    String answer = probe(missing);
    assertThat(answer).startsWith("3: ").contains("java.io.tmpdir = " + missing).contains("not a writable directory (it does not exist)")
        .contains("-Djava.io.tmpdir=");
  }

  @Test
  void aUsableTemporaryDirectoryLoads(@TempDir Path dir) throws Exception {
    assertThat(probe(dir)).isEqualTo("0: loaded\n");
  }
}
