package org.rampa.examples.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.rampa.Rampa;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rampa.heuristics.moves.GreedyMover;
import org.rampa.json.MovesDocument;
import org.rampa.json.ProblemDocument;
import org.rampa.moves.Migration;
import org.rampa.moves.Move;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.Mover;
import org.rampa.moves.MovesResult;
import org.rampa.solver.moves.ExactMover;
import org.rampa.json.RampaJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "plan", mixinStandardHelpOptions = true,
    description = {"Plan one service: read a problem JSON (cluster, allocations, request, strategy, options,",
        "importanceByType) and print the result JSON (status, plan with stages, GPUs, predicted throughput",
        "and latency, cost, solve time, the MPS fault domains a shared plan joins; or the reason there is none).",
        "With \"moves\": {\"budget\": N} the result also lists \"moves\" (kind, service, from, to) in the order to apply them.",
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
    Rampa.Placer placer = Rampa.on(doc.state())
        .strategy(doc.strategy())
        .importance(doc.importance())
        .options(doc.options());
    if (doc.moves().budget() == 0) {
      spec.commandLine().getOut().println(RampaJson.write(placer.place(doc.request())));
      return 0;
    }
    MovesDocument m = doc.moves();
    Mover mover = m.search().equals("greedy") ? new GreedyMover() : new ExactMover();
    MoveProblem problem = MoveProblem.of(placer, doc.request(), m.budget(), m.costs());
    MovesResult moved = mover.admit(problem.withRules(m.rules(problem.rules())));
    spec.commandLine().getOut().println(RampaJson.write(withMoves(moved)));
    return 0;
  }

  /**
   * The newcomer's result on the state after the moves, with {@code "moves"} at its top level in
   * the order to apply them and {@code "moveSearch"} saying what the search proved; without a plan,
   * {@code status} and {@code reason} are the search's.
   */
  static ObjectNode withMoves(MovesResult moved) {
    ObjectNode out = moved.placement().map(p -> (ObjectNode) RampaJson.mapper().valueToTree(p)).orElseGet(RampaJson.mapper()::createObjectNode);
    if (moved.plan().isEmpty()) {
      out.remove("plan");
      out.put("status", moved.status().name());
      out.put("reason", moved.reason());
    }
    writeMoves(out.putArray("moves"), moved.moves());
    ObjectNode search = out.putObject("moveSearch");
    search.put("search", moved.mover());
    search.put("status", moved.status().name());
    search.put("cost", moved.moveCost());
    search.put("statesPlaced", moved.explored());
    search.put("reason", moved.reason());
    return out;
  }

  /** {@code moves} in order, each as {@code kind}, {@code service} (null for re-cuts and mode changes), {@code stage} (migrations), {@code from}, {@code to}. */
  static void writeMoves(ArrayNode array, List<Move> moves) {
    for (Move x : moves) {
      ObjectNode n = array.addObject();
      n.put("kind", x.kind());
      n.put("service", x.service());
      if (x instanceof Migration mig) {
        n.put("stage", mig.stage());
      }
      n.put("from", x.from());
      n.put("to", x.to());
    }
  }
}
