package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.domain.share.CuMask;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The heuristic and the baselines on AMD clusters (MI100s with CU masking, alone or beside A100s,
 * {@link RandomMixes#cuMask}): every plan passes the verifier; the heuristic cuts MI100s into CU
 * masks from the co-location menu, never more eighths than a card has; for the fewest GPUs it
 * needs fewer cards than exclusive use.
 */
class CuMaskPlannersTest {

  private static final Duration LIMIT = Duration.ofSeconds(2);

  @Test
  void everyPlanOnAnAmdClusterPassesTheVerifierAndTheHeuristicCutsCardsIntoMasks() {
    int[] counts = new int[3];
    Property.forSeeds("CU-mask co-location plans pass the verifier", 30, seed -> {
      ColocationProblem p = RandomMixes.cuMask(seed);
      for (String name : ColocationPlanners.NAMES) {
        ColocationResult r = ColocationPlanners.named(name).plan(p, LIMIT);
        assertThat(r.status()).as(name + ": " + r.reason()).isIn(SolveStatus.FEASIBLE, SolveStatus.NO_PLAN_FOUND);
        if (r.plan().isEmpty()) {
          counts[1]++;
          continue;
        }
        assertThat(ColocationVerifier.check(p, r.plan().get())).as(name).isEmpty();
        counts[0]++;
        if (name.equals("heuristic") && r.plan().get().gpus().stream().anyMatch(g -> masks(g) > 1)) {
          counts[2]++;
        }
      }
    });
    System.out.println("planners on MI100 mixes: " + counts[0] + " verified plans, " + counts[1] + " NO_PLAN_FOUND, heuristic shared an MI100 "
        + "between CU masks on " + counts[2] + " of 30");
    assertThat(counts[2]).as("heuristic plans with an MI100 cut into several CU masks").isGreaterThan(15);
  }

  @Test
  void forTheFewestGpusTheHeuristicNeedsFewerCardsThanExclusiveUse() {
    int[] total = new int[2];
    int mixes = 0;
    for (long seed = 0; seed < 30; seed++) {
      ColocationProblem p = RandomMixes.cuMask(seed).withObjective(ColocationObjective.MIN_GPUS);
      int heuristic = ColocationPlanners.named("heuristic").plan(p, LIMIT).plan().map(ColocationPlan::gpuCount).orElse(-1);
      int exclusive = ColocationPlanners.named("exclusive").plan(p, LIMIT).plan().map(ColocationPlan::gpuCount).orElse(-1);
      if (heuristic < 0 || exclusive < 0) {
        continue;
      }
      mixes++;
      total[0] += heuristic;
      total[1] += exclusive;
    }
    System.out.printf("MI100 mixes, fewest GPUs on %d mixes both serve: heuristic %d, exclusive %d cards in all%n", mixes, total[0], total[1]);
    assertThat(mixes).isGreaterThan(10);
    assertThat(total[0]).isLessThan(total[1]);
  }

  private static long masks(GpuConfiguration g) {
    return g.segments().stream().filter(s -> s.placement() instanceof CuMask).count();
  }
}
