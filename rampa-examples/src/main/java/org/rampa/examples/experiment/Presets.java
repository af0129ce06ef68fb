package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rampa.domain.Cluster;
import org.rampa.domain.Invalid;
import org.rampa.json.RampaJson;

/**
 * The experiment's cluster presets, shipped as JSON documents (presets/small.json: 48 GPUs on 12
 * nodes; presets/large.json: 1000 GPUs on 250 nodes) so users can copy one and bring their own.
 */
public final class Presets {
  private Presets() {}

  /** "small", "large", or the path of a cluster JSON file. */
  public static Cluster cluster(String presetOrFile) {
    if (presetOrFile.equals("small") || presetOrFile.equals("large")) {
      String resource = "/org/rampa/examples/presets/" + presetOrFile + ".json";
      try (InputStream in = Presets.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("preset " + resource + " is missing from the jar");
        }
        return RampaJson.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), Cluster.class);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path file = Path.of(presetOrFile);
    if (!presetOrFile.endsWith(".json") && !Files.exists(file)) {
      throw Invalid.value("preset", presetOrFile, "is neither a built-in preset nor an existing file", "use small, large or a cluster JSON file");
    }
    return RampaJson.read(file, Cluster.class);
  }
}
