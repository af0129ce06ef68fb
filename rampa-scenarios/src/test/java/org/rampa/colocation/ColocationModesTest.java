package org.rampa.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Model;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.SharedStage;
import org.rampa.scenarios.ParvaGpuScenarios;


/** Time-shared GPUs and pipelined services: what ColocationPerformance computes and ColocationVerifier refuses. */
class ColocationModesTest {

  private static final String TYPE = "A100-SXM4-80GB";
  private static final List<GpuPool> POOLS = List.of(new GpuPool(GpuCatalog.standard().type(TYPE), SharingCatalog.standard().partitioning(TYPE), 4));

  private static ColocationProblem problem(ColocationService... services) {
    return new ColocationProblem(List.of(services), POOLS, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(), SloRule.wholeSlo(),
        MpsAdmission.strict(), ColocationObjective.MAX_SCALE);
  }

  private static ColocationService service(String id, String model, long sloMillis, long memory) {
    return new ColocationService(id, ModelCatalog.model(model), List.of(1, 8), List.of(1), 10, Duration.ofMillis(sloMillis), memory, 1);
  }

  private static double alone(ColocationProblem p, String service, int batch) {
    return p.timeModel().seconds(SharedStage.wholeModel(p.service(service).model(), batch, POOLS.get(0).type(), POOLS.get(0).partitioning(), new Whole()))
        .orElseThrow();
  }

