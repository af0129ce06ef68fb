package org.rampa.examples.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.Invalid;
import org.rampa.json.RampaJson;

/** The experiment's cluster: a {@link ClusterPresets} preset by name, or the user's own cluster JSON. */
public final class Presets {
  private Presets() {}

  /** "small", "large", or the path of a cluster JSON file. */
  public static Cluster cluster(String presetOrFile) {
    if (ClusterPresets.names().contains(presetOrFile)) {
      return ClusterPresets.named(presetOrFile);
    }
    Path file = Path.of(presetOrFile);
    if (!presetOrFile.endsWith(".json") && !Files.exists(file)) {
      throw Invalid.value("preset", presetOrFile, "is neither a built-in preset nor an existing file",
          "use one of " + ClusterPresets.names() + " or a cluster JSON file");
    }
    return RampaJson.read(file, Cluster.class);
  }
}
