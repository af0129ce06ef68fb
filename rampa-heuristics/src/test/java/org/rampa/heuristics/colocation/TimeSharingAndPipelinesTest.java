package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.PipelinePartition;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SloRule;
import org.rampa.domain.Model;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;

/** The time-sharing baseline and the heuristic on pipelined services, on seeded random mixes. */
class TimeSharingAndPipelinesTest {

  @Test
  void timeSharingTenantsTakeTurnsOnOnePart() {
    int shared = 0;
    for (long seed = 0; seed < 60; seed++) {
      ColocationProblem p = RandomMixes.of(seed);
      ColocationResult r = ColocationPlanners.named("time-sharing").plan(p, Duration.ofSeconds(2));
      if (r.plan().isEmpty()) {
        continue;
      }
      assertThat(ColocationVerifier.check(p, r.plan().get())).isEmpty();
      for (GpuConfiguration gpu : r.plan().get().gpus()) {
        // no spatial share: one segment alone, or every segment on the same part (the whole GPU or the largest MIG instance)
        assertThat(gpu.segments().size() == 1 || gpu.timeShared()).as(gpu.toString()).isTrue();
        if (gpu.segments().stream().map(Segment::service).distinct().count() > 1) {
          shared++;
          var perf = ColocationPerformance.evaluate(p, gpu).orElseThrow();
          // one round: every segment waits for all the others' batches, so all see the same round and α > 1
          assertThat(perf).allSatisfy(x -> {
            assertThat(x.batchSeconds()).isEqualTo(perf.get(0).batchSeconds());
            assertThat(x.slowdown()).isGreaterThan(1);
          });
        }
      }
    }
    assertThat(shared).as("GPUs time-shared by two or more services over 60 seeds").isPositive();
  }

  @Test
  void timeSharingSaysNoPlanForADemandFarBeyondTheCluster() {
    ColocationProblem p = RandomMixes.of(3);
    ColocationProblem huge = new ColocationProblem(p.services().stream().map(s -> new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(),
        s.rate() * 1e12, s.slo(), s.processMemoryBytes(), s.weight())).toList(), p.pools(), p.timeModel(), p.interference(), p.sloRule(), p.admission(),
        ColocationObjective.MIN_GPUS);
    ColocationResult r = ColocationPlanners.named("time-sharing").plan(huge, Duration.ofSeconds(2));
    assertThat(r.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
    assertThat(r.reason()).startsWith("time-sharing:");
  }

  @Test
  void pipelinedServicesArePlannedInStagesAndVerified() {
    int plans = 0;
    int staged = 0;
    for (long seed = 0; seed < 40; seed++) {
      ColocationProblem p = RandomMixes.pipelined(seed);
      ColocationResult r = ColocationPlanners.named("heuristic").plan(p, Duration.ofSeconds(2));
      assertThat(r.status()).as(r.reason()).isIn(SolveStatus.FEASIBLE, SolveStatus.NO_PLAN_FOUND);
      if (r.plan().isEmpty()) {
        continue;
      }
      plans++;
      ColocationPlan plan = r.plan().get();
      assertThat(ColocationVerifier.check(p, plan)).isEmpty();
      List<Segment> stages = plan.gpus().stream().flatMap(g -> g.segments().stream()).filter(s -> s.stage() != null).toList();
      if (!stages.isEmpty()) {
        staged++;
        // one partition per service, every one of its stages present
        for (String service : stages.stream().map(Segment::service).collect(Collectors.toSet())) {
          Set<Integer> partitions = stages.stream().filter(s -> s.service().equals(service)).map(s -> s.stage().partition()).collect(Collectors.toSet());
          assertThat(partitions).hasSize(1);
          int partition = partitions.iterator().next();
          long present = stages.stream().filter(s -> s.service().equals(service)).map(s -> s.stage().stage()).distinct().count();
          assertThat(present).isEqualTo(p.service(service).partitions().get(partition).stages());
        }
      }
    }
    System.out.println("heuristic on pipelined mixes: " + plans + " verified plans, " + staged + " of them with pipeline stages");
    assertThat(plans).isPositive();
  }

  @Test
  void aModelLargerThanAnyGpuIsServedOnlyWhenSplit() {
    // Llama-2-70B's 138 GB of weights fit no A100-80GB; two or three stages of about equal FLOPs do
    Model model = ModelCatalog.model("llama2-70b");
    String type = "A100-SXM4-80GB";
    ColocationService whole = new ColocationService("llama", model, List.of(1, 2, 4), List.of(1), 20, Duration.ofSeconds(4), model.totalWeightBytes() + (2L << 30), 1);
    ColocationService split = whole.withPartitions(List.of(PipelinePartition.evenFlops(model, 2), PipelinePartition.evenFlops(model, 3)));
    List<GpuPool> pools = List.of(new GpuPool(GpuCatalog.standard().type(type), SharingCatalog.standard().partitioning(type), 100));
    ColocationProblem p = new ColocationProblem(List.of(split), pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(),
        SloRule.parvaGpu(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
    ColocationResult alone = ColocationPlanners.named("heuristic").plan(
        new ColocationProblem(List.of(whole), pools, p.timeModel(), p.interference(), p.sloRule(), p.admission(), p.objective()), Duration.ofSeconds(5));
    assertThat(alone.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
    ColocationResult r = ColocationPlanners.named("heuristic").plan(p, Duration.ofSeconds(5));
    assertThat(r.status()).as(r.reason()).isEqualTo(SolveStatus.FEASIBLE);
    ColocationPlan plan = r.plan().orElseThrow();
    assertThat(ColocationVerifier.check(p, plan)).isEmpty();
    List<Segment> segments = plan.gpus().stream().flatMap(g -> g.segments().stream()).toList();
    assertThat(segments).allSatisfy(s -> assertThat(s.stage()).isNotNull());
    int partition = segments.get(0).stage().partition();
    assertThat(segments).allSatisfy(s -> assertThat(s.stage().partition()).isEqualTo(partition));
    assertThat(segments.stream().map(s -> s.stage().stage()).distinct().count()).isEqualTo(split.partitions().get(partition).stages());
    assertThat(ColocationVerifier.throughputs(p, plan).get("llama")).isGreaterThanOrEqualTo(20 * (1 - 1e-9));
  }
}
