package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.TemplatePartition;
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
 * clusters (at most 4 or 6 GPUs, 6 layers, MPS incumbents, MIG layouts, whole holdings; NPUs with
 * template incumbents; MI100s with CU-mask incumbents): every plan
 * passes the verifier with its interference rule (every incumbent's SLO), OPTIMAL costs what the
 * oracle's optimum costs, INFEASIBLE only when the oracle finds nothing, and a plan is found
 * whenever the oracle finds one.
 */
class ExactSharedOracleTest {

  static final int INSTANCES = 120;
  static final int FULL_MODEL_INSTANCES = 60;
  static final int CPSAT_INSTANCES = 40;
  static final int SIX_GPU_INSTANCES = 60;
  static final int ONE_TYPE_INSTANCES = 60;

  @Test
  void exactEqualsTheSharedOracle() {
    compare(ExactStrategy.scip(), 0, INSTANCES, false, 4);
  }

  /** Up to 6 NPUs on two nodes, free, held whole or holding templates: the menu's templates and free template room. */
  @Test
  void exactEqualsTheSharedOracleOnNpuTemplates() {
    int[] counts = compare(ExactStrategy.scip(), 9_000, ONE_TYPE_INSTANCES, false, 6, seed -> TinySharedProblems.generateNpu(seed, 6, 6));
    assertThat(counts[5]).as("optima on a template").isGreaterThan(ONE_TYPE_INSTANCES / 10);
    assertThat(counts[6]).as("optima on the free cores of a partly used NPU").isPositive();
  }

  /** Up to 6 MI100s on two nodes, free, held whole or holding CU masks: CU-mask levels, contended like MPS. */
  @Test
  void exactEqualsTheSharedOracleOnMi100CuMasks() {
    int[] counts = compare(ExactStrategy.scip(), 9_500, ONE_TYPE_INSTANCES, false, 6, seed -> TinySharedProblems.generateMi100(seed, 6, 6));
    assertThat(counts[7]).as("optima on a CU mask").isGreaterThan(ONE_TYPE_INSTANCES / 10);
    assertThat(counts[6]).as("optima on a partly used MI100").isPositive();
  }

  /** Up to 6 GPUs on three nodes (two of A100s): more replicas and more node slots. */
  @Test
  void exactEqualsTheSharedOracleOnSixGpus() {
    compare(ExactStrategy.scip(), 7_000, SIX_GPU_INSTANCES, false, 6);
  }

  @Test
  void cpSatEqualsTheSharedOracle() {
    compare(ExactStrategy.cpSat(), 3_000, CPSAT_INSTANCES, false, 4);
  }

  /** The co-location model alone (no relaxation first), where shared stages may sit on node slots, is exact too. */
  @Test
  void fullCoLocationModelEqualsTheSharedOracle() {
    compare(ExactStrategy.scip(), 5_000, FULL_MODEL_INSTANCES, true, 6);
  }

  private static void compare(ExactStrategy exact, long firstSeed, int instances, boolean fullModel, int maxGpus) {
    compare(exact, firstSeed, instances, fullModel, maxGpus, seed -> TinySharedProblems.generate(seed, 6, maxGpus));
  }

  /**
   * Returns the counts: feasible, OPTIMAL, INFEASIBLE, on a share, co-location models solved pruned, on a template, on a partly used
   * GPU, on a CU mask.
   */
  private static int[] compare(ExactStrategy exact, long firstSeed, int instances, boolean fullModel, int maxGpus,
      LongFunction<PlacementProblem> generate) {
    int[] counts = new int[8]; // see the Javadoc
    for (long seed = firstSeed; seed < firstSeed + instances; seed++) {
      PlacementProblem p = generate.apply(seed);
      if (fullModel) {
        Map<String, String> extra = new HashMap<>(p.options().extra());
        extra.put("model", "full");
        p = new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(),
            StrategyOptions.builder().from(p.options()).extra(extra).build());
      }
      PlacementProblem problem = p;
      Optional<BruteForcePlacement.Optimum> oracle = BruteForcePlacement.solve(p, SharingOptions.on());
      PlacementResult result = exact.place(problem);
      Double solved = result.statistics().get("exactArcsSolved");
      counts[4] += solved != null && solved < result.statistics().get("exactArcs") ? 1 : 0;
      String context = "seed " + seed + "\nresult " + result + "\noracle " + oracle.map(o -> o.plan().toString()).orElse("none");
      result.plan().ifPresent(plan -> {
        assertThat(new PlanVerifier(problem.performance(), problem.interference()).verify(problem.request(), plan, problem.state())
            .violations()).as(context).isEmpty();
        assertThat(new InterferenceGuard(problem.performance(), problem.interference()).refusals(problem.state(), problem.request(), plan)).as(context).isEmpty();
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
      counts[5] += result.plan().get().stages().stream().anyMatch(s -> s.placement() instanceof TemplatePartition) ? 1 : 0;
      counts[7] += result.plan().get().stages().stream().anyMatch(s -> s.placement() instanceof CuMask) ? 1 : 0;
      counts[6] += result.plan().get().stages().stream().flatMap(s -> s.gpus().stream()).anyMatch(g -> !problem.state().holdingsOn(g).isEmpty())
          ? 1 : 0;
    }
    System.out.printf("%s%s vs shared oracle, %d instances of <= %d GPUs: %d feasible, %d OPTIMAL at the oracle's cost, %d of them on a share "
        + "(%d on a template, %d on a CU mask, %d on a partly used GPU); %d infeasible, %d INFEASIBLE; %d co-location models solved pruned%n",
        exact.name(), fullModel ? " (model=full)" : "", instances, maxGpus, counts[0], counts[1], counts[3], counts[5], counts[7], counts[6],
        instances - counts[0], counts[2], counts[4]);
    assertThat(counts[3]).as("plans that use a share").isGreaterThan(instances / 10);
    if (fullModel) {
      assertThat(counts[4]).as("co-location models solved pruned (else this test does not exercise CostBound there)")
          .isGreaterThan(instances / 4);
    }
    return counts;
  }
}
