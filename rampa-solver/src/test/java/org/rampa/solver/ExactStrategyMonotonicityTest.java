package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/** More free GPUs or a looser SLO never make the optimum worse. */
class ExactStrategyMonotonicityTest {

  private final ExactStrategy exact = ExactStrategy.scip();

  @Test
  void freeingAGpuNeverRaisesTheOptimum() {
    int compared = 0;
    for (long seed = 20_000; seed < 20_300; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, false);
      if (p.state().allocations().isEmpty()) {
        continue;
      }
      String released = p.state().allocations().keySet().iterator().next();
      ClusterState more = p.state().release(released);
      PlacementProblem q = new PlacementProblem(p.request(), more, p.importance(), p.performance(), p.options());
      compared += compare(p, q, "seed " + seed + " releasing " + released) ? 1 : 0;
    }
    assertThat(compared).as("feasible instances compared").isGreaterThanOrEqualTo(15);
  }

  @Test
  void looseningTheSloNeverRaisesTheOptimum() {
    int compared = 0;
    for (long seed = 30_000; seed < 30_300; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, false);
      Slo slo = p.request().slo();
      Slo looser = Slo.builder().from(slo)
          .requiredThroughput(slo.requiredThroughput() * 0.8)
          .latencyBound(Duration.ofNanos((long) (slo.latencyBound().toNanos() * 1.25))).build();
      ServiceRequest request = ServiceRequest.builder().from(p.request()).slo(looser)
          .maxStages(p.request().maxStages() + (seed % 2 == 0 ? 1 : 0)).build();
      PlacementProblem q = new PlacementProblem(request, p.state(), p.importance(), p.performance(), p.options());
      compared += compare(p, q, "seed " + seed + " looser " + looser) ? 1 : 0;
    }
    assertThat(compared).as("feasible instances compared").isGreaterThanOrEqualTo(15);
  }

  /** True when the tighter problem had a plan (and so the looser one was checked against it). */
  private boolean compare(PlacementProblem tighter, PlacementProblem looser, String context) {
    PlacementResult a = exact.place(tighter);
    PlacementResult b = exact.place(looser);
    ExactStrategyOracleTest.assertVerified(tighter, a, context);
    ExactStrategyOracleTest.assertVerified(looser, b, context);
    assertThat(a.status()).as(context).isIn(SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE);
    assertThat(b.status()).as(context).isIn(SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE);
    if (a.status() != SolveStatus.OPTIMAL) {
      return false;
    }
    assertThat(b.status()).as(context + "\n" + a + "\n" + b).isEqualTo(SolveStatus.OPTIMAL);
    assertThat(b.plan().get().cost()).as(context + "\n" + a + "\n" + b)
        .isLessThanOrEqualTo(a.plan().get().cost() * (1 + 1e-6) + 1e-9);
    return true;
  }
}
