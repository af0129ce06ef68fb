package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.examples.experiment.Presets;

class StrandedCapacityTest {

  private final Cluster cluster = Presets.cluster("small");
  private final StrandedCapacity light = new StrandedCapacity(cluster, WorkloadSpec.lightMix().resolve(cluster));
  /** Llama-2-70B decode needs about 140 GB: no single GPU of the preset, nor any part of one, serves it. */
  private final StrandedCapacity huge = new StrandedCapacity(cluster,
      new WorkloadSpec(List.of(new WorkloadSpec.Entry("llama2-70b", "decode", 1024, 8, SloClass.LOOSE, 1, 8))).resolve(cluster));
  private final String a100 = cluster.gpus().stream().filter(g -> g.type().startsWith("A100")).map(Gpu::id).findFirst().orElseThrow();

  @Test
  void freeWholeGpusAreStrandedOnlyWhenNoClassFitsOnOne() {
    ClusterState empty = ClusterState.empty(cluster);
    assertThat(light.sample(empty)).isEqualTo(new StrandedCapacity.Sample(cluster.gpus().size(), 0));
    assertThat(huge.sample(empty)).isEqualTo(new StrandedCapacity.Sample(cluster.gpus().size(), cluster.gpus().size()));
  }

  @Test
  void anMpsRemainderIsStrandedWhenItsComputeOrItsMemoryIsTooSmallForEveryClass() {
    int others = cluster.gpus().size() - 1;
    // a quarter of an A100 serves a batch-1 MobileNetV2 with a loose SLO
    StrandedCapacity.Sample quarter = light.sample(holding(0.75, 1L << 30));
    assertThat(quarter.freeGpuEquivalents()).isCloseTo(others + 0.25, offset(1e-9));
    assertThat(quarter.strandedGpuEquivalents()).isZero();
    // a fifth of a GPU would serve MobileNetV2 too, but no menu level (1/2, 1/3, 1/4) fits in it
    assertThat(light.sample(holding(0.8, 1L << 30)).strandedGpuEquivalents()).isCloseTo(0.2, offset(1e-9));
    // with a level of 1/5 on the menu it is usable
    StrandedCapacity fifths = new StrandedCapacity(cluster, WorkloadSpec.lightMix().resolve(cluster), List.of(0.5, 0.2));
    assertThat(fifths.sample(holding(0.8, 1L << 30)).strandedGpuEquivalents()).isZero();
    // a sliver of compute serves nobody
    StrandedCapacity.Sample sliver = light.sample(holding(1 - 1.0 / 4096, 1L << 30));
    assertThat(sliver.strandedGpuEquivalents()).isCloseTo(1.0 / 4096, offset(1e-9));
    // half the compute, but the card's memory all taken but 1 MiB once the incumbent's and a newcomer's MPS contexts are counted
    long card = cluster.typeOf(a100).memoryBytes();
    long context = ClusterState.empty(cluster).partitioning(a100).mpsProcessOverheadBytes();
    StrandedCapacity.Sample noMemory = light.sample(holding(0.5, card - 2 * context - (1L << 20)));
    assertThat(noMemory.freeGpuEquivalents()).isCloseTo(others + 0.5, offset(1e-9));
    assertThat(noMemory.strandedGpuEquivalents()).isCloseTo(0.5, offset(1e-9));
  }

  @Test
  void unheldMigInstancesCountByTheirShareEquivalent() {
    ClusterState mig = ClusterState.empty(cluster).configureMig(a100, List.of(new MigSlice("4g.40gb", 0), new MigSlice("3g.40gb", 4)));
    // max(compute slices / 7, memory slices / 8): 4/7 and 1/2
    double instances = 4.0 / 7 + 0.5;
    int others = cluster.gpus().size() - 1;
    assertThat(light.sample(mig)).isEqualTo(new StrandedCapacity.Sample(others + instances, 0));
    StrandedCapacity.Sample none = huge.sample(mig);
    assertThat(none.strandedGpuEquivalents()).isCloseTo(others + instances, offset(1e-9));
  }

  private ClusterState holding(double share, long memory) {
    return ClusterState.empty(cluster).allocate(Allocation.of("incumbent", List.of(Holding.of(a100, new MpsShare(share, memory), memory))));
  }
}
