package org.rampa.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the stage-memory rule ({@code weights + b·(state + working)}) in {@code org.rampa.perf}:
 * searches ask a {@link StageCursor} instead of writing the rule out again, so a change to it
 * (shared GPUs, say) is made once. A plain scan of every module's main sources for the per-sample
 * memory getters the rule reads.
 *
 * <p>Co-location (its API in {@code org.rampa.colocation}, the heuristics' {@code colocation} and
 * {@code learned} packages, the exact planner in rampa-solver) is held to the same rules: memory from
 * the performance model, the SLO judged by {@link SloPredicate} on a budget its {@code SloRule}
 * derives, a placement's share from the placement. A scan of those sources, comments and string
 * literals left out, for the marks of a rule written out again ({@link #COLOCATION_RE_DERIVATIONS}).
 */
class PerformanceRulesStayInPerfTest {

  /** The co-location sources, as paths below the repository root. */
  private static final List<String> COLOCATION_SOURCES = List.of(
      "rampa-api/src/main/java/org/rampa/colocation",
      "rampa-heuristics/src/main/java/org/rampa/heuristics/colocation",
      "rampa-heuristics/src/main/java/org/rampa/heuristics/learned",
      "rampa-solver/src/main/java");

  /** The file that defines ParvaGPU's budget, where its factor may be written. */
  private static final String SLO_RULE = "SloRule.java";

  /** What a re-derived rule looks like, and which rule owns it instead. */
  static final Map<Pattern, String> COLOCATION_RE_DERIVATIONS = Map.of(
      Pattern.compile("/\\s*7(\\.0*)?(?![\\d.])"), "a MIG share as g/7: ask the Placement (shareEquivalent, computeFraction) or the MigGeometry",
      Pattern.compile("\\.weightBytes\\(\\)"), "a memory sum over layers: ask the PerformanceModel (StageCursor)",
      Pattern.compile("latencyFraction\\(\\)\\s*[*/]|[*/]\\s*[\\w.()]*latencyFraction\\(\\)"), "an SLO budget by hand: SloRule.budgetSeconds",
      Pattern.compile("RELATIVE_TOLERANCE"), "an SLO comparison by hand: SloPredicate (meetsLatency, meetsRate)",
      Pattern.compile("\\b0\\.9\\s*/\\s*2\\b|\\b0\\.45\\b"), "ParvaGPU's SLO factor: SloRule.parvaGpu()");

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

  @Test
  void colocationAsksTheKernelInsteadOfReDerivingItsRules() {
    List<Path> sources = COLOCATION_SOURCES.stream().map(ROOT::resolve).flatMap(PerformanceRulesStayInPerfTest::javaFiles).toList();
    assertThat(sources).as("the scan must see the co-location sources of every module")
        .anySatisfy(p -> assertThat(p.endsWith(Path.of("org/rampa/colocation/ColocationVerifier.java"))).isTrue())
        .anySatisfy(p -> assertThat(p.endsWith(Path.of("org/rampa/heuristics/learned/ColocationEnvironment.java"))).isTrue())
        .anySatisfy(p -> assertThat(p.toString()).contains("rampa-solver").endsWith("PatternColocationPlanner.java"));
    List<String> offenders = sources.stream()
        .flatMap(p -> reDerivations(read(p)).stream()
            .filter(why -> !(p.endsWith(SLO_RULE) && why.startsWith("ParvaGPU")))
            .map(why -> ROOT.relativize(p) + ": " + why))
        .toList();
    assertThat(offenders).as("co-location sources writing a kernel rule out again").isEmpty();
  }

  @Test
  void theColocationScanCatchesEachReDerivation() {
    assertThat(reDerivations("double used = slices / 7.0;")).singleElement().asString().startsWith("a MIG share");
    assertThat(reDerivations("int x = g/7;")).hasSize(1);
    assertThat(reDerivations("long w = layer.weightBytes();")).singleElement().asString().startsWith("a memory sum");
    assertThat(reDerivations("double b = nanos * 1e-9 * rule.latencyFraction();")).singleElement().asString().startsWith("an SLO budget");
    assertThat(reDerivations("double b = rule.latencyFraction() * slo;")).hasSize(1);
    assertThat(reDerivations("return t <= b * (1 + SloPredicate.RELATIVE_TOLERANCE);")).singleElement().asString().startsWith("an SLO comparison");
    assertThat(reDerivations("return new SloRule(0.9 / 2);")).singleElement().asString().startsWith("ParvaGPU");
    // comments, messages and numbers that only look alike pass
    assertThat(reDerivations("// g / 7 is wrong\n/* 0.45 */ String m = \"0.45 × \" + rule.latencyFraction() + \" / 7\";")).isEmpty();
    assertThat(reDerivations("double a = x / 7.5 + y / 70 + 0.95 + BETA1 * 0.9;")).isEmpty();
  }

  /** The rules {@code source} writes out again, comments and string literals left out. */
  static List<String> reDerivations(String source) {
    String code = source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ").replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
    return COLOCATION_RE_DERIVATIONS.entrySet().stream().filter(e -> e.getKey().matcher(code).find()).map(Map.Entry::getValue).sorted().toList();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stream<Path> javaFiles(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
