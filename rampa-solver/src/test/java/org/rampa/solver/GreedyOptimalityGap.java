package org.rampa.solver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.testing.TinyPlacementProblems;

/**
 * Measures how far the greedy and dp strategies' costs are from the exact optimum (cost / optimal
 * cost) on the solver benchmark set (64 and 1000 GPUs, 32 and 80 blocks, moderate and tight SLOs,
 * per-type importance) and on tiny random instances with random per-GPU costs. A report, not a
 * test: run its main (the command is in BENCHMARKS.md).
 */
public final class GreedyOptimalityGap {

  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    List<PlacementProblem> benchmark = new ArrayList<>();
    for (int gpus : new int[] {64, 1000}) {
      for (int blocks : new int[] {32, 80}) {
        for (boolean tight : new boolean[] {false, true}) {
          for (long seed = 1; seed <= seeds; seed++) {
            benchmark.add(TransformerClusters.problem(gpus, blocks, seed, tight));
          }
        }
      }
    }
    List<PlacementProblem> tiny = new ArrayList<>();
    for (long seed = 1; seed <= 40L * seeds; seed++) {
      tiny.add(TinyPlacementProblems.generate(seed, 8, 6));
    }
    for (String heuristic : List.of("greedy", "dp")) {
      report(heuristic, "benchmark set (" + benchmark.size() + " instances)", benchmark);
      report(heuristic, "tiny random, per-GPU costs (" + tiny.size() + " instances)", tiny);
    }
  }

  private static void report(String heuristic, String set, List<PlacementProblem> problems) {
    List<Double> ratios = new ArrayList<>();
    int heuristicMissed = 0;
    for (PlacementProblem p : problems) {
      PlacementResult exact = Strategies.named("exact").place(p);
      if (exact.status() != SolveStatus.OPTIMAL) {
        continue;
      }
      PlacementResult h = Strategies.named(heuristic).place(p);
      if (h.plan().isEmpty()) {
        heuristicMissed++;
        continue;
      }
      double optimum = exact.plan().orElseThrow().cost();
      ratios.add(optimum > 0 ? h.plan().orElseThrow().cost() / optimum : 1.0);
    }
    ratios.sort(null);
    if (ratios.isEmpty()) {
      System.out.printf("%s on %s: no instance with an optimum%n", heuristic, set);
      return;
    }
    long atOptimum = ratios.stream().filter(r -> r <= 1 + 1e-9).count();
    System.out.printf(Locale.ROOT, "%-6s %-45s n=%d  at optimum %d (%.0f %%)  ratio median %.3f  p90 %.3f  max %.3f  no plan where one exists: %d%n",
        heuristic, set, ratios.size(), atOptimum, 100.0 * atOptimum / ratios.size(), quantile(ratios, 0.5), quantile(ratios, 0.9),
        ratios.get(ratios.size() - 1), heuristicMissed);
  }

  private static double quantile(List<Double> sorted, double q) {
    return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(q * sorted.size()) - 1));
  }

  private GreedyOptimalityGap() {}
}
