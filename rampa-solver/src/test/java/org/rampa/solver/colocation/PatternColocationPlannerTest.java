package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.catalog.SharingCatalog;
import org.junit.jupiter.api.Test;

class PatternColocationPlannerTest {

  @Test
  void a100HasTheSeventyEightMaximalLayoutsTheReferenceCounts() {
    assertThat(MigLayouts.maximal(SharingCatalog.standard().geometry("A100-80GB"))).hasSize(78);
  }

  @Test
  void parvaGpuScenariosAreSolvedToProvenOptimaNoLargerThanParvaGpusOwnDeployments() {
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      ColocationProblem p = ParvaGpuScenarios.scenario(k, 1000, ColocationObjective.MIN_GPUS);
      long t0 = System.nanoTime();
      ColocationResult r = new PatternColocationPlanner(org.rampa.heuristics.colocation.ColocationPlanners.named("heuristic")).plan(p, Duration.ofSeconds(20));
      System.out.println("scenario " + k + ": " + r.status() + " gpus " + r.value() + " bound " + r.bound() + " " + r.reason() + " in " + (System.nanoTime() - t0) / 1e6 + " ms");
      assertThat(r.status().hasPlan()).as(r.reason()).isTrue();
      assertThat(ColocationVerifier.check(p, r.plan().orElseThrow())).isEmpty();
      assertThat(r.value().getAsDouble()).isGreaterThanOrEqualTo(r.bound().getAsDouble());
      assertThat(r.status()).as(r.reason()).isEqualTo(org.rampa.strategy.SolveStatus.OPTIMAL);
      assertThat(r.value().getAsDouble()).as("scenario " + k).isLessThanOrEqualTo(org.rampa.scenarios.ParvaGpuDeployments.gpuCount(k));
    }
  }
}
