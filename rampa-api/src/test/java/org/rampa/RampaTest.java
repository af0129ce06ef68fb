package org.rampa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.verify.PlanRejectedException;

class RampaTest {

  private final Cluster cluster = ClusterPresets.small();
  private final ServiceRequest request = ServiceRequest.builder().id("resnet")
      .model(ModelCatalog.model("resnet50")).slo(Slo.of(100, Duration.ofMillis(50), 8)).build();

  /** Places the whole model on the first free GPU, right or wrong: the planner must check it. */
  private static PlacementStrategy firstGpu(boolean lie) {
    return new PlacementStrategy() {
      @Override
      public String name() {
        return "first-gpu";
      }

      @Override
      public PlacementResult place(org.rampa.strategy.PlacementProblem p) {
        String gpu = p.state().freeGpus().get(0).id();
        var plan = p.performance().plan(p.request(), List.of(StageAssignment.of(0, p.request().model().size(), gpu)),
            p.state().cluster(), p.importance().evaluate(p.state()).of(gpu), name());
        if (lie) {
          plan = Plan.builder().from(plan).throughput(plan.throughput() * 10).build();
        }
        return PlacementResult.builder().status(SolveStatus.FEASIBLE).plan(plan).strategy(name()).solveTime(Duration.ZERO).build();
      }
    };
  }

  @Test
  void placesThroughTheChosenStrategyAndVerifiesThePlan() {
    PlacementResult r = Rampa.on(cluster).strategy(firstGpu(false)).place(request);
    assertThat(r.status()).isEqualTo(SolveStatus.FEASIBLE);
    assertThat(r.plan().orElseThrow().stages()).hasSize(1);
  }

  @Test
  void aStrategyThatLiesIsCaughtByTheVerifier() {
    assertThatThrownBy(() -> Rampa.on(cluster).strategy(firstGpu(true)).place(request))
        .isInstanceOf(PlanRejectedException.class).hasMessageContaining("PREDICTION_MISMATCH");
  }

  @Test
  void theVerifyingStepWrapsAStrategyOnceAndChecksEveryPlanItReturns() {
    PlacementStrategy liar = Strategies.verified(firstGpu(true));
    assertThat(Strategies.verified(liar)).isSameAs(liar);
    assertThat(liar.name()).isEqualTo("first-gpu");
    var problem = Rampa.on(cluster).problem(request);
    assertThatThrownBy(() -> liar.place(problem)).isInstanceOf(PlanRejectedException.class).hasMessageContaining("resnet");
    assertThat(Strategies.verified(firstGpu(false)).place(problem).status()).isEqualTo(SolveStatus.FEASIBLE);
  }

  @Test
  void settingsAreValidatedImmediately() {
    assertThatThrownBy(() -> Rampa.on(cluster).timeLimit(Duration.ZERO)).hasMessageContaining("options.timeLimit = PT0S");
    assertThatThrownBy(() -> Rampa.on(cluster).relativeGap(5)).hasMessageContaining("options.relativeGap = 5.0");
    assertThatThrownBy(() -> Rampa.on(cluster).strategy("no-such-strategy"))
        .hasMessageContaining("strategy = no-such-strategy").hasMessageContaining("Maybe add rampa-solver");
    assertThatThrownBy(() -> Rampa.on(cluster).place(request)).hasMessageContaining("choose a strategy");
    assertThatThrownBy(() -> Rampa.on(cluster).state(org.rampa.domain.ClusterState.empty(ClusterPresets.large())))
        .hasMessageContaining("state.cluster");
  }
}
