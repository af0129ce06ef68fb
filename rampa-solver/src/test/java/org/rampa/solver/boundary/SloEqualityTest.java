package org.rampa.solver.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.ImmutableLatencyProfile;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.strategy.Strategies;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.PlanVerifier;

/**
 * Plans that meet the SLO with equality are feasible for every strategy: layers measured at 100,
 * 200 and 300 ms, whose sums in doubles land a few ulps above the bound or below λ.
 */
class SloEqualityTest {

  private static final Model MODEL = Model.of("m", List.of(layer("a", 100), layer("b", 200), layer("c", 300)));
  /** Dedicated to strategies that prove optimality: they must say OPTIMAL. */
  private static final List<String> EXACT = List.of("exact", "exact-cpsat", "dp");

  private static Layer layer(String name, long millis) {
    return Layer.builder().name(name).flopsPerSample(1).weightBytes(1L << 20).outputBytesPerSample(1_000_000)
        .addProfiles(ImmutableLatencyProfile.builder().gpuType("t").addPoints(LatencyPoint.of(1, Duration.ofMillis(millis))).build())
        .build();
  }

  private static Cluster cluster(int nodes) {
    var b = Cluster.builder().addGpuTypes(RandomInstances.type("t", 100e12, 16L << 30, 1e12))
        .network(Link.of("net", 1e9, Duration.ZERO));
    for (int n = 0; n < nodes; n++) {
      b.addNodes(Node.of("n" + n, RandomInstances.nvlink())).addGpus(Gpu.of("n" + n + "g0", "t", "n" + n));
    }
    return b.build();
  }

  private static PlacementProblem problem(Cluster cluster, double throughput, Duration bound, int maxStages) {
    ServiceRequest request = ServiceRequest.builder().id("s").model(MODEL).slo(Slo.of(throughput, bound, 1))
        .maxStages(maxStages).build();
    return PlacementProblem.of(request, ClusterState.empty(cluster), StaticImportance.uniform(),
        StrategyOptions.builder().timeLimit(Duration.ofSeconds(10)).build());
  }

  /** Every strategy, baselines included, finds a plan the verifier accepts; the exact ones prove {@code cost} optimal. */
  private static void everyStrategyFinds(PlacementProblem p, double cost) {
    assertThat(Strategies.available()).contains("greedy", "dp", "exact", "exact-cpsat", "performance-first");
    for (String name : Strategies.available()) {
      PlacementResult r = Strategies.named(name).place(p);
      String context = name + ": " + r;
      assertThat(r.plan()).as(context).isPresent();
      assertThat(new PlanVerifier(p.performance()).verify(p.request(), r.plan().get(), p.state()).violations()).as(context).isEmpty();
      if (EXACT.contains(name)) {
        assertThat(r.status()).as(context).isEqualTo(SolveStatus.OPTIMAL);
        assertThat(r.plan().get().cost()).as(context).isEqualTo(cost);
      }
    }
  }

  @Test
  void aLatencyEqualToTheBoundAndAThroughputEqualToLambdaOnOneGpu() {
    // 0.1 + 0.2 + 0.3 = 0.6000000000000001 s in doubles: latency a hair above 600 ms, throughput below 1 / 0.6
    PlacementProblem p = problem(cluster(1), 1 / 0.6, Duration.ofMillis(600), 1);
    everyStrategyFinds(p, 1);
  }

  @Test
  void aThroughputAnUlpBelowLambdaAcrossTwoStagesAndALatencyEqualToTheBoundWithATransfer() {
    // stages [0, 2) and [2, 3): 0.1 + 0.2 = 0.30000000000000004 s, so throughput 3.333333333333333 is one
    // ulp below λ = 1 / 0.3; latency 0.6 s of compute plus a 1 ms transfer equals the 601 ms bound
    PlacementProblem p = problem(cluster(2), 1 / 0.3, Duration.ofMillis(601), 2);
    everyStrategyFinds(p, 2);
  }
}
