package org.rampa.heuristics.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.strategy.SolveStatus;

class LearnedColocationPlannerTest {

  @Test
  void theShippedPolicyPlansEveryParvaGpuScenarioAndTheVerifierAcceptsThePlans() {
    LearnedColocationPlanner learned = LearnedColocationPlanner.shipped();
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      ColocationProblem problem = ParvaGpuScenarios.scenario(k, 48, ColocationObjective.MAX_SCALE);
      ColocationResult result = learned.plan(problem, Duration.ofSeconds(10));
      assertThat(result.status()).as("scenario %d: %s", k, result.reason()).isEqualTo(SolveStatus.FEASIBLE);
      assertThat(ColocationVerifier.check(problem, result.plan().orElseThrow())).isEmpty();
      assertThat(result.value().orElseThrow()).isEqualTo(result.plan().orElseThrow().scale()).isPositive();
      assertThat(result.reason()).startsWith("learned policy: ");
      // deterministic: the same problem gives the same plan
      assertThat(learned.plan(problem, Duration.ofSeconds(10)).plan()).isEqualTo(result.plan());
    }
  }

  @Test
  void theShippedDocumentSaysHowItWasTrainedAndIsFoundByName() throws Exception {
    try (var in = LearnedColocationPlanner.class.getResourceAsStream(LearnedColocationPlanner.SHIPPED_RESOURCE)) {
      PolicyDocument document = PolicyDocument.read(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      assertThat(document.provenance()).startsWith("rampa train --gpus 64 ").contains(" --mix-family both ");
      assertThat(document.features()).isEqualTo(ColocationEnvironment.FEATURES);
    }
    assertThat(ColocationPlanners.named("learned").name()).isEqualTo("learned");
  }

  @Test
  void aPolicyOfOtherFeaturesIsRefused() {
    assertThatThrownBy(() -> new LearnedColocationPlanner(CandidatePolicy.initialised(List.of("x"), new int[] {2}, 1), 8))
        .hasMessageStartingWith("policy.features = [x]: must be the environment's [fresh, ");
  }
}
