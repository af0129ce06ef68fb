package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.Property;
import org.rampa.testing.TinySharedProblems;

/**
 * Greedy's latency floor ({@link LatencyFloor}) against the full search it spares: on seeded shared
 * states, wherever the floor refuses, the search without it finds no plan either; wherever it does
 * not, greedy's answer (status, plan, reason) is the search's; and the floor never exceeds the
 * latency of a plan the search finds.
 */
class GreedyLatencyFloorTest {

  private final GreedyStrategy greedy = new GreedyStrategy();

  /** How often each side of the property was seen, so that neither holds vacuously. */
  private static final class Tally {
    int refused;
    int planned;
    int searchedWithoutPlan;
  }

  /**
   * Fragmented clusters of 1-3 nodes of four A100s (full or with free GPUs), a Llama-2-7B decode
   * newcomer whose latency bound is 1.0-1.6 times its time alone on a whole A100: tight bounds only
   * a whole GPU meets, looser ones a large share of a partly used GPU.
   */
  @Test
  void onFragmentedClustersTheFloorRefusesOnlyWhereTheSearchFindsNothingAndChangesNothingElse() {
    Tally tally = new Tally();
    Property.forSeeds("latency floor on fragmented clusters", 60, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1 + r.nextInt(3)), 4, ClusterPresets.NETWORK_100G);
      ClusterState state = FragmentedClusters.state(cluster, r, r.nextBoolean());
      double slack = 1.0 + 0.6 * r.nextDouble();
      ServiceRequest request = new DecodeServices(cluster, "newcomer").service("new", cluster.gpus().get(0).id(), new Whole(), slack).request();
      StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(seed).build());
      check(new PlacementProblem(request, state, StaticImportance.uniform(), PerformanceModel.defaults(), options), tally);
    });
    assertThat(tally.refused).as("floor refusals").isGreaterThanOrEqualTo(10);
    assertThat(tally.planned).as("plans found").isGreaterThanOrEqualTo(10);
  }

  /** The tiny shared problems of the other greedy tests: random models on A100/L4 clusters with MPS and MIG tenants. */
  @Test
  void onTinySharedProblemsTheFloorRefusesOnlyWhereTheSearchFindsNothingAndChangesNothingElse() {
    Tally tally = new Tally();
    checkAll("tiny shared problems", seed -> TinySharedProblems.generate(seed, 4, 6), tally);
    assertThat(tally.refused).as("floor refusals").isGreaterThanOrEqualTo(2);
    assertThat(tally.planned).as("plans found").isGreaterThanOrEqualTo(10);
    assertThat(tally.searchedWithoutPlan).as("refusals left to the search").isGreaterThanOrEqualTo(1);
  }

  /** Where the menu holds NPU templates or CU masks the floor is not defined, and greedy answers as the search. */
  @Test
  void withTemplatesOrCuMasksOnTheMenuTheFloorStandsAside() {
    Tally tally = new Tally();
    checkAll("NPU templates", seed -> TinySharedProblems.generateNpu(seed, 4, 4), tally);
    checkAll("MI100 CU masks", seed -> TinySharedProblems.generateMi100(seed, 4, 4), tally);
    assertThat(tally.refused).isZero();
    assertThat(tally.planned).isGreaterThanOrEqualTo(10);
  }

  private void checkAll(String name, LongFunction<PlacementProblem> problems, Tally tally) {
    Property.forSeeds(name, 80, seed -> check(problems.apply(seed), tally));
  }

  private void check(PlacementProblem problem, Tally tally) {
    PlacementResult searched = greedy.place(problem, false);
    PlacementResult answered = greedy.place(problem);
    PlacementContext c = new PlacementContext(problem);
    SharingOptions sharing = GreedyOptions.of(problem.options()).sharing();
    double floor = LatencyFloor.latencySeconds(c, sharing);
    if (searched.plan().isPresent()) {
      tally.planned++;
      assertThat(answered.status()).isEqualTo(searched.status());
      assertThat(answered.plan()).isEqualTo(searched.plan());
      assertThat(answered.reason()).isEqualTo(searched.reason());
      if (!Double.isNaN(floor)) {
        // the plan's latency is rounded to the nanosecond
        assertThat(floor).as("floor against the plan's latency").isLessThanOrEqualTo(searched.plan().get().latency().toNanos() / 1e9 + 1e-9);
      }
      return;
    }
    if (LatencyFloor.refusal(c, sharing).isPresent()) {
      tally.refused++;
      assertThat(answered.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
      assertThat(answered.plan()).isEmpty();
      assertThat(answered.reason()).contains("no GPU set of the sharing menu can meet the latency bound");
      return;
    }
    tally.searchedWithoutPlan++;
    assertThat(answered.status()).isEqualTo(searched.status());
    assertThat(answered.reason()).isEqualTo(searched.reason());
    assertThat(answered.plan()).isEmpty();
  }
}
