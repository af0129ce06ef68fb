package org.rampa.solver.backend;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Platform;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OR-Tools' loader swallows a failure to unpack into {@code java.io.tmpdir}; our loader must report
 * it with the cause and the fix. This needs a JVM whose natives are not loaded yet, so it forks one.
 */
class OrToolsNativesTest {

  private static String probe(Path tmpdir) throws Exception {
    return probe(tmpdir, System.getProperty("java.class.path"));
  }

  private static String probe(Path tmpdir, String classPath) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Djava.io.tmpdir=" + tmpdir, "-cp", classPath,
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

  @Test
  void aMissingPlatformJarIsNamedWithTheFix(@TempDir Path dir) throws Exception {
    String platformJar = "ortools-" + Platform.RESOURCE_PREFIX + "-";
    String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
    String withoutNatives = Arrays.stream(entries).filter(e -> !Path.of(e).getFileName().toString().startsWith(platformJar))
        .collect(Collectors.joining(File.pathSeparator));
    assertThat(withoutNatives).as("the platform jar was on the class path").isNotEqualTo(String.join(File.pathSeparator, entries));
    String answer = probe(dir, withoutNatives);
    assertThat(answer).startsWith("3: ").contains("no native jar for this platform")
        .contains("com.google.ortools:ortools-" + Platform.RESOURCE_PREFIX).contains("Maybe");
  }

  @Test
  void nativesNestedInAFatJarAreExplained() {
    // Spring Boot 3.2+ and the older loader
    String nested = "jar:nested:/srv/app.jar/!BOOT-INF/lib/ortools-linux-x86-64-9.15.6755.jar!/ortools-linux-x86-64/";
    String legacy = "jar:file:/srv/app.jar!/BOOT-INF/lib/ortools-linux-x86-64-9.15.6755.jar!/ortools-linux-x86-64/";
    for (String url : List.of(nested, legacy)) {
      assertThat(OrToolsNatives.explain(new IllegalArgumentException("bad URI"), "linux-x86-64", url, Optional.empty()))
          .as(url).contains("nested in another jar").contains("Spring Boot").contains("requiresUnpack")
          .contains("com.google.ortools:ortools-linux-x86-64");
    }
  }
}
