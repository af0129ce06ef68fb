package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.TinyPlacementProblems;
import org.rampa.testing.TinySharedProblems;

/**
 * The label search's pruning (the Lagrangian latency bound and dominance across look-alike nodes)
 * never changes the least cost: on seeded random instances the pruned and the unpruned search
 * agree on infeasibility and, whenever both prove optimality, on the cost.
 */
class LabelSearchPruningTest {

  @Test
  void prunedAndUnprunedAgreeOnTinyWholeGpuInstances() {
    compare(1, 150, seed -> TinyPlacementProblems.generate(seed, 8, 6));
  }

  @Test
  void prunedAndUnprunedAgreeOnTinySharedInstances() {
    compare(20_000, 60, seed -> {
      PlacementProblem p = TinySharedProblems.generate(seed, 6, 4);
      return new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(), SharingOptions.on().withMargin("none").applyTo(p.options()));
    });
  }

  /** 48 GPUs on 16 nodes of four types, a random half held: many look-alike nodes, so dominance across nodes applies. */
  @Test
  void prunedAndUnprunedAgreeWithManyLookAlikeNodes() {
    compare(40_000, 40, LabelSearchPruningTest::lookAlikeNodes);
  }

  private static PlacementProblem lookAlikeNodes(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Cluster cluster = ClusterPresets.mixed(new int[] {4, 4, 4, 4}, 3);
    List<Plan> holds = new ArrayList<>();
    for (Gpu g : cluster.gpus()) {
      if (r.nextBoolean()) {
        holds.add(RandomInstances.holdPlan("background-" + holds.size(), g.id()));
      }
    }
    ClusterState state = ClusterState.empty(cluster).allocateAll(holds);
    boolean prefill = r.nextBoolean();
    String model = r.nextBoolean() ? "llama2-7b" : "llama2-13b";
    ServiceRequest request = ServiceRequest.builder().id("s" + seed)
        .model(prefill ? ModelCatalog.prefill(model, 512) : ModelCatalog.decode(model, 512))
        .slo(Slo.of(1 + r.nextInt(prefill ? 12 : 40), Duration.ofMillis(prefill ? 150 + r.nextInt(600) : 20 + r.nextInt(200)), 1))
        .maxStages(1 + r.nextInt(4)).build();
    StrategyOptions options = StrategyOptions.builder().timeLimit(Duration.ofSeconds(60))
        .transfers(r.nextBoolean() ? TransferMode.SERIAL : TransferMode.OVERLAPPED).build();
    return PlacementProblem.of(request, state, r.nextBoolean() ? ImportanceModels.capability() : ImportanceModels.fragmentation(), options);
  }

  private static void compare(long firstSeed, int instances, LongFunction<PlacementProblem> generate) {
    int bothOptimal = 0;
    long prunedExpanded = 0;
    long unprunedExpanded = 0;
    for (long seed = firstSeed; seed < firstSeed + instances; seed++) {
      PlacementProblem p = generate.apply(seed);
      LabelSettingOptions o = LabelSettingOptions.of(p.options());
      // without greedy's incumbent too: the search then leans on its own bound and dominance alone
      LabelSettingOptions options = seed % 2 == 0 ? o : new LabelSettingOptions(o.maxLabels(), o.maxSpreadOptions(), o.maxReplicas(), false,
          o.sharing());
      PlacementResult pruned = new LabelSearch(p, options, true).run();
      PlacementResult unpruned = new LabelSearch(p, options, false).run();
      String msg = "seed " + seed + " incumbent " + options.warmStart() + "\npruned   " + pruned + "\nunpruned " + unpruned;
      assertThat(pruned.status() == SolveStatus.INFEASIBLE).as(msg).isEqualTo(unpruned.status() == SolveStatus.INFEASIBLE);
      if (pruned.status() == SolveStatus.OPTIMAL && unpruned.status() == SolveStatus.OPTIMAL) {
        double a = pruned.plan().orElseThrow().cost();
        double b = unpruned.plan().orElseThrow().cost();
        assertThat(Math.abs(a - b)).as(msg).isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(b)));
        bothOptimal++;
        prunedExpanded += pruned.statistics().get("labelsExpanded").longValue();
        unprunedExpanded += unpruned.statistics().get("labelsExpanded").longValue();
      }
    }
    System.out.printf("pruned vs unpruned dp, %d instances: %d both OPTIMAL at one cost; labels expanded %d pruned, %d unpruned%n",
        instances, bothOptimal, prunedExpanded, unprunedExpanded);
    assertThat(bothOptimal).as("instances both searches proved").isGreaterThan(instances / 4);
  }
}
