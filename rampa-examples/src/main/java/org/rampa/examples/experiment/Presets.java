package org.rampa.examples.experiment;

import java.nio.file.Path;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.json.RampaJson;

/** The experiment's cluster: a {@link ClusterPresets} preset by name, or the user's own cluster JSON. */
public final class Presets {
  private Presets() {}

  /** "small", "large", or the path of a cluster JSON file. */
  public static Cluster cluster(String presetOrFile) {
    return ClusterPresets.names().contains(presetOrFile)
        ? ClusterPresets.named(presetOrFile)
        : RampaJson.read(Path.of(presetOrFile), Cluster.class);
  }
}
