package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.rampa.domain.share.Whole;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.testing.TinySharedProblems;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanVerifier;
import org.junit.jupiter.api.Test;

/**
 * Exact on shared GPUs against the brute-force oracle over the same menu, on seeded tiny shared
 * clusters (at most 4 GPUs, 6 layers, MPS incumbents, MIG layouts, whole holdings): every plan
 * passes the verifier with its interference rule (every incumbent's SLO), OPTIMAL costs what the
 * oracle's optimum costs, INFEASIBLE only when the oracle finds nothing, and a plan is found
 * whenever the oracle finds one.
 */
class ExactSharedOracleTest {

  static final int INSTANCES = 120;

  @Test
  void exactEqualsTheSharedOracle() {
    int[] counts = new int[6]; // feasible, optimal-and-equal, infeasible both, feasible-not-proven, shared optima, no plan
    for (long seed = 0; seed < INSTANCES; seed++) {
      PlacementProblem p = TinySharedProblems.generate(seed, 6);
      Optional<BruteForcePlacement.Optimum> oracle = BruteForcePlacement.solve(p, SharingOptions.on());
      PlacementResult result = ExactStrategy.scip().place(p);
      String context = "seed " + seed + "\nresult " + result + "\noracle " + oracle.map(o -> o.plan().toString()).orElse("none");
      result.plan().ifPresent(plan -> {
        assertThat(new PlanVerifier(p.performance(), p.interference()).verify(p.request(), plan, p.state()).violations())
            .as(context).isEmpty();
        assertThat(InterferenceGuard.defaults().refusals(p.state(), p.request(), plan)).as(context).isEmpty();
      });
      if (oracle.isEmpty()) {
        assertThat(result.status()).as(context).isIn(SolveStatus.INFEASIBLE, SolveStatus.NO_PLAN_FOUND);
        counts[2] += result.status() == SolveStatus.INFEASIBLE ? 1 : 0;
        counts[5] += result.status() == SolveStatus.NO_PLAN_FOUND ? 1 : 0;
        continue;
      }
      counts[0]++;
      assertThat(result.status()).as(context).isIn(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE);
      double cost = result.plan().get().cost();
      if (result.status() == SolveStatus.OPTIMAL) {
        ExactStrategyOracleTest.assertCostEquals(cost, oracle.get().cost(), context);
        counts[1]++;
      } else {
        assertThat(cost).as(context).isGreaterThanOrEqualTo(oracle.get().cost() * (1 - 1e-6));
        counts[3]++;
      }
      counts[4] += result.plan().get().stages().stream().anyMatch(s -> !(s.placement() instanceof Whole)) ? 1 : 0;
    }
    System.out.printf("exact vs shared oracle, %d instances: %d feasible (%d OPTIMAL at the oracle's cost, %d FEASIBLE), "
        + "%d plans use a share; %d infeasible (%d INFEASIBLE, %d NO_PLAN_FOUND)%n", INSTANCES, counts[0], counts[1], counts[3],
        counts[4], INSTANCES - counts[0], counts[2], counts[5]);
    assertThat(counts[4]).as("plans that use a share").isGreaterThan(INSTANCES / 10);
  }
}
