package org.rampa.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.ImmutableLatencyProfile;
import org.rampa.domain.Layer;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.PlanVerifier;

class SloPredicateTest {

  private static final PerformanceModel PM = PerformanceModel.defaults();

  /** Three layers measured at 100, 200 and 300 ms on the "round" GPU: 0.1 + 0.2 + 0.3 > 0.6 in doubles. */
  private static final Model MODEL = Model.of("m", List.of(measured("a", 100), measured("b", 200), measured("c", 300)));
  private static final Cluster CLUSTER = Cluster.builder().addGpuTypes(PerformanceModelTest.ROUND)
      .network(RandomInstances.network()).addNodes(Node.of("n", RandomInstances.nvlink()))
      .addGpus(Gpu.of("g", "round", "n")).build();
  private static final List<StageAssignment> ONE_STAGE = List.of(StageAssignment.of(0, 3, "g"));

  private static Layer measured(String name, long millis) {
    return Layer.builder().name(name).flopsPerSample(1).weightBytes(0).outputBytesPerSample(0)
        .addProfiles(ImmutableLatencyProfile.builder().gpuType("round").addPoints(LatencyPoint.of(1, Duration.ofMillis(millis))).build())
        .build();
  }

  private static ServiceRequest request(double throughput, Duration bound) {
    return ServiceRequest.builder().id("s").model(MODEL).slo(Slo.of(throughput, bound, 1)).build();
  }

  @Test
  void aLatencyEqualToTheBoundAsASumOfLayerTimesMeetsItAndIsReportedAsTheBound() {
    ServiceRequest r = request(1, Duration.ofMillis(600));
    PlanEstimate e = PM.estimate(r, ONE_STAGE, CLUSTER);
    assertThat(e.latencySeconds()).isGreaterThan(0.6); // the rounding this predicate exists for
    assertThat(SloPredicate.meets(e, r.slo())).isTrue();
    Plan plan = PM.plan(r, ONE_STAGE, CLUSTER, 1, "test");
    assertThat(plan.latency()).isEqualTo(Duration.ofMillis(600));
    assertThat(PlanVerifier.defaults().verify(r, plan, ClusterState.empty(CLUSTER)).ok()).isTrue();
  }

  @Test
  void aThroughputEqualToLambdaOrAnUlpBelowItMeetsIt() {
    double throughput = PM.estimate(request(1, Duration.ofSeconds(1)), ONE_STAGE, CLUSTER).throughput();
    for (double lambda : new double[] {throughput, Math.nextUp(throughput), 1 / (0.1 + 0.2 + 0.3), 1 / 0.6}) {
      ServiceRequest r = request(lambda, Duration.ofSeconds(1));
      Plan plan = PM.plan(r, ONE_STAGE, CLUSTER, 1, "test");
      assertThat(SloPredicate.meets(PM.estimate(r, ONE_STAGE, CLUSTER), r.slo())).as("lambda %s", lambda).isTrue();
      assertThat(PlanVerifier.defaults().verify(r, plan, ClusterState.empty(CLUSTER)).ok()).as("lambda %s", lambda).isTrue();
    }
  }

  @Test
  void meetsPeriodIsTheThroughputComparisonOfOneStage() {
    Slo slo = Slo.of(1 / 0.6, Duration.ofSeconds(1), 1);
    assertThat(SloPredicate.meetsPeriod(0.1 + 0.2 + 0.3, slo)).isTrue();
    assertThat(SloPredicate.meetsPeriod(0.6 * (1 + 0.5 * SloPredicate.RELATIVE_TOLERANCE), slo)).isTrue();
    assertThat(SloPredicate.meetsPeriod(0.6 * (1 + 2 * SloPredicate.RELATIVE_TOLERANCE), slo)).isFalse();
    assertThat(SloPredicate.meetsPeriod(0, slo)).isTrue();
    assertThat(SloPredicate.maxLoadSeconds(slo)).isGreaterThanOrEqualTo(0.6);
  }

  @Test
  void beyondTheToleranceTheSloIsMissed() {
    double over = 1 + 2 * SloPredicate.RELATIVE_TOLERANCE;
    ServiceRequest slowBound = request(1, Duration.ofNanos((long) (0.6e9 / over)));
    assertThat(SloPredicate.meets(PM.estimate(slowBound, ONE_STAGE, CLUSTER), slowBound.slo())).isFalse();
    ServiceRequest highRate = request(over / 0.6, Duration.ofSeconds(1));
    assertThat(SloPredicate.meets(PM.estimate(highRate, ONE_STAGE, CLUSTER), highRate.slo())).isFalse();
    assertThat(SloPredicate.latencyBudgetSeconds(Slo.of(1, Duration.ofMillis(600), 1)))
        .isEqualTo(SloPredicate.latencyLimitSeconds(Slo.of(1, Duration.ofMillis(600), 1)));
  }
}
