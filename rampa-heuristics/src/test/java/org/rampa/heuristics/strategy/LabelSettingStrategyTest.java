package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.ImmutableStrategyOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.testing.TinyPlacementProblems;

/** DP(b) against the brute-force oracle on tiny instances (at most 8 layers, 6 GPUs, 3 nodes). */
class LabelSettingStrategyTest {

  @Test
  void matchesBruteForceWhenOptimalAndIsInfeasibleExactlyWhenBruteForceFindsNothing() {
    int optimal = 0;
    int infeasible = 0;
    for (long seed = 1; seed <= 250; seed++) {
      PlacementProblem problem = TinyPlacementProblems.generate(seed, 8, 6);
      for (boolean withIncumbent : new boolean[] {true, false}) {
        PlacementProblem p = withIncumbent ? problem : new PlacementProblem(problem.request(), problem.state(), problem.importance(),
            problem.performance(), ImmutableStrategyOptions.copyOf(problem.options()).withExtra(Map.of("incumbent", "none")));
        Optional<BruteForcePlacement.Optimum> optimum = BruteForcePlacement.solve(p);
        PlacementResult result = Strategies.named("dp").place(p);
        String msg = "seed " + seed + " incumbent " + withIncumbent + ": " + result + " vs brute force " + optimum;
        assertThat(result.statistics().get("truncated")).as(msg).isZero();
        if (optimum.isEmpty()) {
          assertThat(result.status()).as(msg).isEqualTo(SolveStatus.INFEASIBLE);
          assertThat(result.reason()).as(msg).isNotBlank();
          infeasible++;
          continue;
        }
        assertThat(result.status().hasPlan()).as(msg).isTrue();
        HeuristicStrategiesTest.assertVerified(p, result.plan().get(), msg);
        if (result.status() == SolveStatus.OPTIMAL) {
          assertThat(result.plan().get().cost()).as(msg).isCloseTo(optimum.get().cost(), within(1e-9));
          optimal++;
        }
      }
    }
    assertThat(optimal).isGreaterThan(150);
    assertThat(infeasible).isGreaterThan(50);
  }
}
