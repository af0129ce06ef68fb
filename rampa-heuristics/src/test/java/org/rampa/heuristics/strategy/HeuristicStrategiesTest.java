package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.domain.Plan;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.testing.TinyPlacementProblems;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/** Properties every heuristic strategy must have, checked against the brute-force optimum. */
class HeuristicStrategiesTest {

  static final List<String> HEURISTICS = List.of(
      "greedy", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit");

  @Test
  void everyStrategyIsFoundByName() {
    assertThat(Strategies.available()).containsAll(HEURISTICS).contains("dp");
    for (String name : List.of("greedy", "dp", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit")) {
      assertThat(Strategies.named(name).name()).isEqualTo(name);
    }
  }

  @Test
  void plansAreVerifiedNeverCheaperThanTheOptimumAndInfeasibleOnlyWhenNothingExists() {
    int feasible = 0;
    int greedyFound = 0;
    for (long seed = 1; seed <= 150; seed++) {
      PlacementProblem problem = TinyPlacementProblems.generate(seed, 6, 5);
      Optional<BruteForcePlacement.Optimum> optimum = BruteForcePlacement.solve(problem);
      feasible += optimum.isPresent() ? 1 : 0;
      for (String name : HEURISTICS) {
        PlacementResult result = Strategies.named(name).place(problem);
        String msg = "seed " + seed + ", strategy " + name + ", result " + result;
        assertThat(result.strategy()).as(msg).isEqualTo(name);
        if (optimum.isEmpty()) {
          assertThat(result.status()).as(msg).isIn(SolveStatus.INFEASIBLE, SolveStatus.NO_PLAN_FOUND);
        } else {
          assertThat(result.status()).as(msg).isNotEqualTo(SolveStatus.INFEASIBLE); // a heuristic proves nothing
        }
        if (result.status().hasPlan()) {
          assertVerified(problem, result.plan().get(), msg);
          assertThat(result.plan().get().cost()).as(msg).isGreaterThanOrEqualTo(optimum.get().cost() - 1e-9);
          if (name.equals("greedy")) {
            greedyFound++;
          }
        } else {
          assertThat(result.reason()).as(msg).isNotBlank();
        }
      }
    }
    // the generator must exercise both outcomes, and greedy must find most feasible instances
    assertThat(feasible).isBetween(30, 140);
    assertThat(greedyFound).isGreaterThanOrEqualTo(feasible * 6 / 10);
  }

  @Test
  void sameSeedSamePlan() {
    PlacementProblem problem = TinyPlacementProblems.generate(7, 6, 5);
    for (String name : List.of("greedy", "dp", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit")) {
      PlacementStrategy s = Strategies.named(name);
      assertThat(s.place(problem).plan()).as(name).isEqualTo(s.place(problem).plan());
    }
  }

  @Test
  void theFluentEntryPointRunsEveryStrategy() {
    PlacementProblem problem = TinyPlacementProblems.generate(3, 6, 5);
    for (String name : List.of("greedy", "dp", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit")) {
      for (TransferMode mode : TransferMode.values()) {
        // Rampa verifies the plan itself and throws if a strategy returned a rejected one
        PlacementResult r = Rampa.on(problem.state()).strategy(name).importance(problem.importance()).transfers(mode)
            .place(problem.request());
        assertThat(r.status().hasPlan() || !r.reason().isBlank()).as(name + " " + mode).isTrue();
      }
    }
  }

  static void assertVerified(PlacementProblem problem, Plan plan, String msg) {
    Verification v = new PlanVerifier(problem.performance()).verify(problem.request(), plan, problem.state());
    assertThat(v.violations()).as(msg).isEmpty();
    assertThat(plan.cost()).as(msg).isCloseTo(problem.importance().evaluate(problem.state()).of(plan, problem.state()), within(1e-9));
  }
}
