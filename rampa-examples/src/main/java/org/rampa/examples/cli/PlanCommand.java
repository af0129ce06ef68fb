package org.rampa.examples.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.rampa.Rampa;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.strategy.PlacementResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "plan", mixinStandardHelpOptions = true,
    description = {"Plan one service: read a problem JSON (cluster, allocations, request, strategy, options,",
        "importanceByType) and print the result JSON (status, plan with stages, GPUs, predicted throughput",
        "and latency, cost, solve time, the MPS fault domains a shared plan joins; or the reason there is none).",
        "A result without a plan (INFEASIBLE,",
        "NO_PLAN_FOUND, NO_SOLUTION_IN_TIME) exits 0."})
final class PlanCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PROBLEM.json", description = "The problem document.")
  Path problem;

  @Override
  public Integer call() {
    ProblemDocument doc = RampaJson.read(problem, ProblemDocument.class);
    PlacementResult result = Rampa.on(doc.state())
        .strategy(doc.strategy())
        .importance(doc.importance())
        .options(doc.options())
        .place(doc.request());
    spec.commandLine().getOut().println(RampaJson.write(result));
    return 0;
  }
}
