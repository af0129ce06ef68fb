package org.rampa.solver;

import java.time.Duration;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;

/**
 * Timing of the shared instances whose relaxed plan needs intra-node links it does not get, so that
 * exact solves the co-location model (node slots): {@code gpus,...} {@code blocks} {@code firstSeed-lastSeed}
 * {@code limitSeconds}; prints status, cost, wall time, the arc counts and the statistics per instance.
 */
public final class SlottedSlowCases {

  public static void main(String[] args) {
    int blocks = Integer.parseInt(args[1]);
    String[] seeds = args[2].split("-"); // first-last
    long first = Long.parseLong(seeds[0]);
    long last = Long.parseLong(seeds[seeds.length - 1]);
    Duration limit = Duration.ofSeconds(Long.parseLong(args[3]));
    ExactStrategy exact = ExactStrategy.scip();
    for (String g : args[0].split(",")) {
      int gpus = Integer.parseInt(g);
      for (long seed = first; seed <= last; seed++) {
        PlacementProblem p = SharedClusters.problem(gpus, blocks, seed, true, limit);
        long t0 = System.nanoTime();
        PlacementResult result = exact.place(p);
        var stats = result.statistics();
        System.out.printf("gpus %d seed %d %s %.1f ms cost %s bound %s exactArcs %s exactArcsSolved %s%n  %s%n", gpus, seed,
            result.status(), (System.nanoTime() - t0) / 1e6, result.plan().map(pl -> String.valueOf(pl.cost())).orElse("-"),
            result.bound().isPresent() ? String.valueOf(result.bound().getAsDouble()) : "-", stats.get("exactArcs"), stats.get("exactArcsSolved"), stats);
      }
    }
  }

  private SlottedSlowCases() {}
}
