package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** `rampa colocate` on ParvaGPU's first scenario: JSON with the GPUs, the status, the bound and every configuration. */
class ColocateCommandTest {

  @Test
  void exactPrintsItsBoundAndAPlanNoLargerThanTheHeuristics() {
    BadInputs.Run exact = BadInputs.run("colocate", "--parvagpu-scenario", "1", "--planner", "exact", "--time-limit-s", "20");
    BadInputs.Run heuristic = BadInputs.run("colocate", "--parvagpu-scenario", "1", "--planner", "heuristic");
    assertThat(exact.code()).as(exact.err()).isZero();
    assertThat(heuristic.code()).as(heuristic.err()).isZero();
    JsonNode e = BadInputs.tree(exact.out());
    JsonNode h = BadInputs.tree(heuristic.out());
    assertThat(e.get("status").asText()).isEqualTo("OPTIMAL");
    assertThat(e.get("bound").asDouble()).isEqualTo(e.get("gpus").asDouble());
    assertThat(e.get("gpus").asInt()).isLessThanOrEqualTo(h.get("gpus").asInt());
    // ParvaGPU's own deployment of scenario 1: two GPUs, and it passes the verifier
    assertThat(e.get("parvaGpuPublished").asInt()).isEqualTo(2);
    assertThat(e.get("parvaGpuPublishedValid").asBoolean()).isTrue();
    assertThat(e.get("gpus").asInt()).isLessThanOrEqualTo(e.get("parvaGpuPublished").asInt());
    assertThat(h.get("bound").isNull()).isTrue();
    int listed = 0;
    for (JsonNode c : h.get("configurations")) {
      listed += c.get("count").asInt();
      assertThat(c.get("segments")).allSatisfy(s -> assertThat(s.get("placement").get("kind").asText()).isIn("mig", "mig-mps", "whole"));
    }
    assertThat(listed).isEqualTo(h.get("gpus").asInt());
  }

  /** Issue 24's acceptance: the learned policy is asked for by the command users run, for the fewest GPUs, on every scenario. */
  @Test
  void learnedAnswersEveryScenarioWithinAQuarterOfExactsGpus() {
    for (int k = 1; k <= 6; k++) {
      BadInputs.Run exact = BadInputs.run("colocate", "--parvagpu-scenario", String.valueOf(k), "--planner", "exact");
      BadInputs.Run learned = BadInputs.run("colocate", "--parvagpu-scenario", String.valueOf(k), "--planner", "learned");
      assertThat(exact.code()).as(exact.err()).isZero();
      assertThat(learned.code()).as(learned.err()).isZero();
      JsonNode e = BadInputs.tree(exact.out());
      JsonNode l = BadInputs.tree(learned.out());
      assertThat(l.get("status").asText()).as("scenario %d: %s", k, l.get("reason").asText()).isEqualTo("FEASIBLE");
      assertThat(l.get("bound").isNull()).isTrue();
      assertThat(l.get("scale").asDouble()).isEqualTo(1.0);
      // never below exact's proven bound, at most a quarter above exact's GPUs
      assertThat(l.get("gpus").asDouble()).as("scenario %d", k).isGreaterThanOrEqualTo(e.get("bound").asDouble())
          .isLessThanOrEqualTo(1.25 * e.get("gpus").asInt());
    }
  }
}
