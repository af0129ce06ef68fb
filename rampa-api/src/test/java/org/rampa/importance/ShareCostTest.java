package org.rampa.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;

class ShareCostTest {

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
  private final String gpu = cluster.gpus().get(0).id();
  private final ClusterState empty = ClusterState.empty(cluster);
  private final ShareCost cost = new ShareCost(1.0, Map.of());
  private final GpuCosts importance = id -> 2.0;

  @Test
  void threeGigAtZeroKillsTheFourGigSoItCostsMoreThanAtFour() {
    // uniform demand over the whole GPU and the 18 A100-80GB MIG candidates (profile@start): 1 + 18 entries;
    // 3g@0 kills whole, 1g.10gb@0..3, 1g.20gb@0,2, 2g@0,2, 3g@0, 4g@0, 7g@0 = 12; 3g@4 kills whole and 8 MIG, not the 4g
    assertThat(cost.fragmentation(empty, gpu, new MigSlice("3g.40gb", 0))).isCloseTo(12.0 / 19, within(1e-12));
    assertThat(cost.fragmentation(empty, gpu, new MigSlice("3g.40gb", 4))).isCloseTo(9.0 / 19, within(1e-12));
    assertThat(cost.of(empty, importance, gpu, new MigSlice("3g.40gb", 0))).isGreaterThan(cost.of(empty, importance, gpu, new MigSlice("3g.40gb", 4)));
    // share equivalent of a 3g.40gb: max(3/7 compute slices, 4/8 memory slices) = 0.5
    assertThat(cost.of(empty, importance, gpu, new MigSlice("3g.40gb", 4))).isCloseTo(2.0 * 0.5 + 9.0 / 19, within(1e-12));
  }

  @Test
  void aShareOfAnEmptyGpuCostsMoreThanTheSameShareOfAHalfUsedOne() {
    ClusterState half = empty.allocate(Allocation.of("a", List.of(Holding.of(gpu, new MpsShare(0.5, 1L << 30), 1L << 30))));
    MpsShare share = new MpsShare(0.2, 1L << 30);
    assertThat(cost.fragmentation(empty, gpu, share)).isEqualTo(1.0);
    assertThat(cost.fragmentation(half, gpu, share)).isZero();
    assertThat(cost.of(empty, importance, gpu, share)).isCloseTo(2.0 * 0.2 + 1.0, within(1e-12));
    assertThat(cost.of(half, importance, gpu, share)).isCloseTo(2.0 * 0.2, within(1e-12));
    assertThat(cost.of(empty, importance, gpu, new Whole())).isCloseTo(2.0 + 1.0, within(1e-12));
  }

  @Test
  void forecastDemandWeighsTheMenu() {
    // only 4g demand: 3g@0 destroys all of it, 3g@4 none
    ShareCost fourGig = new ShareCost(1.0, Map.of(ShareCost.WHOLE, 0.0, "1g.10gb", 0.0, "1g.20gb", 0.0, "2g.20gb", 0.0,
        "3g.40gb", 0.0, "4g.40gb", 1.0, "7g.80gb", 0.0));
    assertThat(fourGig.fragmentation(empty, gpu, new MigSlice("3g.40gb", 0))).isEqualTo(1.0);
    assertThat(fourGig.fragmentation(empty, gpu, new MigSlice("3g.40gb", 4))).isZero();
  }
}
