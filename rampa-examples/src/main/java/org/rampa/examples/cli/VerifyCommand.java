package org.rampa.examples.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.rampa.Rampa;
import org.rampa.domain.Invalid;
import org.rampa.domain.Plan;
import org.rampa.json.InputFiles;
import org.rampa.json.JsonInputException;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.verify.Verification;
import org.rampa.verify.Violation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "verify", mixinStandardHelpOptions = true,
    description = {"Re-check a plan someone else produced against a problem document, with the verifier every RAMPA plan",
        "passes: coverage of the model, GPUs of the cluster, free resources and the sharing rules (MIG layouts,",
        "MPS sums and clients, templates), memory, the SLO, the plan's stated predictions, and every incumbent's",
        "SLO under interference on the GPUs it shares. Prints every violation as JSON; exit 0 when the plan is",
        "valid, 3 when it is not, 2 when an input cannot be read."})
final class VerifyCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--problem", required = true, paramLabel = "PROBLEM.json",
      description = "The problem document (as for plan): cluster, allocations, migLayouts, mpsOvercommit, request, options.")
  Path problem;

  @Option(names = "--plan", required = true, paramLabel = "PLAN.json",
      description = "The plan: a plan object (serviceId, stages, period, throughput, latency), or the result JSON rampa plan prints.")
  Path plan;

  @Override
  public Integer call() {
    ProblemDocument doc = RampaJson.read(problem, ProblemDocument.class);
    Plan p = readPlan(plan);
    Verification verdict = Rampa.on(doc.state()).options(doc.options()).verify(doc.request(), p);
    ObjectNode root = RampaJson.mapper().createObjectNode();
    root.put("valid", verdict.ok());
    root.put("serviceId", p.serviceId());
    ArrayNode violations = root.putArray("violations");
    for (Violation v : verdict.violations()) {
      violations.addObject().put("kind", v.kind().name()).put("message", v.message());
    }
    verdict.recomputed().ifPresentOrElse(e -> root.set("recomputed", RampaJson.mapper().valueToTree(e)), () -> root.putNull("recomputed"));
    spec.commandLine().getOut().println(RampaJson.write(root));
    return verdict.ok() ? 0 : RampaCli.PLAN_INVALID;
  }

  /** A plan object, or the plan inside a result document of {@code rampa plan}. */
  private static Plan readPlan(Path file) {
    String text = InputFiles.readText(file);
    JsonNode root;
    try {
      root = RampaJson.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw Invalid.value("--plan", file, "is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw Invalid.value("--plan", file, "must hold a JSON object: a plan, or the result rampa plan prints");
    }
    String at = "$";
    if (root.has("status")) {
      JsonNode inner = root.get("plan");
      if (inner == null || !inner.isObject()) {
        throw Invalid.value("--plan", file, "is a result with status " + root.get("status") + " and no plan to verify");
      }
      root = inner;
      at = "$.plan";
    }
    try {
      return RampaJson.read(root.toString(), Plan.class);
    } catch (JsonInputException e) {
      throw new IllegalArgumentException("--plan " + file + (at.equals("$") ? "" : " (the result's plan, at " + at + ")") + ": " + e.getMessage(), e);
    }
  }
}
