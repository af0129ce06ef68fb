package org.rampa.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.strategy.PlacementResult;

/** The README's code is the code of {@link ReadmeExample}, and it runs. */
class ReadmeExampleTest {

  private static String between(String text, String begin, String end) {
    int from = text.indexOf(begin);
    int to = text.indexOf(end, from + begin.length());
    assertThat(from).as("marker %s", begin).isNotNegative();
    assertThat(to).as("marker %s", end).isPositive();
    return text.substring(from + begin.length(), to);
  }

  private static String normalise(String code) {
    return code.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
  }

  @Test
  void readmeShowsExactlyTheCompiledExample() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    String readme = Files.readString(root.resolve("README.md"));
    String source = Files.readString(root.resolve("rampa-examples/src/main/java/org/rampa/examples/ReadmeExample.java"));
    String inReadme = between(readme, "```java", "```");
    String inSource = between(source, "// README:begin", "// README:end");
    assertThat(normalise(inReadme)).isEqualTo(normalise(inSource));
    assertThat(inReadme.lines().filter(l -> !l.isBlank()).count()).isLessThanOrEqualTo(16);
  }

  @Test
  void addToYourBuildShowsExactlyTheCompiledEmbedding() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    String readme = Files.readString(root.resolve("README.md"));
    String source = Files.readString(root.resolve("rampa-examples/src/main/java/org/rampa/examples/EmbeddingExample.java"));
    int section = readme.indexOf("## Add to your build");
    assertThat(section).as("README section").isNotNegative();
    String inReadme = between(readme.substring(section), "```java", "```");
    String inSource = between(source, "// README:embedding:begin", "// README:embedding:end");
    assertThat(normalise(inReadme)).isEqualTo(normalise(inSource));
    assertThat(inReadme.lines().filter(l -> !l.isBlank()).count()).isLessThanOrEqualTo(15);
  }

  @Test
  void theEmbeddingCommitsAndReleases() {
    EmbeddingExample.Outcomes outcomes = EmbeddingExample.run();
    assertThat(outcomes.commit().outcome()).as(outcomes.commit().reasons().toString()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    assertThat(outcomes.commit().state().holds("chat-7b")).isTrue();
    assertThat(outcomes.release().outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    assertThat(outcomes.release().state().holds("chat-7b")).isFalse();
  }

  @Test
  void theExamplePlacesTheService() {
    PlacementResult result = ReadmeExample.run();
    assertThat(result.status().hasPlan()).as(result.reason()).isTrue();
  }
}
