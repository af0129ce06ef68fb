package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.share.Whole;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
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
  static final int FULL_MODEL_INSTANCES = 60;
  static final int CPSAT_INSTANCES = 40;

  @Test
  void exactEqualsTheSharedOracle() {
    compare(ExactStrategy.scip(), 0, INSTANCES, false);
  }

  @Test
  void cpSatEqualsTheSharedOracle() {
    compare(ExactStrategy.cpSat(), 3_000, CPSAT_INSTANCES, false);
  }

  /** The co-location model alone (no relaxation first), where shared stages may sit on node slots, is exact too. */
  @Test
  void fullCoLocationModelEqualsTheSharedOracle() {
    compare(ExactStrategy.scip(), 5_000, FULL_MODEL_INSTANCES, true);
  }

  private static void compare(ExactStrategy exact, long firstSeed, int instances, boolean fullModel) {
    int[] counts = new int[5]; // feasible, OPTIMAL at the oracle's cost, INFEASIBLE, shared optima, plans on a node slot's cut
    for (long seed = firstSeed; seed < firstSeed + instances; seed++) {
      PlacementProblem p = TinySharedProblems.generate(seed, 6);
      if (fullModel) {
        Map<String, String> extra = new HashMap<>(p.options().extra());
        extra.put("model", "full");
        p = new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(),
            StrategyOptions.builder().from(p.options()).extra(extra).build());
      }
      PlacementProblem problem = p;
      Optional<BruteForcePlacement.Optimum> oracle = BruteForcePlacement.solve(p, SharingOptions.on());
      PlacementResult result = exact.place(problem);
      String context = "seed " + seed + "\nresult " + result + "\noracle " + oracle.map(o -> o.plan().toString()).orElse("none");
      result.plan().ifPresent(plan -> {
        assertThat(new PlanVerifier(problem.performance(), problem.interference()).verify(problem.request(), plan, problem.state())
            .violations()).as(context).isEmpty();
        assertThat(InterferenceGuard.defaults().refusals(problem.state(), problem.request(), plan)).as(context).isEmpty();
      });
      if (oracle.isEmpty()) {
        assertThat(result.status()).as(context).isEqualTo(SolveStatus.INFEASIBLE);
        counts[2]++;
        continue;
      }
      counts[0]++;
      assertThat(result.status()).as(context).isEqualTo(SolveStatus.OPTIMAL);
      ExactStrategyOracleTest.assertCostEquals(result.plan().get().cost(), oracle.get().cost(), context);
      counts[1]++;
      counts[3] += result.plan().get().stages().stream().anyMatch(s -> !(s.placement() instanceof Whole)) ? 1 : 0;
    }
    System.out.printf("%s%s vs shared oracle, %d instances: %d feasible, %d OPTIMAL at the oracle's cost, %d of them on a share; "
        + "%d infeasible, %d INFEASIBLE%n", exact.name(), fullModel ? " (model=full)" : "", instances, counts[0], counts[1], counts[3],
        instances - counts[0], counts[2]);
    assertThat(counts[3]).as("plans that use a share").isGreaterThan(instances / 10);
  }
}
