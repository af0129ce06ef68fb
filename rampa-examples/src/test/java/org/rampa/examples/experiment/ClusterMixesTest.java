package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.examples.experiment.ClusterMixes.Cluster;
import org.rampa.perf.share.SharedStage;

/** E2's clusters and seeded mixes. */
class ClusterMixesTest {

  @Test
  void aSeedGivesOneMixAndTheRegimeShapesItsBatches() {
    ColocationProblem a = ClusterMixes.problem(Cluster.A100, 120, 0.75, 128, 7, ColocationObjective.MAX_SCALE);
    ColocationProblem b = ClusterMixes.problem(Cluster.A100, 120, 0.75, 128, 7, ColocationObjective.MAX_SCALE);
    ColocationProblem other = ClusterMixes.problem(Cluster.A100, 120, 0.75, 128, 8, ColocationObjective.MAX_SCALE);
    assertThat(a.services()).isEqualTo(b.services()).hasSize(120);
    assertThat(other.services()).isNotEqualTo(a.services());
    long small = a.services().stream().filter(s -> s.batches().equals(List.of(1, 2))).count();
    assertThat(small).as("about 3/4 of 120 small-batch").isBetween(70L, 110L);
    assertThat(a.services()).allSatisfy(s -> assertThat(s.batches()).isIn(List.of(1, 2), List.of(1, 2, 4, 8, 16, 32, 64, 128)));
    assertThat(ClusterMixes.problem(Cluster.A100, 50, 0, 1, 7, ColocationObjective.MAX_SCALE).services())
        .allSatisfy(s -> assertThat(s.batches()).containsExactly(1));
    assertThat(a.pools()).extracting(GpuPool::count).containsExactly(1000);
    assertThat(a.services().stream().map(s -> s.model().name()).distinct()).contains("llama-7b-decode-512", "resnet50");
  }

  @Test
  void sloIsAParvaGpuRatioTimesTheBatchOneLatency() {
    ColocationProblem p = ClusterMixes.problem(Cluster.A100, 200, 0, 128, 3, ColocationObjective.MAX_SCALE);
    GpuPool pool = p.pools().get(0);
    for (ColocationService s : p.services()) {
      double t1 = p.timeModel().seconds(SharedStage.wholeModel(s.model(), 1, pool.type(), pool.partitioning(), new Whole())).orElseThrow();
      double ratio = s.slo().toNanos() / 1e9 / t1;
      // ParvaGPU's scenarios set SLOs of a few to a few hundred batch-1 latencies
      assertThat(ratio).as(s.id()).isBetween(1.0, 1000.0);
    }
  }

  @Test
  void parvaGpuModelsGetMeasuredOrFittedTimesOnlyNeverTheAnalyticTier() {
    ColocationProblem p = ClusterMixes.problem(Cluster.A100, 40, 0, 128, 1, ColocationObjective.MAX_SCALE);
    GpuPool pool = p.pools().get(0);
    ColocationService resnet = ParvaGpuScenarios.service("resnet50", List.of(1), 1, java.time.Duration.ofSeconds(1));
    // an MPS share: the law fitted to ParvaGPU's one-process MIG series (modelled); slower at a smaller share
    double half = p.timeModel().seconds(SharedStage.wholeModel(resnet.model(), 8, pool.type(), pool.partitioning(), new MpsShare(0.5, 0)))
        .orElseThrow();
    double fifth = p.timeModel().seconds(SharedStage.wholeModel(resnet.model(), 8, pool.type(), pool.partitioning(), new MpsShare(0.2, 0)))
        .orElseThrow();
    assertThat(fifth).isGreaterThan(half);
    // ParvaGPU never measured 5 processes at batch 256 and the name-only model has no layers: no answer at all
    assertThat(p.timeModel().seconds(SharedStage.wholeModel(resnet.model(), 256, pool.type(), pool.partitioning(),
        new MigSliceMps("7g.80gb", 0, 5, 0)))).isEmpty();
  }

  @Test
  void heterogeneousClusterHasFourCatalogTypes() {
    ColocationProblem p = ClusterMixes.problem(Cluster.HETERO, 30, 0.5, 128, 1, ColocationObjective.MAX_SCALE);
    assertThat(p.pools()).extracting(g -> g.type().name()).containsExactly("A100-SXM4-80GB", "H100-SXM5-80GB", "L4", "V100-SXM2-32GB");
    assertThat(p.pools().stream().mapToInt(GpuPool::count).sum()).isEqualTo(1000);
  }

  @Test
  void npuClusterIsE1sModelledNpuCutIntoTemplatesAndEveryPlannerPlansItOrSaysWhyNot() {
    ColocationProblem p = ClusterMixes.problem(Cluster.NPU, 40, 0.75, 128, 3, ColocationObjective.MAX_SCALE);
    assertThat(p.pools()).singleElement().satisfies(pool -> {
      assertThat(pool.type()).isEqualTo(OneGpuShareExperiment.npu().type());
      assertThat(pool.count()).isEqualTo(1000);
      assertThat(pool.partitioning().mps()).isFalse();
      assertThat(pool.partitioning().templates()).extracting(t -> t.name()).containsExactly("vir01", "vir02", "vir04", "vir08");
    });
    assertThat(ClusterMixes.models(Cluster.NPU)).isEqualTo(ClusterMixes.models(Cluster.HETERO));

    List<ClusterExperiment.Row> rows = ClusterExperiment.runOne(new ClusterExperiment.Config(Cluster.NPU, ClusterExperiment.Regime.small(0.75), 3, 40,
        List.of()), List.of("exact", "heuristic", "exclusive", "even-mps-2", "gpu-lets", "uniform-mig-1g", "learned"), Duration.ofSeconds(5), false,
        org.rampa.perf.share.TierMargins.none(), () -> {});
    Map<String, ClusterExperiment.Row> by = new java.util.HashMap<>();
    rows.forEach(r -> by.put(r.planner(), r));
    double exclusive = by.get("exclusive").scale();
    assertThat(exclusive).isPositive();
    assertThat(by.get("heuristic").scale()).isGreaterThan(exclusive);
    assertThat(by.get("exact").scale()).isGreaterThanOrEqualTo(by.get("heuristic").scale() * (1 - 1e-9));
    assertThat(by.get("exact").bound()).isGreaterThanOrEqualTo(by.get("exact").scale() * (1 - 1e-6));
    assertThat(by.get("heuristic").reconfigured()).as("NPUs cut into templates").isPositive();
    assertThat(by.get("heuristic").unusableSlices()).as("templates have no positions to strand").isZero();
    assertThat(by.get("uniform-mig-1g").status()).isEqualTo("NO_PLAN_FOUND");
    assertThat(by.get("uniform-mig-1g").scale()).isZero();
  }
}
