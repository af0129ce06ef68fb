package org.rampa.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.strategy.SharingOptions;

/**
 * The share cost's fragmentation on one A100-SXM4-80GB, values worked by hand. Its menu has ten
 * entries: the whole GPU, six MIG profiles (1g.10gb at starts 0–6, 1g.20gb at 0/2/4/6, 2g.20gb at
 * 0/2/4, 3g.40gb at 0/4, 4g.40gb at 0, 7g.80gb at 0; share equivalents 1/7, 1/4, 2/7, 1/2, 4/7, 1)
 * and the MPS levels 1/2, 1/3, 1/4 (the default; a decision's own levels replace them). An empty GPU already strands 1/7 for 2g.20gb (three fit, 6/7)
 * and 3/7 for 4g.40gb (one fits, 4/7).
 */
class ShareCostTest {

  private static final long SEED = 20261201L;
  private static final String A100 = "A100-SXM4-80GB";

  private final Cluster cluster = ClusterPresets.of(Map.of(A100, 1), 1, ClusterPresets.NETWORK_100G);
  private final String gpu = cluster.gpus().get(0).id();
  private final ClusterState empty = ClusterState.empty(cluster);
  private final ShareCost cost = new ShareCost(1.0, Map.of(), SharingOptions.DEFAULT_MPS_LEVELS);
  private final GpuCosts importance = id -> 2.0;

  @Test
  void threeGigAtZeroKillsTheFourGigSoItCostsMoreThanAtFour() {
    // 3g@0 leaves slices 4–7 (half the GPU) free: stranded there for whole 1/2, 1g.10gb 1/2 − 3/7,
    // 1g.20gb 0, 2g.20gb 1/2 − 2/7, 3g.40gb 0, 4g.40gb 1/2, 7g 1/2, each MPS level 1/2 (MIG mode);
    // less what the empty GPU stranded (2g 1/7, 4g 3/7): 19/7 over ten entries
    assertThat(cost.fragmentation(empty, gpu, new MigSlice("3g.40gb", 0))).isCloseTo(19.0 / 70, within(1e-12));
    // 3g@4 leaves slices 0–3, where the 4g still fits: whole 1/2, 7g 1/2, MPS 3 × 1/2, less 1/7 + 3/7
    assertThat(cost.fragmentation(empty, gpu, new MigSlice("3g.40gb", 4))).isCloseTo(27.0 / 140, within(1e-12));
    assertThat(cost.of(empty, importance, gpu, new MigSlice("3g.40gb", 0))).isGreaterThan(cost.of(empty, importance, gpu, new MigSlice("3g.40gb", 4)));
    // share equivalent of a 3g.40gb: max(3/7 compute slices, 4/8 memory slices) = 0.5
    assertThat(cost.of(empty, importance, gpu, new MigSlice("3g.40gb", 4))).isCloseTo(2.0 * 0.5 + 27.0 / 140, within(1e-12));
  }

  @Test
  void aShareOfAnEmptyGpuCostsMoreThanTheSameShareOfAHalfUsedOne() {
    ClusterState half = empty.allocate(Allocation.of("a", List.of(Holding.of(gpu, new MpsShare(0.5, 1L << 30), 1L << 30))));
    MpsShare share = new MpsShare(0.2, 1L << 30);
    // 0.8 left: whole and the six MIG profiles strand all of it, MPS 1/2 0.3, 1/3 0.8 − 2/3, 1/4 0.05; less 4/7 before
    double onEmpty = (0.8 * 7 + 0.3 + (0.8 - 2.0 / 3) + 0.05 - 4.0 / 7) / 10;
    assertThat(cost.fragmentation(empty, gpu, share)).isCloseTo(onEmpty, within(1e-12));
    // 0.3 left of 0.5: whole and MIG strand 0.2 less than before, MPS 1/2 and 1/3 0.3 instead of 0 and 1/6, 1/4
    // 0.05 instead of 0: −1.4 + 0.3 + 0.1333 + 0.05 < 0, and a holding filling a fragment costs its share, no less
    assertThat(cost.fragmentation(half, gpu, share)).isZero();
    assertThat(cost.of(empty, importance, gpu, share)).isCloseTo(2.0 * 0.2 + onEmpty, within(1e-12));
    assertThat(cost.of(half, importance, gpu, share)).isCloseTo(2.0 * 0.2, within(1e-12));
  }

  @Test
  void theWholeGpuStrandsNothing() {
    assertThat(cost.fragmentation(empty, gpu, new Whole())).isZero();
    assertThat(cost.of(empty, importance, gpu, new Whole())).isEqualTo(2.0);
  }

  @Test
  void aQuarterOfAnEmptyGpuCostsLessThanTheWholeWhenTheDemandRunsOnMpsLevels() {
    // the issue of docs/vastpipe-e4.md: a share of an empty GPU was charged as if its room were lost
    ShareCost mpsOnly = new ShareCost(1.0, demand(Map.of(ShareCost.mpsEntry(A100, 0.5), 1.0,
        ShareCost.mpsEntry(A100, 1.0 / 3), 1.0, ShareCost.mpsEntry(A100, 0.25), 1.0)), SharingOptions.DEFAULT_MPS_LEVELS);
    MpsShare quarter = new MpsShare(0.25, 1L << 30);
    // 3/4 left: one 1/2 (1/4 stranded), two 1/3 (1/12 stranded), three 1/4 (none)
    assertThat(mpsOnly.fragmentation(empty, gpu, quarter)).isCloseTo((0.25 + 1.0 / 12) / 3, within(1e-12));
    assertThat(mpsOnly.of(empty, importance, gpu, quarter)).isLessThan(mpsOnly.of(empty, importance, gpu, new Whole()));
  }

