package org.rampa.examples.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rampa.Rampa;
import org.rampa.domain.Invalid;
import org.rampa.heuristics.moves.GreedyDefragmenter;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.Defragmenter;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.MoveRules;
import org.rampa.solver.moves.ExactDefragmenter;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "defrag", mixinStandardHelpOptions = true,
    description = {"Defragment a cluster for a quiet period: read a problem document (its cluster, allocations,",
        "migLayouts, options and \"moves\": {\"budget\", \"costs\"}; its request is not used) and print the moves, in",
        "the order to apply them, that most increase what the forecast demand can still place without moves (the",
        "room: free capacity each menu entry can use, weighted by --demand), with the room before and after.",
        "Every intermediate state is legal and keeps every moved or touched service within its SLO. The status is",
        "OPTIMAL when proven (exact, or a budget of 0), else FEASIBLE."})
final class DefragCommand implements Callable<Integer> {

  /** The defragmenters {@code --defragmenter} may name. */
  static final List<String> DEFRAGMENTERS = List.of("greedy", "exact");

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PROBLEM.json", description = "The problem document (as for plan).")
  Path problem;

  @Option(names = "--budget", paramLabel = "N",
      description = "The most moves, in [0, 16] (default: the document's moves.budget).")
  Integer budget;

  @Option(names = "--defragmenter", defaultValue = "greedy", paramLabel = "NAME",
      description = "greedy (fast, step by step, proves nothing) or exact (branch and bound: the most room, then the least price, "
          + "proven OPTIMAL unless the document's time limit stops it; for small clusters or budgets). Default: ${DEFAULT-VALUE}.")
  String defragmenter;

  @Option(names = "--demand", paramLabel = "ENTRY=WEIGHT", split = ",",
      description = "Forecast demand per menu entry, each weight finite and >= 0: whole, a MIG profile (3g.40gb), or "
          + "'TYPE mps LEVEL' (A100-SXM4-80GB mps 0.5); entries not listed weigh 1.")
  Map<String, Double> demand = new LinkedHashMap<>();

  @Override
  public Integer call() {
    if (!DEFRAGMENTERS.contains(defragmenter)) {
      throw Invalid.value("--defragmenter", defragmenter, "is not a defragmenter", "use one of " + DEFRAGMENTERS);
    }
    ProblemDocument doc = RampaJson.read(problem, ProblemDocument.class);
    PlacementProblem p = Rampa.on(doc.state()).options(doc.options()).problem(doc.request());
    ForecastRoom room = new ForecastRoom(demand, mpsLevels(doc.options()));
    DefragProblem defrag = new DefragProblem(doc.state(), doc.moves().rules(MoveRules.of(p)), budget == null ? doc.moves().budget() : budget, doc.moves().costs(),
        room, p.options().timeLimit());
    Defragmenter chosen = defragmenter.equals("exact") ? new ExactDefragmenter(new GreedyDefragmenter()) : new GreedyDefragmenter();
    DefragResult d = chosen.defragment(defrag);
    ObjectNode out = RampaJson.mapper().createObjectNode();
    out.put("defragmenter", d.defragmenter());
    out.put("status", d.status().name());
    out.put("budget", defrag.budget());
    PlanCommand.writeMoves(out.putArray("moves"), d.moves());
    out.put("moveCost", d.moveCost());
    out.put("roomBefore", d.roomBefore());
    out.put("roomAfter", d.roomAfter());
    out.put("strandedBefore", room.stranded(doc.state()));
    out.put("strandedAfter", room.stranded(d.after()));
    out.put("evaluated", d.explored());
    out.put("reason", d.reason());
    spec.commandLine().getOut().println(RampaJson.write(out));
    return 0;
  }

  /** The menu's MPS levels as the document's sharing options give them (the default levels when it names none). */
  private static List<Double> mpsLevels(StrategyOptions options) {
    Map<String, String> sharing = new LinkedHashMap<>(options.extra());
    sharing.keySet().retainAll(SharingOptions.KEYS);
    StrategyOptions only = StrategyOptions.builder().from(options).extra(sharing).build();
    return SharingOptions.of(ExtraOptions.of(only, "sharing", SharingOptions.KEYS)).mpsLevels();
  }
}
