package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Link;
import org.rampa.domain.Plan;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.verify.PlanVerifier;

/** The exact optimum equals the brute-force optimum on tiny instances, for both backends. */
class ExactStrategyOracleTest {

  private static final int SCIP_INSTANCES = 600;
  private static final int CPSAT_INSTANCES = 300;
  private static final int FULL_MODEL_INSTANCES = 300;

  @Test
  void scipMatchesBruteForce() {
    compare(ExactStrategy.scip(), SCIP_INSTANCES, 1_000, false);
  }

  @Test
  void cpSatMatchesBruteForce() {
    compare(ExactStrategy.cpSat(), CPSAT_INSTANCES, 5_000, false);
  }

  /** The co-location model alone (no relaxation first) is exact too, on both backends. */
  @Test
  void fullCoLocationModelMatchesBruteForce() {
    compare(ExactStrategy.scip(), FULL_MODEL_INSTANCES, 7_000, true);
    compare(ExactStrategy.cpSat(), FULL_MODEL_INSTANCES / 2, 8_000, true);
  }

  @Test
  void slowIntraNodeLinksStaySound() {
    int feasible = 0;
    for (long seed = 9_000; seed < 9_080; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, true);
      Optional<BruteForcePlacement.Optimum> brute = BruteForcePlacement.solve(p);
      PlacementResult result = ExactStrategy.scip().place(p);
      String context = "seed " + seed + " " + TinyInstances.describe(p) + " result " + result;
      assertVerified(p, result, context);
      if (result.status() == SolveStatus.OPTIMAL) {
        assertThat(brute).as(context).isPresent();
        assertCostEquals(result.plan().get().cost(), brute.get().cost(), context);
      } else if (result.status() == SolveStatus.FEASIBLE) {
        assertThat(result.plan().get().cost()).as(context).isGreaterThanOrEqualTo(brute.get().cost() * (1 - 1e-6));
        assertThat(result.bound().getAsDouble()).as(context).isLessThanOrEqualTo(brute.get().cost() * (1 + 1e-6));
      } else if (result.status() == SolveStatus.INFEASIBLE) {
        assertThat(brute).as(context).isEmpty();
      }
      feasible += brute.isPresent() ? 1 : 0;
    }
    assertThat(feasible).isGreaterThan(10);
  }

  private static void compare(ExactStrategy strategy, int instances, long firstSeed, boolean fullModel) {
    int feasible = 0;
    int infeasible = 0;
    int withReplicas = 0;
    int multiStage = 0;
    int intraNodeCuts = 0;
    for (long seed = firstSeed; seed < firstSeed + instances; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, false);
      if (fullModel) {
        p = new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(),
            StrategyOptions.builder().from(p.options()).extra(Map.of("model", "full")).build());
      }
      Optional<BruteForcePlacement.Optimum> brute = BruteForcePlacement.solve(p);
      PlacementResult result = strategy.place(p);
      String context = "seed " + seed + " " + TinyInstances.describe(p) + "\nresult " + result + "\nbrute " + brute;
      assertVerified(p, result, context);
      if (brute.isPresent()) {
        feasible++;
        assertThat(result.status()).as(context).isEqualTo(SolveStatus.OPTIMAL);
        assertCostEquals(result.plan().get().cost(), brute.get().cost(), context);
        withReplicas += result.plan().get().stages().stream().anyMatch(s -> s.replicas() > 1) ? 1 : 0;
        multiStage += result.plan().get().stages().size() > 1 ? 1 : 0;
        intraNodeCuts += intraNodeCuts(p, result.plan().get());
      } else {
        infeasible++;
        assertThat(result.status()).as(context).isEqualTo(SolveStatus.INFEASIBLE);
        assertThat(result.reason()).as(context).isNotBlank();
      }
    }
    assertThat(feasible).as("feasible instances").isGreaterThanOrEqualTo(instances / 5);
    assertThat(infeasible).as("infeasible instances").isGreaterThanOrEqualTo(instances / 5);
    assertThat(withReplicas).as("optimal plans with replicas").isGreaterThanOrEqualTo(5);
    assertThat(multiStage).as("optimal plans with several stages").isGreaterThanOrEqualTo(5);
    assertThat(intraNodeCuts).as("intra-node cuts in optimal plans").isGreaterThanOrEqualTo(3);
  }

  private static int intraNodeCuts(PlacementProblem p, Plan plan) {
    int intra = 0;
    for (int k = 1; k < plan.stages().size(); k++) {
      Link link = PerformanceModel.linkBetween(p.state().cluster(), plan.stages().get(k - 1).gpus(), plan.stages().get(k).gpus());
      intra += link.equals(p.state().cluster().network()) ? 0 : 1;
    }
    return intra;
  }

  static void assertVerified(PlacementProblem p, PlacementResult result, String context) {
    result.plan().ifPresent(plan -> {
      assertThat(new PlanVerifier(p.performance()).verify(p.request(), plan, p.state()).violations())
          .as(context).isEmpty();
      double recomputed = p.importance().evaluate(p.state()).of(plan, p.state());
      assertCostEquals(plan.cost(), recomputed, context);
    });
  }

  static void assertCostEquals(double actual, double expected, String context) {
    assertThat(Math.abs(actual - expected)).as(context + "\ncost " + actual + " vs " + expected)
        .isLessThanOrEqualTo(1e-6 * Math.max(1, Math.abs(expected)));
  }
}
