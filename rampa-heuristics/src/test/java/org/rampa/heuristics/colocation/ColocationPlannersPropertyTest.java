package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/** Every heuristic and baseline on seeded random mixes: a verified plan, or NO_PLAN_FOUND with a reason; never a claimed bound. */
class ColocationPlannersPropertyTest {

  @Test
  void everyPlannerByNameComesVerified() {
    for (String name : java.util.stream.Stream.concat(ColocationPlanners.NAMES.stream(), java.util.stream.Stream.of(ColocationPlanners.LEARNED)).toList()) {
      assertThat(ColocationPlanners.named(name)).as(name).isInstanceOf(org.rampa.colocation.VerifiedColocationPlanner.class)
          .extracting(org.rampa.colocation.ColocationPlanner::name).isEqualTo(name);
    }
  }

  @Test
  void everyPlanPassesTheVerifier() {
    int[] plans = new int[2];
    Property.forSeeds("co-location plans pass the verifier", 60, seed -> {
      ColocationProblem p = RandomMixes.of(seed);
      for (String name : ColocationPlanners.NAMES) {
        ColocationResult r = ColocationPlanners.named(name).plan(p, Duration.ofSeconds(2));
        assertThat(r.status()).as(name + ": " + r.reason()).isIn(SolveStatus.FEASIBLE, SolveStatus.NO_PLAN_FOUND);
        assertThat(r.bound()).isEmpty();
        if (r.plan().isPresent()) {
          assertThat(ColocationVerifier.check(p, r.plan().get())).as(name).isEmpty();
          plans[0]++;
        } else {
          assertThat(r.reason()).startsWith(name + ":");
          plans[1]++;
        }
      }
    });
    System.out.println("co-location planners on random mixes: " + plans[0] + " verified plans, " + plans[1] + " NO_PLAN_FOUND");
    assertThat(plans[0]).isGreaterThan(plans[1]);
  }

  @Test
  void mpsBaselinesShareGpusAndChargeInterference() {
    int shared = 0;
    for (long seed = 0; seed < 40; seed++) {
      ColocationProblem p = RandomMixes.of(seed);
      for (String name : java.util.List.of("even-mps-2", "gpu-lets")) {
        var plan = ColocationPlanners.named(name).plan(p, Duration.ofSeconds(2)).plan();
        if (plan.isEmpty()) {
          continue;
        }
        for (var gpu : plan.get().gpus()) {
          if (gpu.segments().size() > 1) {
            shared++;
            var perf = org.rampa.colocation.ColocationPerformance.evaluate(p, gpu).orElseThrow();
            assertThat(perf).allSatisfy(s -> assertThat(s.slowdown()).isGreaterThan(1));
          }
        }
      }
    }
    assertThat(shared).as("shared MPS GPUs over 40 seeds").isPositive();
  }

  @Test
  void sameSeedSamePlan() {
    ColocationProblem p = RandomMixes.of(7);
    // The limit only stops the search; it must never bind here, or a loaded machine would cut the two runs at
    // different points and the test would compare two different searches instead of checking determinism.
    Duration neverBinding = Duration.ofMinutes(10);
    assertThat(ColocationPlanners.named("heuristic").plan(p, neverBinding).plan())
        .isEqualTo(ColocationPlanners.named("heuristic").plan(p, neverBinding).plan());
  }
}
