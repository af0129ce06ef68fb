package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.TinyPlacementProblems;

/** DP(b) against the brute-force oracle on tiny instances (at most 8 layers, 6 GPUs, 3 nodes). */
class LabelSettingStrategyTest {

  @Test
  void matchesBruteForceWhenOptimalAndIsInfeasibleExactlyWhenBruteForceFindsNothing() {
    int optimal = 0;
    int infeasible = 0;
    for (long seed = 1; seed <= 250; seed++) {
      PlacementProblem problem = TinyPlacementProblems.generate(seed, 8, 6);
      for (boolean withIncumbent : new boolean[] {true, false}) {
        PlacementProblem p = withIncumbent ? problem : new PlacementProblem(problem.request(), problem.state(), problem.importance(),
            problem.performance(), StrategyOptions.builder().from(problem.options()).extra(Map.of("incumbent", "none")).build());
        Optional<BruteForcePlacement.Optimum> optimum = BruteForcePlacement.solve(p);
        PlacementResult result = Strategies.named("dp").place(p);
        String msg = "seed " + seed + " incumbent " + withIncumbent + ": " + result + " vs brute force " + optimum;
        assertThat(result.statistics().get("truncated")).as(msg).isZero();
        if (optimum.isEmpty()) {
          assertThat(result.status()).as(msg).isEqualTo(SolveStatus.INFEASIBLE);
          assertThat(result.reason()).as(msg).isNotBlank();
          infeasible++;
          continue;
        }
        assertThat(result.status().hasPlan()).as(msg).isTrue();
        HeuristicStrategiesTest.assertVerified(p, result.plan().get(), msg);
        if (result.status() == SolveStatus.OPTIMAL) {
          assertThat(result.plan().get().cost()).as(msg).isCloseTo(optimum.get().cost(), within(1e-9));
          optimal++;
        }
      }
    }
    assertThat(optimal).isGreaterThan(150);
    assertThat(infeasible).isGreaterThan(50);
  }

  @Test
  void onMediumInstancesItIsNeverWorseThanAnyHeuristicAndAlwaysVerified() {
    List<String> others = List.of("greedy", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit");
    int optimal = 0;
    for (long seed = 1; seed <= 25; seed++) {
      PlacementProblem problem = mediumProblem(seed);
      PlacementResult dp = Strategies.named("dp").place(problem);
      String msg = "seed " + seed + ": " + dp;
      dp.plan().ifPresent(plan -> HeuristicStrategiesTest.assertVerified(problem, plan, msg));
      optimal += dp.status() == SolveStatus.OPTIMAL ? 1 : 0;
      for (String name : others) {
        PlacementResult other = Strategies.named(name).place(problem);
        if (other.status().hasPlan()) {
          assertThat(dp.status().hasPlan()).as(msg + " vs " + name).isTrue();
          if (dp.status() == SolveStatus.OPTIMAL) {
            assertThat(dp.plan().get().cost()).as(msg + " vs " + other).isLessThanOrEqualTo(other.plan().get().cost() + 1e-9);
          }
        }
      }
    }
    assertThat(optimal).isGreaterThan(15);
  }

  /** 20 layers on 8 nodes of up to 4 GPUs of three types, random per-GPU costs. */
  static PlacementProblem mediumProblem(long seed) {
    RandomInstances gen = new RandomInstances(seed);
    SplittableRandom r = gen.random();
    Cluster cluster = gen.cluster(8, 4, 3);
    Model model = gen.model(20, 20 + r.nextInt(100), 0.1);
    int batch = 1 + r.nextInt(4);
    double t = PerformanceModel.defaults().stageSeconds(model, 0, model.size(), RandomInstances.threeTypes().get(1), batch);
    ServiceRequest request = gen.request("medium-" + seed, model, batch / (t * (0.2 + r.nextDouble())),
        Duration.ofNanos((long) (t * (0.8 + 2 * r.nextDouble()) * 1e9)), batch, 2 + r.nextInt(6));
    Map<String, Double> weights = new HashMap<>();
    for (Gpu g : cluster.gpus()) {
      weights.put(g.id(), 0.5 + r.nextInt(8) + r.nextDouble());
    }
    TransferMode mode = TransferMode.values()[r.nextInt(3)];
    return new PlacementProblem(request, gen.partiallyAllocated(cluster, 0.3), StaticImportance.uniform().withGpuWeights(weights),
        PerformanceModel.withTransfers(mode), StrategyOptions.builder().transfers(mode).build());
  }

  @Test
  void aTruncatedSearchNeverClaimsOptimalityOrInfeasibility() {
    int truncated = 0;
    for (long seed = 1; seed <= 60; seed++) {
      PlacementProblem problem = TinyPlacementProblems.generate(seed, 8, 6);
      PlacementProblem capped = new PlacementProblem(problem.request(), problem.state(), problem.importance(), problem.performance(),
          StrategyOptions.builder().from(problem.options()).extra(Map.of("incumbent", "none", "maxLabels", "1")).build());
      PlacementResult result = Strategies.named("dp").place(capped);
      String msg = "seed " + seed + ": " + result;
      if (result.statistics().get("truncated") == 1.0) {
        truncated++;
        assertThat(result.status()).as(msg).isIn(SolveStatus.FEASIBLE, SolveStatus.NO_SOLUTION_IN_TIME);
        assertThat(result.reason()).as(msg).contains("label cap 1");
        result.plan().ifPresent(plan -> HeuristicStrategiesTest.assertVerified(capped, plan, msg));
      }
    }
    assertThat(truncated).isPositive();
  }

  @Test
  void theTimeLimitIsReadFromTheProblemsTicker() {
    // every reading advances a second: the first check finds a 1 s limit spent
    AtomicLong now = new AtomicLong();
    LongSupplier slow = () -> now.addAndGet(1_000_000_000L);
    int stopped = 0;
    for (long seed = 1; seed <= 20; seed++) {
      PlacementProblem problem = TinyPlacementProblems.generate(seed, 8, 6);
      PlacementProblem timed = new PlacementProblem(problem.request(), problem.state(), problem.importance(),
          problem.performance(), StrategyOptions.builder().from(problem.options()).timeLimit(Duration.ofSeconds(1))
              .extra(Map.of("incumbent", "none")).build(), slow);
      PlacementResult result = Strategies.named("dp").place(timed);
      if (result.status() == SolveStatus.INFEASIBLE) {
        continue; // decided by the necessary conditions before any search
      }
      stopped++;
      assertThat(result.status()).as("seed %d: %s", seed, result).isEqualTo(SolveStatus.NO_SOLUTION_IN_TIME);
      assertThat(result.reason()).contains("time limit PT1S reached");
      assertThat(result.statistics().get("labelsExpanded")).isZero();
      assertThat(result.solveTime()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }
    assertThat(stopped).isPositive();
  }
}
