package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.verify.PlanVerifier;

/**
 * Exact on medium shared clusters ({@link SharedClusters}: 64 or 200 GPUs, 16 to 48 blocks, MPS
 * and MIG incumbents), too large for the brute-force oracle: the optimal costs pinned here were
 * computed by the exact planner <em>before</em> its shared models were pruned by cost bounds
 * ({@link CostBound}; commit 9cf4ea4), so a pruning that cut an optimum away fails this test. Most
 * of these relaxations are solved pruned (asserted, so that the test keeps exercising it).
 */
class ExactSharedPinnedOptimaTest {

  /** gpus, blocks, tight SLO?, seed, optimal cost before the pruning. */
  private record Pinned(int gpus, int blocks, boolean tight, long seed, double cost) {}

  private static final List<Pinned> PINNED = List.of(
      new Pinned(64, 16, false, 1, 1.2499999999999998),
      new Pinned(64, 16, false, 2, 1.3333333333333333),
      new Pinned(64, 16, false, 3, 1.25),
      new Pinned(64, 32, false, 1, 2.5),
      new Pinned(64, 32, false, 2, 2.583333333333333),
      new Pinned(64, 32, false, 3, 2.5),
      new Pinned(64, 32, true, 1, 8.25),
      new Pinned(64, 32, true, 2, 8.25),
      new Pinned(64, 32, true, 3, 8.25),
      new Pinned(64, 48, false, 1, 1.5),
      new Pinned(64, 48, false, 3, 1.5),
      new Pinned(200, 16, false, 1, 1.25),
      new Pinned(200, 32, false, 2, 2.5),
      new Pinned(200, 48, true, 1, 5.0),
      new Pinned(200, 48, true, 3, 5.0));

  /**
   * Instances whose relaxed plan needs intra-node links it does not get, so that exact solves the
   * co-location model (node slots); costs computed by the code of commit 486b546, before that model
   * was pruned by cost bounds, with a 240 s limit (they took 15-85 s, load about 5). The same limit
   * here, so that a slow solve is not mistaken for a wrong one.
   */
  private static final List<Pinned> COLOCATION = List.of(
      new Pinned(64, 16, true, 2, 4.25),
      new Pinned(64, 16, true, 3, 4.083333333333333),
      new Pinned(200, 16, true, 2, 4.083333333333333),
      new Pinned(200, 16, true, 3, 4.083333333333334),
      new Pinned(64, 16, true, 4, 4.25),
      new Pinned(64, 16, true, 5, 4.083333333333334),
      new Pinned(200, 16, true, 5, 4.083333333333333));

  @Test
  void optimalCostsAreThoseBeforeThePruning() {
    ExactStrategy exact = ExactStrategy.scip();
    int pruned = 0;
    for (Pinned pin : PINNED) {
      PlacementResult result = solvedAsPinned(exact, SharedClusters.problem(pin.gpus(), pin.blocks(), pin.seed(), pin.tight()), pin);
      // the relaxation was solved on a model smaller than the one generated: CostBound found an incumbent and pruned
      Double solved = result.statistics().get("relaxedArcsSolved");
      if (solved != null && solved < result.statistics().get("arcs")) {
        pruned++;
      }
    }
    System.out.printf("exact on %d pinned medium shared instances: every cost as before, %d solved on a pruned model%n",
        PINNED.size(), pruned);
    assertThat(pruned).as("instances whose relaxation was pruned (else this test does not exercise the pruning)")
        .isGreaterThanOrEqualTo(PINNED.size() * 2 / 3);
  }

  @Test
  void colocationOptimaAreThoseBeforeItsPruning() {
    ExactStrategy exact = ExactStrategy.scip();
    for (Pinned pin : COLOCATION) {
      PlacementResult result = solvedAsPinned(exact,
          SharedClusters.problem(pin.gpus(), pin.blocks(), pin.seed(), pin.tight(), Duration.ofSeconds(240)), pin);
      assertThat(result.statistics()).as(pin + ": the co-location model was solved").containsKey("exactArcs");
      // ... on a model smaller than the one generated: CostBound found an incumbent and pruned
      assertThat(result.statistics().get("exactArcsSolved")).as(pin + " " + result.statistics()).isNotNull()
          .isLessThan(result.statistics().get("exactArcs"));
    }
  }

  /** The result of {@code exact} on {@code problem}: OPTIMAL at the pinned cost, its plan passing the verifier. */
  private static PlacementResult solvedAsPinned(ExactStrategy exact, PlacementProblem problem, Pinned pin) {
    PlacementResult result = exact.place(problem);
    assertThat(result.status()).as(pin + " " + result).isEqualTo(SolveStatus.OPTIMAL);
    assertThat(result.plan().orElseThrow().cost()).as(pin + " " + result).isCloseTo(pin.cost(), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(new PlanVerifier(problem.performance(), problem.interference())
        .verify(problem.request(), result.plan().orElseThrow(), problem.state()).violations()).as(pin.toString()).isEmpty();
    return result;
  }
}
