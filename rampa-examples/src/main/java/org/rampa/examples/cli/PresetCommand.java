package org.rampa.examples.cli;

import java.util.concurrent.Callable;
import org.rampa.catalog.ClusterPresets;
import org.rampa.json.RampaJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "preset", mixinStandardHelpOptions = true,
    description = "Print a built-in cluster as JSON, to copy and edit into your own (simulate --preset FILE.json).")
final class PresetCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "NAME", description = "small (48 GPUs on 12 nodes) or large (1000 GPUs on 250 nodes).")
  String name;

  @Override
  public Integer call() {
    spec.commandLine().getOut().println(RampaJson.write(ClusterPresets.named(name)));
    return 0;
  }
}
