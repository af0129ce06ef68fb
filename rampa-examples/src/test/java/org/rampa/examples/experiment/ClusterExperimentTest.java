package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.examples.experiment.ClusterExperiment.Row;
import org.rampa.examples.experiment.ClusterMixes.Cluster;
import org.rampa.examples.experiment.ClusterMixes.DemandLine;

/** E2's runner on a small user cluster and demand, and its fragmentation and reconfiguration counts on hand-built plans. */
class ClusterExperimentTest {

  private static final Cluster SMALL = Cluster.custom("small", List.of(
      new GpuPool(GpuCatalog.standard().type("A100-SXM4-80GB"), SharingCatalog.standard().partitioning("A100-SXM4-80GB"), 6),
      new GpuPool(GpuCatalog.standard().type("L4"), SharingCatalog.standard().partitioning("L4"), 4)));

  private static final List<DemandLine> DEMAND = List.of(
      new DemandLine("resnet50", 400, Duration.ofMillis(50), 16),
      new DemandLine("bert-base", 200, Duration.ofMillis(80), 4),
      new DemandLine("llama2-7b-decode-512", 40, Duration.ofMillis(200), 32));

  @Test
  void everyPlannerPlansTheDemandAndExactIsNoWorseThanTheHeuristicItStartsFrom() {
    List<String> planners = List.of("exact", "heuristic", "exclusive", "gpu-lets", "learned");
    java.util.concurrent.atomic.AtomicInteger solves = new java.util.concurrent.atomic.AtomicInteger();
    List<Row> rows = ClusterExperiment.runOne(ClusterExperiment.configs(List.of(SMALL), DEMAND).get(0), planners, Duration.ofSeconds(10), true,
        org.rampa.perf.share.TierMargins.none(), solves::incrementAndGet);
    // the progress bar's count: every solve reported, the learned policy's skipped fewest-GPU solve too
    assertThat(solves).hasValue(ClusterExperiment.solvesPerConfig(planners, true));
    assertThat(rows).extracting(Row::planner).containsExactly("exact", "heuristic", "exclusive", "gpu-lets", "learned");
    Row exact = rows.get(0);
    Row heuristic = rows.get(1);
    Row exclusive = rows.get(2);
    assertThat(exclusive.scale()).isPositive();
    assertThat(exclusive.reconfigured()).isZero();
    assertThat(heuristic.scale()).isGreaterThan(exclusive.scale());
    assertThat(exact.scale()).isGreaterThanOrEqualTo(heuristic.scale() * (1 - 1e-9));
    if (!Double.isNaN(exact.bound())) {
      assertThat(exact.bound()).isGreaterThanOrEqualTo(exact.scale() * (1 - 1e-6));
    }
    // the fewest GPUs for the demand exclusive use serves on the whole cluster: at most the cluster
    assertThat(exclusive.gpusNeeded()).isBetween(1, 10);
    assertThat(heuristic.gpusNeeded()).isBetween(1, exclusive.gpusNeeded());
    assertThat(rows.get(4).gpusNeeded()).as("the learned policy's fewest GPUs (issue 24)").isBetween(1, 10);
    assertThat(rows).allSatisfy(r -> assertThat(r.gpusUsed()).isBetween(0, 10));
  }

  @Test
  void unusableSlicesAreFreeMemorySlicesNoProfileCanStillTake() {
    ColocationProblem p = ClusterExperiment.configs(List.of(SMALL), DEMAND).get(0).problem(org.rampa.colocation.ColocationObjective.MAX_SCALE);
    String a100 = "A100-SXM4-80GB";
    // 4g@0 + 2g@4 + 1g@6: slice 7 is free, but 1g may not start at 7 and 1g.20gb at 6 overlaps the 1g
    GpuConfiguration stranded = new GpuConfiguration(a100, List.of(seg("4g.40gb", 0), seg("2g.20gb", 4), seg("1g.10gb", 6)));
    // 4g@0 + 2g@4: slices 6 and 7 are free and 1g.20gb@6 can take both
    GpuConfiguration open = new GpuConfiguration(a100, List.of(seg("4g.40gb", 0), seg("2g.20gb", 4)));
    GpuConfiguration whole = new GpuConfiguration(a100, List.of(new Segment("s000-resnet50", new Whole(), 1)));
    GpuConfiguration mps = new GpuConfiguration("L4", List.of(new Segment("s000-resnet50", new MpsShare(0.5, 1L << 30), 1)));
    assertThat(ClusterExperiment.unusableSlices(p, new ColocationPlan(List.of(stranded), 0))).isEqualTo(1);
    assertThat(ClusterExperiment.unusableSlices(p, new ColocationPlan(List.of(open, whole, mps), 0))).isZero();
    assertThat(ClusterExperiment.reconfigured(new ColocationPlan(List.of(stranded, open, whole, mps), 0))).isEqualTo(3);
    assertThat(ClusterExperiment.layouts(new ColocationPlan(List.of(stranded, open, open, whole), 0))).isEqualTo(3);
    assertThat(ClusterExperiment.idleCompute(p, new ColocationPlan(List.of(mps), 0))).isEqualTo(0.5);
  }

  private static Segment seg(String profile, int start) {
    return new Segment("s000-resnet50", new MigSlice(profile, start), 1);
  }
}
