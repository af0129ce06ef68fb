package org.rampa.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published Javadoc cites the specification as "docs/SPEC.md section N" and
 * "docs/SHARING.md section N"; every such citation must name a file of this repository and a
 * section that file has, and no citation may name the specification without its docs/ path (a file
 * a reader of the Javadoc cannot find).
 */
class JavadocReferencesTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern DOC = Pattern.compile("docs/([A-Za-z0-9_.-]+\\.md)(?: (?:section |§) ?(\\d+))?");
  private static final Pattern DANGLING = Pattern.compile("(?<![\\w/.-])(?:SHARING\\.md|SPEC\\.md|SPEC (?:section|§))");

  private static List<Path> mainSources() throws IOException {
    List<Path> sources = new ArrayList<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList()) {
        try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
          files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
        }
      }
    }
    return sources;
  }

  @Test
  void everyCitedDocumentAndSectionIsInTheRepository() throws IOException {
    List<Path> sources = mainSources();
    assertThat(sources).hasSizeGreaterThan(100);
    List<String> broken = new ArrayList<>();
    int citations = 0;
    for (Path source : sources) {
      // a citation may wrap: join the comment lines before matching
      String text = Files.readString(source).replaceAll("\\n\\s*\\*\\s*", " ");
      Matcher m = DOC.matcher(text);
      while (m.find()) {
        citations++;
        Path doc = ROOT.resolve("docs").resolve(m.group(1));
        if (!Files.isRegularFile(doc)) {
          broken.add(ROOT.relativize(source) + ": " + m.group() + " (no such file)");
        } else if (m.group(2) != null
            && !Pattern.compile("(?m)^## " + m.group(2) + "\\. ").matcher(Files.readString(doc)).find()) {
          broken.add(ROOT.relativize(source) + ": " + m.group() + " (no section " + m.group(2) + " in " + m.group(1) + ")");
        }
      }
      Matcher d = DANGLING.matcher(text);
      while (d.find()) {
        broken.add(ROOT.relativize(source) + ": '" + d.group() + "' names a document outside the repository; cite docs/...");
      }
    }
    assertThat(citations).as("citations of docs/ found").isGreaterThan(50);
    assertThat(broken).isEmpty();
  }
}
