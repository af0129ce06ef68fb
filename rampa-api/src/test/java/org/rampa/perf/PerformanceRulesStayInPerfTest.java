package org.rampa.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the stage-memory rule ({@code weights + b·(state + working)}) in {@code org.rampa.perf}:
 * searches ask a {@link StageCursor} instead of writing the rule out again, so a change to it
 * (shared GPUs, say) is made once. A plain scan of every module's main sources for the per-sample
 * memory getters the rule reads.
 */
class PerformanceRulesStayInPerfTest {

  private static final List<String> RULE_INPUTS = List.of(".stateBytesPerSample()", ".workingBytesPerSample()");

  /** The repository root: surefire runs in the module's directory, one level below it. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void onlyThePerformancePackageReadsTheStageMemoryInputs() {
    List<Path> sources = mainSources();
    assertThat(sources.stream().map(p -> ROOT.relativize(p).getName(0).toString()).distinct())
        .as("the scan must see every module's main sources")
        .contains("rampa-api", "rampa-solver", "rampa-heuristics", "rampa-examples");
    assertThat(sources).as("the rule itself must be found where it lives")
        .anySatisfy(p -> assertThat(p.endsWith(Path.of("org/rampa/perf/StageCursor.java")) && readsRuleInputs(p)).isTrue());
    List<String> offenders = sources.stream()
        .filter(p -> !p.toString().contains("/org/rampa/perf/"))
        .filter(p -> !p.endsWith(Path.of("org/rampa/domain/Layer.java")))
        .filter(PerformanceRulesStayInPerfTest::readsRuleInputs)
        .map(p -> ROOT.relativize(p).toString())
        .toList();
    assertThat(offenders).as("files outside org.rampa.perf reading %s; ask a StageCursor instead", RULE_INPUTS).isEmpty();
  }

  private static boolean readsRuleInputs(Path file) {
    try {
      String text = Files.readString(file);
      return RULE_INPUTS.stream().anyMatch(text::contains);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> mainSources() {
    try (Stream<Path> modules = Files.list(ROOT)) {
      return modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).flatMap(dir -> {
        try (Stream<Path> files = Files.walk(dir)) {
          return files.filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
