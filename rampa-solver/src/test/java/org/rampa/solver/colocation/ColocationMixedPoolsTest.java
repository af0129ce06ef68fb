package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.testing.Property;

/**
 * The aggregated model on a cluster of two types, one with MIG and MPS (A100-80GB) and one with
 * MPS only (T4), catalog models on the analytic tier: every objective's plan passes the verifier
 * and lies within its bound, and the heuristic-started fewest-GPU plan is never worse than the
 * heuristic's own.
 */
class ColocationMixedPoolsTest {

  private static ColocationProblem mix(long seed, ColocationObjective objective) {
    Random r = new Random(seed);
    List<String> models = new ArrayList<>(List.of("resnet50", "vgg16", "mobilenetv2", "bert-base"));
    java.util.Collections.shuffle(models, r);
    List<ColocationService> services = new ArrayList<>();
    for (String m : models.subList(0, 2 + r.nextInt(models.size() - 1))) {
      services.add(new ColocationService(m, ModelCatalog.model(m), List.of(1, 4, 16), List.of(1, 2), 50 + r.nextInt(3000),
          Duration.ofMillis(20 + r.nextInt(200)), 1L << 30, 1));
    }
    List<GpuPool> pools = List.of(
        new GpuPool(GpuCatalog.standard().type("A100-SXM4-80GB"), SharingCatalog.standard().partitioning("A100-SXM4-80GB"), 6 + r.nextInt(6)),
        new GpuPool(GpuCatalog.standard().type("T4"), SharingCatalog.standard().partitioning("T4"), 6 + r.nextInt(6)));
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(), SloRule.wholeSlo(),
        MpsAdmission.strict(), objective);
  }

  @Test
  void everyObjectiveGetsAVerifiedPlanWithinItsBound() {
    int[] solved = new int[2];
    Property.forSeeds("exact on A100 + T4", 4, seed -> {
      for (ColocationObjective objective : ColocationObjective.values()) {
        ColocationProblem p = mix(seed, objective);
        ColocationResult exact = new PatternColocationPlanner(ColocationPlanners.named("heuristic")).plan(p, Duration.ofSeconds(20));
        if (!exact.status().hasPlan()) {
          assertThat(objective).as(exact.reason()).isEqualTo(ColocationObjective.MIN_GPUS);
          continue;
        }
        assertThat(ColocationVerifier.check(p, exact.plan().get())).as(exact.reason()).isEmpty();
        double value = exact.value().getAsDouble();
        double bound = exact.bound().getAsDouble();
        if (objective == ColocationObjective.MIN_GPUS) {
          assertThat(value).isGreaterThanOrEqualTo(bound);
          ColocationResult h = ColocationPlanners.named("heuristic").plan(p, Duration.ofSeconds(5));
          h.plan().ifPresent(plan -> assertThat(value).as("seed " + seed).isLessThanOrEqualTo(plan.gpuCount()));
          solved[0]++;
        } else {
          assertThat(value).isLessThanOrEqualTo(bound * (1 + 1e-9));
        }
        solved[1] += exact.status() == org.rampa.strategy.SolveStatus.OPTIMAL ? 1 : 0;
      }
    });
    System.out.println("co-location A100 + T4: " + solved[0] + " fewest-GPU plans, " + solved[1] + " plans proven optimal over 12 solves");
    assertThat(solved[0]).isPositive();
  }
}
