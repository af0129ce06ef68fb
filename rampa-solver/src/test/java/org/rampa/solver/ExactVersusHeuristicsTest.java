package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;

/** The exact optimum is never worse than any heuristic's plan, and heuristics warm-start it. */
class ExactVersusHeuristicsTest {

  private static List<PlacementStrategy> heuristics() {
    List<PlacementStrategy> out = new ArrayList<>();
    for (String name : Strategies.available()) {
      if (!name.startsWith("exact")) {
        out.add(Strategies.named(name));
      }
    }
    return out;
  }

  @Test
  void exactOptimumIsNeverWorseThanAnyHeuristic() {
    List<PlacementStrategy> heuristics = heuristics();
    assertThat(heuristics).extracting(PlacementStrategy::name).contains("greedy", "dp");
    int heuristicPlans = 0;
    for (long seed = 50_000; seed < 50_150; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, false);
      PlacementResult exact = ExactStrategy.scip().place(p);
      ExactStrategyOracleTest.assertVerified(p, exact, "exact, seed " + seed);
      assertThat(exact.status()).as("seed " + seed).isIn(SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE);
      for (PlacementStrategy h : heuristics) {
        PlacementResult r = h.place(p);
        String context = "seed " + seed + " " + h.name() + "\n" + r + "\nexact " + exact;
        ExactStrategyOracleTest.assertVerified(p, r, context);
        if (r.plan().isPresent()) {
          heuristicPlans++;
          assertThat(exact.status()).as(context).isEqualTo(SolveStatus.OPTIMAL);
          assertThat(exact.plan().get().cost()).as(context)
              .isLessThanOrEqualTo(r.plan().get().cost() * (1 + 1e-6) + 1e-9);
        }
      }
    }
    assertThat(heuristicPlans).as("heuristic plans compared").isGreaterThanOrEqualTo(50);
  }

  @Test
  void warmStartFromGreedyKeepsTheOptimum() {
    ExactStrategy warm = ExactStrategy.scip().withWarmStart(Strategies.named("greedy"));
    int used = 0;
    for (long seed = 60_000; seed < 60_080; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, false);
      PlacementResult cold = ExactStrategy.scip().place(p);
      PlacementResult hot = warm.place(p);
      String context = "seed " + seed + "\ncold " + cold + "\nwarm " + hot;
      ExactStrategyOracleTest.assertVerified(p, hot, context);
      assertThat(hot.status()).as(context).isEqualTo(cold.status());
      if (cold.plan().isPresent()) {
        ExactStrategyOracleTest.assertCostEquals(hot.plan().get().cost(), cold.plan().get().cost(), context);
      }
      used += hot.statistics().getOrDefault("warmStartUsed", 0.0) > 0 ? 1 : 0;
    }
    assertThat(used).as("instances where greedy's plan became the MIP start").isGreaterThanOrEqualTo(5);
  }
}