  @Test
  void theMpsEntriesAreTheDecisionsLevels() {
    // a menu offering fifths: a fifth of an empty GPU leaves room for four more, so it strands nothing for
    // fifths; the whole GPU and the six MIG profiles strand 0.8, less 4/7 before: eight entries. Judged against
    // the default levels it would strand 0.3, 0.8 − 2/3 and 0.05 for 1/2, 1/3, 1/4 over ten entries instead
    MpsShare fifth = new MpsShare(0.2, 1L << 30);
    ShareCost fifths = new ShareCost(1.0, Map.of(), List.of(0.2));
    assertThat(fifths.fragmentation(empty, gpu, fifth)).isCloseTo((0.8 * 7 - 4.0 / 7) / 8, within(1e-12));
    assertThat(cost.fragmentation(empty, gpu, fifth)).isCloseTo((0.8 * 7 + 0.3 + (0.8 - 2.0 / 3) + 0.05 - 4.0 / 7) / 10, within(1e-12));
    assertThatThrownBy(() -> new ShareCost(1.0, Map.of(), List.of(1.0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shareCost.mpsLevels").hasMessageContaining("(0, 1)");
  }

  @Test
  void forecastDemandWeighsTheMenu() {
    // only 4g demand: 3g@0 takes the 4g's 4/7, half of it as its own share, 1/14 stranded; 3g@4 keeps the 4g
    ShareCost fourGig = new ShareCost(1.0, demand(Map.of("4g.40gb", 1.0)), SharingOptions.DEFAULT_MPS_LEVELS);
    assertThat(fourGig.fragmentation(empty, gpu, new MigSlice("3g.40gb", 0))).isCloseTo(1.0 / 14, within(1e-12));
    assertThat(fourGig.fragmentation(empty, gpu, new MigSlice("3g.40gb", 4))).isZero();
  }

  @Test
  void aHoldingStrandsAtMostTheRoomItLeavesSoAShareNeverCostsMoreThanTheWholeGpu() {
    SplittableRandom random = new SplittableRandom(SEED);
    List<Placement> menu = List.of(new MpsShare(0.5, 1L << 30), new MpsShare(1.0 / 3, 1L << 30), new MpsShare(0.25, 1L << 30),
        new MigSlice("1g.10gb", 6), new MigSlice("2g.20gb", 2), new MigSlice("3g.40gb", 4), new MigSlice("4g.40gb", 0));
    for (int i = 0; i < 300; i++) {
      Map<String, Double> weights = new HashMap<>();
      for (String entry : List.of(ShareCost.WHOLE, "1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb",
          ShareCost.mpsEntry(A100, 0.5), ShareCost.mpsEntry(A100, 1.0 / 3), ShareCost.mpsEntry(A100, 0.25))) {
        weights.put(entry, random.nextDouble());
      }
      ShareCost weighted = new ShareCost(1.0, weights, SharingOptions.DEFAULT_MPS_LEVELS);
      // a random MPS incumbent (or none) and a random newcomer that fits beside it
      ClusterState state = empty;
      double held = 0;
      if (random.nextBoolean()) {
        held = 0.05 + 0.6 * random.nextDouble();
        state = empty.allocate(Allocation.of("a", List.of(Holding.of(gpu, new MpsShare(held, 1L << 30), 1L << 30))));
      }
      List<Placement> fitting = new ArrayList<>();
      for (Placement p : menu) {
        if (p instanceof MpsShare s ? s.fraction() <= 1 - held : held == 0) {
          fitting.add(p);
        }
      }
      Placement p = fitting.get(random.nextInt(fitting.size()));
      double left = Math.max(0, 1 - held - p.shareEquivalent(state.partitioning(gpu)));
      assertThat(weighted.fragmentation(state, gpu, p)).as("seed %d, draw %d: %s beside %.3f", SEED, i, p.label(), held)
          .isBetween(0.0, left + 1e-12);
      if (held == 0) {
        assertThat(weighted.of(state, importance, gpu, p)).as("seed %d, draw %d: %s", SEED, i, p.label())
            .isLessThanOrEqualTo(weighted.of(state, importance, gpu, new Whole()) + 1e-12);
      }
    }
  }

  /** Demand on {@code nonZero}'s entries only: every other entry of the A100's menu weighs 0. */
  private static Map<String, Double> demand(Map<String, Double> nonZero) {
    Map<String, Double> all = new HashMap<>();
    for (String entry : List.of(ShareCost.WHOLE, "1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb",
        ShareCost.mpsEntry(A100, 0.5), ShareCost.mpsEntry(A100, 1.0 / 3), ShareCost.mpsEntry(A100, 0.25))) {
      all.put(entry, 0.0);
    }
    all.putAll(nonZero);
    return all;
  }
}