  @Test
  void timeSharedTenantsShareOneRound() {
    ColocationProblem p = problem(service("a", "resnet50", 1000, 1L << 30), service("b", "vgg16", 1000, 1L << 30));
    GpuConfiguration gpu = new GpuConfiguration(TYPE, List.of(new Segment("a", new Whole(), 8), new Segment("a", new Whole(), 8), new Segment("b", new Whole(), 1)));
    assertThat(gpu.timeShared()).isTrue();
    double round = 2 * alone(p, "a", 8) + alone(p, "b", 1);
    var perf = ColocationPerformance.evaluate(p, gpu).orElseThrow();
    assertThat(perf).allSatisfy(s -> assertThat(s.batchSeconds()).isCloseTo(round, within(1e-15)));
    assertThat(perf.get(0).slowdown()).isCloseTo(round / alone(p, "a", 8), within(1e-12));
    var served = ColocationVerifier.throughputs(p, new ColocationPlan(List.of(gpu), 0));
    // two batches of 8 per round for a, one batch of 1 for b: each a time fraction of its exclusive throughput
    assertThat(served.get("a")).isCloseTo(16 / round, within(1e-9));
    assertThat(served.get("b")).isCloseTo(1 / round, within(1e-9));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(gpu), 0))).isEmpty();
  }

  @Test
  void aTimeSharedRoundMustMeetEveryTenantsSloAndAllTenantsMustBeResident() {
    ColocationProblem base = problem(service("a", "resnet50", 1000, 1L << 30), service("b", "vgg16", 1000, 1L << 30));
    double a = alone(base, "a", 8);
    double b = alone(base, "b", 8);
    // a's SLO admits its own batch (and b's), not both in one round
    ColocationService tightA = new ColocationService("a", ModelCatalog.model("resnet50"), List.of(1, 8), List.of(1), 10, Duration.ofNanos((long) ((b + a / 2) * 1e9)),
        1L << 30, 1);
    ColocationProblem tight = problem(tightA, service("b", "vgg16", 1000, 1L << 30));
    GpuConfiguration pair = new GpuConfiguration(TYPE, List.of(new Segment("a", new Whole(), 8), new Segment("b", new Whole(), 8)));
    assertThat(ColocationVerifier.check(tight, new ColocationPlan(List.of(new GpuConfiguration(TYPE, List.of(new Segment("a", new Whole(), 8)))), 0))).isEmpty();
    assertThat(ColocationVerifier.check(tight, new ColocationPlan(List.of(pair), 0))).singleElement()
        .satisfies(m -> assertThat(m.message()).contains("segment 0 (a)").contains("the SLO rule allows"));
    ColocationProblem big = problem(service("a", "resnet50", 1000, 50L << 30), service("b", "vgg16", 1000, 50L << 30));
    assertThat(ColocationVerifier.check(big, new ColocationPlan(List.of(pair), 0))).anySatisfy(m -> assertThat(m.message()).contains("time-sharing keeps every tenant resident"));
    GpuConfiguration mixed = new GpuConfiguration(TYPE, List.of(new Segment("a", new Whole(), 8), new Segment("b", new MigSlice("1g.10gb", 0), 1)));
    assertThat(mixed.timeShared()).isFalse();
    assertThat(ColocationVerifier.check(base, new ColocationPlan(List.of(mixed), 0))).anySatisfy(m -> assertThat(m.message()).contains("shares its GPU only in time"));
  }

  @Test
  void tenantsMayTakeTurnsOnOneMigInstance() {
    // ParvaGPU's tables time MIG instances only: time-sharing there takes turns on the 7g instance
    ColocationProblem s1 = ParvaGpuScenarios.scenario(1, 10, ColocationObjective.MAX_SCALE);
    MigSlice sevenG = new MigSlice("7g.80gb", 0);
    GpuConfiguration gpu = new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(new Segment("resnet50", sevenG, 8), new Segment("bert", sevenG, 8)));
    assertThat(gpu.timeShared()).isTrue();
    GpuConfiguration resnet = new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(new Segment("resnet50", sevenG, 8)));
    GpuConfiguration bert = new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(new Segment("bert", sevenG, 8)));
    double round = ColocationPerformance.evaluate(s1, resnet).orElseThrow().get(0).batchSeconds() + ColocationPerformance.evaluate(s1, bert).orElseThrow().get(0).batchSeconds();
    assertThat(ColocationPerformance.evaluate(s1, gpu).orElseThrow()).allSatisfy(x -> assertThat(x.batchSeconds()).isCloseTo(round, within(1e-15)));
    assertThat(ColocationVerifier.check(s1, new ColocationPlan(List.of(gpu), 0))).isEmpty();
    // two different instances at overlapping starts are a spatial layout, and an illegal one
    GpuConfiguration overlap = new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, List.of(new Segment("resnet50", sevenG, 8), new Segment("bert", new MigSlice("3g.40gb", 0), 8)));
    assertThat(overlap.timeShared()).isFalse();
    assertThat(ColocationVerifier.check(s1, new ColocationPlan(List.of(overlap), 0))).anySatisfy(m -> assertThat(m.message()).contains("illegal MIG layout"));
  }

  @Test
  void aPipelineServesItsSlowestStageWithinTheSumOfItsStagesTimes() {
    Model vgg = ModelCatalog.model("vgg16");
    PipelinePartition halves = PipelinePartition.evenFlops(vgg, 2);
    ColocationService s = service("v", "vgg16", 1000, 1L << 30).withPartitions(List.of(halves));
    ColocationProblem p = problem(s);
    Segment first = new Segment("v", new MigSlice("3g.40gb", 0), 8, new PipelineStage(0, 0));
    Segment second = new Segment("v", new MigSlice("3g.40gb", 4), 8, new PipelineStage(0, 1));
    GpuConfiguration gpu = new GpuConfiguration(TYPE, List.of(first, second));
    var perf = ColocationPerformance.evaluate(p, gpu).orElseThrow();
    ColocationPlan plan = new ColocationPlan(List.of(gpu), 0);
    assertThat(ColocationVerifier.throughputs(p, plan).get("v")).isCloseTo(Math.min(perf.get(0).throughput(), perf.get(1).throughput()), within(1e-9));
    assertThat(ColocationVerifier.check(p, plan)).isEmpty();
    // one stage alone serves nothing
    ColocationPlan half = new ColocationPlan(List.of(new GpuConfiguration(TYPE, List.of(first))), 1);
    assertThat(ColocationVerifier.check(p, half)).anySatisfy(m -> assertThat(m.message()).startsWith("service v: served 0.0 req/s"));
    // the SLO rule judges the sum of the stages' batch times, not each stage alone
    long sum = (long) Math.floor((perf.get(0).batchSeconds() + perf.get(1).batchSeconds()) * 1e3 * 0.99);
    ColocationProblem tight = problem(new ColocationService("v", vgg, List.of(8), List.of(1), 10, Duration.ofMillis(sum), 1L << 30, 1, List.of(halves)));
    assertThat(perf.get(0).batchSeconds() * 1e3).isLessThan(sum);
    assertThat(ColocationVerifier.check(tight, plan)).singleElement().satisfies(m -> assertThat(m.message()).contains("partition 0").contains("in sum"));
    // a stage the service does not offer
    Segment unknown = new Segment("v", new MigSlice("3g.40gb", 0), 8, new PipelineStage(1, 0));
    assertThat(ColocationVerifier.check(p, new ColocationPlan(List.of(new GpuConfiguration(TYPE, List.of(unknown))), 0)))
        .anySatisfy(m -> assertThat(m.message()).contains("segment[v].stage.partition = 1"));
  }

  @Test
  void aStageProcessHoldsOnlyItsOwnWeights() {
    Model llama = ModelCatalog.model("llama2-13b");
    PipelinePartition halves = PipelinePartition.evenFlops(llama, 2);
    ColocationService s = new ColocationService("l", llama, List.of(1), List.of(1), 1, Duration.ofSeconds(10), llama.totalWeightBytes() + (1L << 30), 1,
        List.of(halves));
    long firstWeights = 0;
    for (int l = 0; l < halves.cuts().get(0); l++) {
      firstWeights += llama.layer(l).weightBytes();
    }
    assertThat(s.processMemoryBytes(new PipelineStage(0, 0))).isEqualTo(firstWeights + (1L << 30));
    assertThat(s.processMemoryBytes(null)).isEqualTo(llama.totalWeightBytes() + (1L << 30));
  }

  @Test
  void evenFlopsPartitionsAreContiguousAndBalanced() {
    for (String name : List.of("resnet50", "vgg16", "bert-base", "llama2-7b")) {
      Model m = ModelCatalog.model(name);
      for (int k = 2; k <= 4; k++) {
        PipelinePartition part = PipelinePartition.evenFlops(m, k);
        assertThat(part.stages()).as(name + " in " + k).isEqualTo(k);
        double largestLayer = m.layers().stream().mapToDouble(l -> l.flopsPerSample()).max().orElseThrow();
        for (int s = 0; s < k; s++) {
          assertThat(part.to(s, m.size())).isGreaterThan(part.from(s));
          double flops = 0;
          for (int l = part.from(s); l < part.to(s, m.size()); l++) {
            flops += m.layer(l).flopsPerSample();
          }
          assertThat(flops).as(name + " stage " + s + " of " + k).isLessThanOrEqualTo(m.totalFlopsPerSample() / k + largestLayer + 1e-6 * m.totalFlopsPerSample());
        }
      }
    }
  }

  @Test
  void badPartitionsNameTheField() {
    Model vgg = ModelCatalog.model("vgg16");
    assertThatThrownBy(() -> new PipelinePartition(List.of(5, 3))).hasMessageContaining("partition.cuts").hasMessageContaining("strictly increasing");
    assertThatThrownBy(() -> service("v", "vgg16", 100, 0).withPartitions(List.of(new PipelinePartition(List.of(vgg.size())))))
        .hasMessageContaining("service[v].partitions[0].cuts");
    assertThatThrownBy(() -> PipelinePartition.evenFlops(vgg, 1)).hasMessageContaining("partition.stages = 1");
  }
}
