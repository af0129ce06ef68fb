package org.rampa.heuristics.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.testing.Property;

class ColocationEnvironmentTest {

  /** Uniform over the legal candidates: the widest spread of plans an untrained policy can make. */
  static ColocationEnvironment.Chooser random(SplittableRandom random) {
    return (features, legal) -> {
      int i;
      do {
        i = random.nextInt(legal.length);
      } while (!legal[i]);
      return i;
    };
  }

  @Test
  void everyEpisodesPlanPassesTheVerifierAndStaysUnderTheReferenceScale() {
    Property.forSeeds("random episodes verify", 12, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      int scenario = 1 + random.nextInt(ParvaGpuScenarios.SCENARIOS);
      ColocationProblem problem = ParvaGpuScenarios.scenario(scenario, 1 + random.nextInt(8), ColocationObjective.MAX_SCALE);
      ColocationEnvironment environment = new ColocationEnvironment(problem, 1 + random.nextInt(4));
      ColocationEnvironment.Outcome outcome = environment.run(random(random));
      assertThat(ColocationVerifier.check(problem, outcome.plan())).as("scenario %d", scenario).isEmpty();
      assertThat(outcome.plan().scale()).isNotNegative().isLessThanOrEqualTo(environment.referenceScale() * (1 + 1e-9));
      assertThat(outcome.decisionNanos()).hasSize(outcome.policySteps());
      assertThat(outcome.fellBackAt().isPresent()).isEqualTo(outcome.fallbackSteps() > 0);
    });
  }

  @Test
  void theSameChoicesGiveTheSamePlan() {
    ColocationProblem problem = ParvaGpuScenarios.scenario(3, 6, ColocationObjective.MAX_SCALE);
    ColocationEnvironment environment = new ColocationEnvironment(problem, 4);
    assertThat(environment.run(random(new SplittableRandom(9))).plan())
        .isEqualTo(new ColocationEnvironment(problem, 4).run(random(new SplittableRandom(9))).plan());
  }

  @Test
  void whenTheCandidatesHaveNothingLegalTheHeuristicFinishesAndTheOutcomeSaysSo() {
    // one partly used GPU offered per step: once no fresh GPU is left, a segment that fits only on
    // another open GPU is the fallback's to place
    ColocationProblem problem = ParvaGpuScenarios.scenario(1, 8, ColocationObjective.MAX_SCALE);
    ColocationEnvironment.Outcome outcome = new ColocationEnvironment(problem, 1).run(random(new SplittableRandom(4)));
    assertThat(outcome.fellBackAt()).isPresent();
    assertThat(outcome.fallbackSteps()).isPositive();
    assertThat(outcome.fellBackAt().getAsInt()).isEqualTo(outcome.policySteps());
    assertThat(ColocationVerifier.check(problem, outcome.plan())).isEmpty();
  }

  @Test
  void badTopKAndLimitsAreRefused() {
    assertThatThrownBy(() -> new ColocationEnvironment(ParvaGpuScenarios.scenario(1, 4, ColocationObjective.MAX_SCALE), 0))
        .hasMessage("topK = 0: must lie in [1, 1024]. Maybe 8");
    assertThatThrownBy(() -> new ColocationEnvironment.Limits(0, 1)).hasMessageStartingWith("limits.gpuBudget = 0: must be >= 1");
    assertThatThrownBy(() -> new ColocationEnvironment.Limits(4, 0)).hasMessageStartingWith("limits.targetScale = 0.0: must be > 0");
  }

  @Test
  void limitsCapTheGpusOpenedAndStopAtTheTargetScale() {
    // any objective: the environment grows the scale, the planner maps objectives onto limits
    ColocationProblem problem = ParvaGpuScenarios.scenario(4, 40, ColocationObjective.MIN_GPUS);
    ColocationEnvironment environment = new ColocationEnvironment(problem, 8);
    Property.forSeeds("an episode within limits opens at most its budget and stops at its target", 20, seed -> {
      int budget = 1 + new SplittableRandom(seed).nextInt(40);
      ColocationEnvironment.Outcome capped = environment.run(random(new SplittableRandom(seed)),
          new ColocationEnvironment.Limits(budget, Double.POSITIVE_INFINITY));
      assertThat(capped.plan().gpuCount()).isLessThanOrEqualTo(budget);
      assertThat(ColocationVerifier.check(problem.withObjective(ColocationObjective.MAX_SCALE), capped.plan())).isEmpty();
      // a target on the whole cluster: the same choices as the full episode (same seed) up to the step that reaches it
      ColocationEnvironment.Outcome full = environment.run(random(new SplittableRandom(seed)));
      double target = full.plan().scale() * (0.2 + 0.7 * new SplittableRandom(seed + 1).nextDouble());
      ColocationEnvironment.Outcome stopped = environment.run(random(new SplittableRandom(seed)),
          new ColocationEnvironment.Limits(environment.clusterGpus(), target));
      assertThat(stopped.plan().scale()).isGreaterThanOrEqualTo(target * (1 - 1e-9)).isLessThanOrEqualTo(full.plan().scale());
      assertThat(stopped.policySteps()).isLessThanOrEqualTo(full.policySteps());
      assertThat(stopped.plan().gpuCount()).isLessThanOrEqualTo(full.plan().gpuCount());
      for (int g = 0; g < stopped.plan().gpuCount(); g++) {
        var some = stopped.plan().gpus().get(g).segments();
        assertThat(full.plan().gpus().get(g).segments().subList(0, some.size())).isEqualTo(some);
      }
    });
  }

  @Test
  void anEpisodeFromAPartialPlanKeepsItsGpusFirstAndAddsOnlyWithinTheBudget() {
    ColocationProblem problem = ParvaGpuScenarios.scenario(5, 30, ColocationObjective.MAX_SCALE);
    ColocationEnvironment environment = new ColocationEnvironment(problem, 8);
    Property.forSeeds("a partial plan's GPUs stay, each a prefix of its GPU in the outcome", 20, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      List<GpuConfiguration> earlier = environment.run(random(random), new ColocationEnvironment.Limits(1 + random.nextInt(30), 1)).plan().gpus();
      List<GpuConfiguration> start = earlier.subList(0, random.nextInt(earlier.size() + 1));
      int budget = start.size() + random.nextInt(6);
      if (budget == 0) {
        return;
      }
      ColocationEnvironment.Outcome outcome = environment.run(random(random), new ColocationEnvironment.Limits(budget, 1), start);
      assertThat(outcome.plan().gpuCount()).isBetween(start.size(), budget);
      assertThat(ColocationVerifier.check(problem, outcome.plan())).isEmpty();
      for (int g = 0; g < start.size(); g++) {
        List<Segment> kept = start.get(g).segments();
        assertThat(outcome.plan().gpus().get(g).gpuType()).isEqualTo(start.get(g).gpuType());
        assertThat(outcome.plan().gpus().get(g).segments().subList(0, kept.size())).isEqualTo(kept);
      }
    });
  }

  @Test
  void aPartialPlanOverTheBudgetOrNotVerifiedIsRefused() {
    ColocationProblem problem = ParvaGpuScenarios.scenario(2, 6, ColocationObjective.MAX_SCALE);
    ColocationEnvironment environment = new ColocationEnvironment(problem, 8);
    List<GpuConfiguration> plan = environment.run(random(new SplittableRandom(3))).plan().gpus();
    assertThatThrownBy(() -> environment.run(random(new SplittableRandom(3)), new ColocationEnvironment.Limits(1, 1), plan.subList(0, 2)))
        .hasMessageStartingWith("start.size = 2: must not exceed the episode's budget of 1 GPUs");
    Segment first = plan.get(0).segments().get(0);
    // the same MIG instance twice on one GPU: MIG legality refuses it
    GpuConfiguration twice = new GpuConfiguration(plan.get(0).gpuType(), List.of(first, first));
    assertThatThrownBy(() -> environment.run(random(new SplittableRandom(3)), new ColocationEnvironment.Limits(6, 1), List.of(twice)))
        .hasMessageContaining("start[0] = ").hasMessageContaining("must pass the co-location verifier");
    GpuConfiguration elsewhere = new GpuConfiguration("H100-80GB", plan.get(0).segments());
    assertThatThrownBy(() -> environment.run(random(new SplittableRandom(3)), new ColocationEnvironment.Limits(6, 1), List.of(elsewhere)))
        .hasMessageContaining("needs a GPU of a type the cluster has left");
  }
}
