package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;

/**
 * The heuristic on a tiny two-type cluster (2 × A100, 2 × H100): once the best type's pool is full,
 * what is left of a service's demand spills over to its next-best type, so the plan uses both pools
 * and serves more than the heuristic does on either pool alone (what it served before spill-over).
 */
class HeterogeneousSpillTest {

  private static final String A100 = "A100-SXM4-80GB";
  private static final String H100 = "H100-SXM5-80GB";

  @Test
  void theLargestScaleUsesTheSecondTypeOnceTheBestIsFull() {
    ColocationPlan both = plan(problem(2, 2, ColocationObjective.MAX_SCALE, 1));
    double onlyA100 = plan(problem(2, 0, ColocationObjective.MAX_SCALE, 1)).scale();
    double onlyH100 = plan(problem(0, 2, ColocationObjective.MAX_SCALE, 1)).scale();

    assertThat(both.gpus()).extracting(GpuConfiguration::gpuType).contains(A100, H100);
    assertThat(both.scale()).as("scale on both pools vs A100 alone %s, H100 alone %s", onlyA100, onlyH100)
        .isGreaterThan(Math.max(onlyA100, onlyH100) * 1.05);
  }

  @Test
  void aDemandBeyondTheBestPoolIsPlannedOnBothTypes() {
    double onlyH100 = plan(problem(0, 2, ColocationObjective.MAX_SCALE, 1)).scale();
    double onlyA100 = plan(problem(2, 0, ColocationObjective.MAX_SCALE, 1)).scale();
    double beyond = Math.max(onlyA100, onlyH100) * 1.05;
    // the rates times a scale neither pool reaches alone: no plan on one pool, a plan on both
    ColocationResult alone = ColocationPlanners.named("heuristic").plan(problem(0, 2, ColocationObjective.MIN_GPUS, beyond), Duration.ofSeconds(10));
    assertThat(alone.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
    ColocationPlan spilled = plan(problem(2, 2, ColocationObjective.MIN_GPUS, beyond));
    assertThat(spilled.gpus()).extracting(GpuConfiguration::gpuType).contains(A100, H100);
  }

  /** The heuristic's plan, which must pass the verifier. */
  private static ColocationPlan plan(ColocationProblem p) {
    ColocationResult r = ColocationPlanners.named("heuristic").plan(p, Duration.ofSeconds(10));
    assertThat(r.status()).as(r.reason()).isEqualTo(SolveStatus.FEASIBLE);
    assertThat(ColocationVerifier.check(p, r.plan().orElseThrow())).isEmpty();
    return r.plan().orElseThrow();
  }

  private static ColocationProblem problem(int a100s, int h100s, ColocationObjective objective, double rateScale) {
    List<ColocationService> services = List.of(
        new ColocationService("resnet50", ModelCatalog.model("resnet50"), List.of(1, 4, 16), List.of(1), 400 * rateScale, Duration.ofMillis(60), 1L << 30, 1),
        new ColocationService("bert-base", ModelCatalog.model("bert-base"), List.of(1, 4, 16), List.of(1), 200 * rateScale, Duration.ofMillis(80), 1L << 30, 2));
    List<GpuPool> pools = List.of(
        new GpuPool(GpuCatalog.standard().type(A100), SharingCatalog.standard().partitioning(A100), a100s),
        new GpuPool(GpuCatalog.standard().type(H100), SharingCatalog.standard().partitioning(H100), h100s));
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(), SloRule.parvaGpu(),
        MpsAdmission.strict(), objective);
  }
}
