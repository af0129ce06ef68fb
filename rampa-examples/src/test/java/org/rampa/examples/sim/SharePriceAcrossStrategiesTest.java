package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.importance.ImportanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;

/**
 * Greedy, DP and exact price a shared plan with one definition, the forecast-driven share cost
 * ({@code GpuCosts.of(plan, state)}): each plan's cost is that price, and exact, which proves its
 * optimum, is never above the heuristics. The cluster: two A100-SXM4-80GB on one node, one whole
 * and free, one already in MPS mode with a quarter held.
 */
class SharePriceAcrossStrategiesTest {

  private static final long GIB = 1L << 30;

  @Test
  void greedyDpAndExactChargeTheSamePriceForShares() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2), 1, ClusterPresets.NETWORK_100G);
    String partlyUsed = cluster.gpus().get(0).id();
    ClusterState state = ClusterState.empty(cluster)
        .allocate(Allocation.of("incumbent", List.of(Holding.of(partlyUsed, new MpsShare(0.25, 14 * GIB), 14 * GIB))));
    ServiceRequest decode = ServiceRequest.builder().id("decode").model(ModelCatalog.decode("llama2-7b", 512))
        .slo(Slo.of(1, Duration.ofSeconds(1), 1)).build();
    ImportanceModel scarcity = ImportanceModels.scarcity(WorkloadForecast.builder().add(decode, 1).build());
    PlacementProblem problem = PlacementProblem.of(decode, state, scarcity, SharingOptions.on().applyTo(StrategyOptions.defaults()));
    double exactCost = Double.NaN;
    double heuristicCost = Double.POSITIVE_INFINITY;
    for (String strategy : List.of("greedy", "dp", "exact")) {
      PlacementResult result = Strategies.named(strategy).place(problem);
      assertThat(result.status()).as(strategy).isIn(SolveStatus.FEASIBLE, SolveStatus.OPTIMAL);
      Plan plan = result.plan().orElseThrow();
      double price = scarcity.evaluate(state).of(plan, state);
      System.out.printf("%s: %s %s, cost %.6f, priced %.6f%n", strategy, result.status(),
          plan.stages().stream().map(s -> s.gpus() + " " + s.placement().label()).toList(), plan.cost(), price);
      assertThat(plan.cost()).as(strategy).isCloseTo(price, within(1e-9));
      assertThat(plan.stages()).as(strategy + " shares").anyMatch(s -> !(s.placement() instanceof Whole));
      if (strategy.equals("exact")) {
        exactCost = plan.cost();
        assertThat(result.status()).isEqualTo(SolveStatus.OPTIMAL);
      } else {
        heuristicCost = Math.min(heuristicCost, plan.cost());
      }
    }
    assertThat(exactCost).isLessThanOrEqualTo(heuristicCost + 1e-9);
  }
}
