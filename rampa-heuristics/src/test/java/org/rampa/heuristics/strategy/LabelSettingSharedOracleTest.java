package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.function.LongFunction;
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
 * "dp" on shared GPUs against the brute-force oracle over the same menu, on seeded tiny shared
 * clusters: every plan passes the verifier with its interference rule, OPTIMAL costs exactly the
 * oracle's optimum, INFEASIBLE only when the oracle finds nothing, and a plan never costs less
 * than the oracle's.
 */
class LabelSettingSharedOracleTest {

  static final int INSTANCES = 120;
  static final int SIX_GPU_INSTANCES = 60;
  static final int ONE_TYPE_INSTANCES = 60;

  @Test
  void dpAgreesWithTheSharedOracleWheneverItSaysOptimal() {
    compare(0, INSTANCES, 4);
  }

  /** Up to 6 GPUs on three nodes (two of A100s). */
  @Test
  void dpAgreesWithTheSharedOracleOnSixGpus() {
    compare(7_000, SIX_GPU_INSTANCES, 6);
  }

  /** Up to 6 NPUs on two nodes, free, held whole or holding templates. */
  @Test
  void dpAgreesWithTheSharedOracleOnNpuTemplates() {
    compare(9_000, ONE_TYPE_INSTANCES, 6, seed -> TinySharedProblems.generateNpu(seed, 6, 6));
  }

  /** Up to 6 MI100s on two nodes, free, held whole or holding CU masks. */
  @Test
  void dpAgreesWithTheSharedOracleOnMi100CuMasks() {
    compare(9_500, ONE_TYPE_INSTANCES, 6, seed -> TinySharedProblems.generateMi100(seed, 6, 6));
  }

  private static void compare(long firstSeed, int instances, int maxGpus) {
    compare(firstSeed, instances, maxGpus, seed -> TinySharedProblems.generate(seed, 6, maxGpus));
  }

  private static void compare(long firstSeed, int instances, int maxGpus, LongFunction<PlacementProblem> generate) {
    int[] counts = new int[6]; // oracle feasible, OPTIMAL, FEASIBLE, INFEASIBLE, other, plans using a share
    for (long seed = firstSeed; seed < firstSeed + instances; seed++) {
      PlacementProblem p = generate.apply(seed);
      Optional<BruteForcePlacement.Optimum> oracle = BruteForcePlacement.solve(p, SharingOptions.on());
      PlacementResult result = new LabelSettingStrategy().place(p);
      String context = "seed " + seed + "\nresult " + result + "\noracle " + oracle.map(o -> o.plan().toString()).orElse("none");
      result.plan().ifPresent(plan -> {
        assertThat(new PlanVerifier(p.performance(), p.interference()).verify(p.request(), plan, p.state()).violations())
            .as(context).isEmpty();
        assertThat(new InterferenceGuard(p.performance(), p.interference()).refusals(p.state(), p.request(), plan)).as(context).isEmpty();
        assertThat(plan.cost()).as(context).isGreaterThanOrEqualTo(oracle.get().cost() * (1 - 1e-9) - 1e-9);
        counts[5] += plan.stages().stream().anyMatch(s -> !(s.placement() instanceof Whole)) ? 1 : 0;
      });
      counts[0] += oracle.isPresent() ? 1 : 0;
      switch (result.status()) {
        case OPTIMAL -> {
          assertThat(oracle).as(context).isPresent();
          assertThat(Math.abs(result.plan().get().cost() - oracle.get().cost())).as(context)
              .isLessThanOrEqualTo(1e-6 * Math.max(1, oracle.get().cost()));
          counts[1]++;
        }
        case FEASIBLE -> counts[2]++;
        case INFEASIBLE -> {
          assertThat(oracle).as(context).isEmpty();
          counts[3]++;
        }
        default -> counts[4]++;
      }
    }
    System.out.printf("dp vs shared oracle, %d instances of <= %d GPUs (%d feasible): %d OPTIMAL (all at the oracle's cost), %d FEASIBLE, "
        + "%d INFEASIBLE (all confirmed), %d other; %d plans use a share%n", instances, maxGpus, counts[0], counts[1], counts[2], counts[3],
        counts[4], counts[5]);
    assertThat(counts[1]).as("OPTIMAL answers").isGreaterThan(instances / 4);
  }
}
