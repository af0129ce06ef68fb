package org.rampa.examples.cli;

import java.util.concurrent.Callable;
import org.rampa.examples.HandWrittenPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Evaluate a hand-written Llama-2-13B plan on the built-in cluster with the performance model and the verifier.")
final class DemoCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    return HandWrittenPlan.run(spec.commandLine().getOut()).ok() ? 0 : RampaCli.INTERNAL_ERROR;
  }
}
