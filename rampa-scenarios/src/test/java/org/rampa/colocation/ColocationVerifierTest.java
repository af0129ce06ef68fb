package org.rampa.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.LinearInterference;
import org.rampa.verify.PlanRejectedException;
import org.rampa.verify.Violation;
import org.rampa.verify.Violation.Kind;
import org.rampa.scenarios.ParvaGpuScenarios;


class ColocationVerifierTest {

  private static final ColocationProblem S1 = ParvaGpuScenarios.scenario(1, 10, ColocationObjective.MIN_GPUS);

  private static GpuConfiguration gpu(Segment... segments) {
    return new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(segments));
  }

  @Test
  void measuredSegmentThroughputIsProcessesTimesPerProcessThroughput() {
    // resnet50.csv: 1g, batch 1, 2 processes: 125.968 req/s per process
    var perf = ColocationPerformance.evaluate(S1, gpu(new Segment("resnet50", new MigSliceMps("1g.10gb", 0, 2, 0), 1))).orElseThrow();
    assertThat(perf.get(0).throughput()).isCloseTo(2 * 125.968, org.assertj.core.api.Assertions.within(1e-6));
    assertThat(perf.get(0).slowdown()).isEqualTo(1);
  }

  @Test
  void refusesIllegalLayoutsMixedModesAndTooManyGpus() {
    assertThat(ColocationVerifier.check(S1, new ColocationPlan(List.of(gpu(
        new Segment("resnet50", new MigSlice("3g.40gb", 0), 1), new Segment("bert", new MigSlice("4g.40gb", 0), 1))), 0)))
        .anySatisfy(v -> assertThat(v.kind()).isEqualTo(Kind.MIG_LAYOUT))
        .anySatisfy(v -> assertThat(v.message()).contains("illegal MIG layout"));
    assertThat(ColocationVerifier.check(S1, new ColocationPlan(List.of(gpu(
        new Segment("resnet50", new Whole(), 1), new Segment("bert", new MigSlice("4g.40gb", 0), 1))), 0)))
        .anySatisfy(v -> assertThat(v.kind()).isEqualTo(Kind.SHARING_MODE))
        .anySatisfy(v -> assertThat(v.message()).contains("shares its GPU only in time"));
    GpuConfiguration one = gpu(new Segment("resnet50", new MigSlice("1g.10gb", 0), 1));
    assertThat(ColocationVerifier.check(S1, new ColocationPlan(java.util.Collections.nCopies(11, one), 0)))
        .singleElement().satisfies(v -> {
          assertThat(v.kind()).isEqualTo(Kind.GPU_COUNT);
          assertThat(v.message()).contains("11 GPUs of A100-SXM4-80GB used, the cluster has 10");
        });
  }

  @Test
  void refusesASegmentOverTheSloRuleAndUnmetDemand() {
    // inceptionv3 in scenario 5: SLO 145.5 ms, rule 0.45 × 145.5 = 65.5 ms; batch 64 on 1g takes 64 / 583.922 = 110 ms
    ColocationProblem s5 = ParvaGpuScenarios.scenario(5, 10, ColocationObjective.MAX_SCALE);
    List<Violation> v = ColocationVerifier.check(s5, new ColocationPlan(List.of(gpu(new Segment("inceptionv3", new MigSlice("1g.10gb", 0), 64))), 0));
    assertThat(v).singleElement().satisfies(m -> {
      assertThat(m.kind()).isEqualTo(Kind.LATENCY);
      assertThat(m.message()).contains("the SLO rule allows 0.45");
    });
    List<Violation> demand = ColocationVerifier.check(S1, new ColocationPlan(List.of(gpu(new Segment("resnet50", new MigSlice("7g.80gb", 0), 8))), 1));
    assertThat(demand).anySatisfy(m -> assertThat(m.message()).startsWith("service bert: served 0.0 req/s"));
  }

  @Test
  void mpsCoRunnersSlowEachOtherByTheInterferenceModel() {
    String type = "A100-SXM4-80GB";
    ColocationService a = new ColocationService("a", ModelCatalog.model("resnet50"), List.of(1), List.of(1), 10, Duration.ofSeconds(1), 1L << 30, 1);
    ColocationService b = new ColocationService("b", ModelCatalog.model("vgg16"), List.of(1), List.of(1), 10, Duration.ofSeconds(1), 1L << 30, 1);
    ColocationProblem p = new ColocationProblem(List.of(a, b),
        List.of(new GpuPool(GpuCatalog.standard().type(type), SharingCatalog.standard().partitioning(type), 1)),
        AnalyticShareTimeModel.calibrated(), new LinearInterference(0.1), SloRule.wholeSlo(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
    GpuConfiguration pair = new GpuConfiguration(type, List.of(new Segment("a", new MpsShare(0.5, 1L << 30), 1), new Segment("b", new MpsShare(0.5, 1L << 30), 1)));
    var perf = ColocationPerformance.evaluate(p, pair).orElseThrow();
    assertThat(perf).allSatisfy(s -> assertThat(s.slowdown()).isCloseTo(1.1, org.assertj.core.api.Assertions.within(1e-12)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(pair), 1))).isEmpty();
    GpuConfiguration over = new GpuConfiguration(type, List.of(new Segment("a", new MpsShare(0.6, 1L << 30), 1), new Segment("b", new MpsShare(0.5, 1L << 30), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(over), 1))).anySatisfy(m -> assertThat(m.message()).contains("MPS admission"));
    GpuConfiguration small = new GpuConfiguration(type, List.of(new Segment("a", new MpsShare(0.5, 1L << 20), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(small), 0))).anySatisfy(m -> assertThat(m.message()).contains("the service needs 1073741824"));
  }

  /** Two catalog services on one GPU of {@code type} (MI100 or the modelled NPU), analytic tier, linear γ = 0.1. */
  private static ColocationProblem twoServicesOn(org.rampa.domain.GpuType type) {
    ColocationService a = new ColocationService("a", ModelCatalog.model("resnet50"), List.of(1), List.of(1), 10, Duration.ofSeconds(1), 1L << 30, 1);
    ColocationService b = new ColocationService("b", ModelCatalog.model("vgg16"), List.of(1), List.of(1), 10, Duration.ofSeconds(1), 1L << 30, 1);
    return new ColocationProblem(List.of(a, b), List.of(new GpuPool(type, SharingCatalog.standard().partitioning(type.name()), 1)),
        AnalyticShareTimeModel.calibrated(), new LinearInterference(0.1), SloRule.wholeSlo(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
  }

  @Test
  void cuMasksAreContendedSharesSummingToAtMostTheCard() {
    ColocationProblem p = twoServicesOn(GpuCatalog.standard().type("MI100"));
    GpuConfiguration pair = new GpuConfiguration("MI100", List.of(new Segment("a", new CuMask(60, 1L << 30), 1), new Segment("b", new CuMask(60, 1L << 30), 1)));
    var perf = ColocationPerformance.evaluate(p, pair).orElseThrow();
    assertThat(perf).allSatisfy(s -> assertThat(s.slowdown()).isCloseTo(1.1, org.assertj.core.api.Assertions.within(1e-12)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(pair), 1))).isEmpty();
    GpuConfiguration over = new GpuConfiguration("MI100", List.of(new Segment("a", new CuMask(61, 1L << 30), 1), new Segment("b", new CuMask(60, 1L << 30), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(over), 1))).anySatisfy(m -> assertThat(m.message()).contains("MPS admission", "sum to 1.0083"));
    GpuConfiguration small = new GpuConfiguration("MI100", List.of(new Segment("a", new CuMask(60, 1L << 20), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(small), 0))).anySatisfy(m -> assertThat(m.message()).contains("the service needs 1073741824"));
    GpuConfiguration tooMany = new GpuConfiguration("MI100", List.of(new Segment("a", new CuMask(121, 1L << 30), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(tooMany), 0))).anySatisfy(m -> assertThat(m.message()).contains("cuMask.computeUnits = 121"));
    // a CU mask on a GPU without CU masking, and a CU mask beside a whole-GPU segment
    assertThat(ColocationVerifier.check(S1, new ColocationPlan(List.of(gpu(new Segment("bert", new CuMask(10, 0), 1))), 0)))
        .anySatisfy(m -> assertThat(m.message()).contains("offers no CU masking"));
    GpuConfiguration mixed = new GpuConfiguration("MI100", List.of(new Segment("a", new Whole(), 1), new Segment("b", new CuMask(60, 1L << 30), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(mixed), 1))).anySatisfy(m -> assertThat(m.message()).contains("shares its GPU only in time"));
  }

  @Test
  void templatesAreIsolatedHardPartitionsOfTheCardsCores() {
    org.rampa.domain.GpuType npu = SharingCatalog.standard().npuTypes().stream().filter(t -> t.name().equals("NPU-8C-64GB")).findFirst().orElseThrow();
    ColocationProblem p = twoServicesOn(npu);
    GpuConfiguration fits = new GpuConfiguration(npu.name(), List.of(new Segment("a", new TemplatePartition("vir04"), 1),
        new Segment("b", new TemplatePartition("vir02"), 1), new Segment("b", new TemplatePartition("vir02"), 1)));
    var perf = ColocationPerformance.evaluate(p, fits).orElseThrow();
    assertThat(perf).allSatisfy(s -> assertThat(s.slowdown()).isEqualTo(1));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(fits), 1))).isEmpty();
    GpuConfiguration over = new GpuConfiguration(npu.name(), List.of(new Segment("a", new TemplatePartition("vir08"), 1),
        new Segment("b", new TemplatePartition("vir01"), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(over), 1))).anySatisfy(m -> assertThat(m.message()).contains("use 9 cores, the card has 8"));
    GpuConfiguration mixed = new GpuConfiguration(npu.name(), List.of(new Segment("a", new TemplatePartition("vir04"), 1),
        new Segment("b", new CuMask(4, 1L << 30), 1)));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(mixed), 1))).anySatisfy(m -> assertThat(m.message()).contains("one sharing mode"));
    ColocationService big = new ColocationService("a", ModelCatalog.model("resnet50"), List.of(1), List.of(1), 10, Duration.ofSeconds(1), 9L << 30, 1);
    ColocationProblem bigProblem = new ColocationProblem(List.of(big), p.pools(), p.timeModel(), p.interference(), p.sloRule(), p.admission(), p.objective());
    GpuConfiguration tight = new GpuConfiguration(npu.name(), List.of(new Segment("a", new TemplatePartition("vir01"), 1)));
    assertThat(ColocationVerifier.check(bigProblem, new ColocationPlan(List.of(tight), 0))).anySatisfy(m -> assertThat(m.message()).contains("the service needs 9663676416"));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(new GpuConfiguration(npu.name(),
        List.of(new Segment("a", new TemplatePartition("vir03"), 1)))), 0))).anySatisfy(m -> assertThat(m.message()).contains("vir03"));
  }

  @Test
  void badInputNamesTheField() {
    assertThatThrownBy(() -> ParvaGpuScenarios.scenario(7, 1, ColocationObjective.MIN_GPUS)).hasMessageContaining("parvagpuScenario = 7");
    assertThatThrownBy(() -> new SloRule(0)).hasMessageContaining("sloRule.latencyFraction");
  }

  /** A planner that returns {@code plan}, or no plan when it is null. */
  private static ColocationPlanner returning(ColocationPlan plan) {
    return new ColocationPlanner() {
      @Override
      public String name() {
        return "fixed";
      }

      @Override
      public ColocationResult plan(ColocationProblem problem, Duration timeLimit) {
        return plan == null ? ColocationResult.noPlan(org.rampa.strategy.SolveStatus.NO_PLAN_FOUND, "none")
            : new ColocationResult(org.rampa.strategy.SolveStatus.FEASIBLE, java.util.Optional.of(plan), java.util.OptionalDouble.of(plan.gpuCount()),
                java.util.OptionalDouble.empty(), "fixed");
      }
    };
  }

  @Test
  void theVerifyingPlannerRejectsARefusedPlanWithTypedViolationsAndPassesTheRest() {
    GpuConfiguration one = gpu(new Segment("resnet50", new MigSlice("1g.10gb", 0), 1));
    ColocationPlanner tooMany = VerifiedColocationPlanner.of(returning(new ColocationPlan(java.util.Collections.nCopies(11, one), 0)));
    assertThat(tooMany.name()).isEqualTo("fixed");
    assertThatThrownBy(() -> tooMany.plan(S1, Duration.ofSeconds(1)))
        .isInstanceOfSatisfying(PlanRejectedException.class, e -> assertThat(e.violations()).extracting(Violation::kind).containsExactly(Kind.GPU_COUNT))
        .hasMessageContaining("co-location plan of planner fixed violates 1 rule(s)");
    assertThat(VerifiedColocationPlanner.of(returning(null)).plan(S1, Duration.ofSeconds(1)).plan()).isEmpty();
    assertThat(VerifiedColocationPlanner.of(tooMany)).isSameAs(tooMany);
    ColocationProblem p = twoServicesOn(GpuCatalog.standard().type("MI100"));
    ColocationPlan valid = new ColocationPlan(List.of(new GpuConfiguration("MI100",
        List.of(new Segment("a", new CuMask(60, 1L << 30), 1), new Segment("b", new CuMask(60, 1L << 30), 1)))), 1);
    assertThat(VerifiedColocationPlanner.of(returning(valid)).plan(p, Duration.ofSeconds(1)).plan()).contains(valid);
  }
}
