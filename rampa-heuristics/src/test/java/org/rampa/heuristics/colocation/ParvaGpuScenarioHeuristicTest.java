package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.junit.jupiter.api.Test;

/** Every heuristic and baseline on ParvaGPU's six published scenarios: verified plans, and sharing never worse than exclusive use. */
class ParvaGpuScenarioHeuristicTest {

  @Test
  void everyPlannerPlansEveryScenarioAndTheHeuristicNeedsNoMoreGpusThanExclusiveUse() {
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      ColocationProblem p = ParvaGpuScenarios.scenario(k, 1000, ColocationObjective.MIN_GPUS);
      int exclusive = Integer.MAX_VALUE;
      int heuristic = 0;
      StringBuilder line = new StringBuilder("scenario " + k + ":");
      for (String name : ColocationPlanners.NAMES) {
        ColocationResult r = ColocationPlanners.named(name).plan(p, Duration.ofSeconds(2));
        if (name.startsWith("even-mps") || name.equals("gpu-lets")) {
          // ParvaGPU measured MIG instances only: no time for an MPS share of its models, so no plan
          assertThat(r.status()).as(name).isEqualTo(org.rampa.strategy.SolveStatus.NO_PLAN_FOUND);
          continue;
        }
        assertThat(r.status().hasPlan()).as(name + " on scenario " + k + ": " + r.reason()).isTrue();
        assertThat(ColocationVerifier.check(p, r.plan().orElseThrow())).as(name).isEmpty();
        int gpus = r.plan().orElseThrow().gpuCount();
        line.append(' ').append(name).append('=').append(gpus);
        if (name.equals("exclusive")) {
          exclusive = gpus;
        }
        if (name.equals("heuristic")) {
          heuristic = gpus;
        }
      }
      System.out.println(line);
      assertThat(heuristic).as("scenario " + k).isLessThanOrEqualTo(exclusive);
    }
  }
}
