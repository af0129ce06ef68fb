package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;

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

/** The fewest moves after which one GPU has room for a class, counted as the movers count moves. */
class RefusalBreakdownTest {

  private final Cluster cluster = Presets.cluster("small");
  private final String a100 = cluster.gpus().stream().filter(g -> g.type().startsWith("A100")).map(Gpu::id).findFirst().orElseThrow();
  private final List<MigSlice> mixed = List.of(new MigSlice("3g.40gb", 4), new MigSlice("2g.20gb", 0), new MigSlice("1g.10gb", 2),
      new MigSlice("1g.10gb", 3));
  private static final long GIB = 1L << 30;

  @Test
  void aFreeGpuOrAFreeServingInstanceIsRoomNow() {
    ClusterState empty = ClusterState.empty(cluster);
    assertThat(RefusalBreakdown.movesToRoom(empty, a100, need(Double.NaN, List.of(), 1))).isZero();
    ClusterState mig = empty.configureMig(a100, mixed);
    assertThat(RefusalBreakdown.movesToRoom(mig, a100, need(Double.NaN, List.of("3g.40gb"), 3.0 / 7))).isZero();
  }

  @Test
  void freeInstancesThatCanBeReCutIntoAServingProfileAreOneMoveAway() {
    // the 3g and the 2g held: the free 1g@2 and 1g@3 re-cut into a 2g@2
    ClusterState mig = ClusterState.empty(cluster).configureMig(a100, mixed)
        .allocate(Allocation.of("big", List.of(Holding.of(a100, new MigSlice("3g.40gb", 4), 30 * GIB))))
        .allocate(Allocation.of("mid", List.of(Holding.of(a100, new MigSlice("2g.20gb", 0), 10 * GIB))));
    assertThat(RefusalBreakdown.movesToRoom(mig, a100, need(Double.NaN, List.of("2g.20gb"), 2.0 / 7))).isEqualTo(1);
    // a 4g fits only at 0: the 2g's tenant moves away, then the re-cut
    assertThat(RefusalBreakdown.movesToRoom(mig, a100, need(Double.NaN, List.of("4g.40gb"), 4.0 / 7))).isEqualTo(2);
    // a 3g: the 3g's tenant moves away, and its instance serves as it is
    assertThat(RefusalBreakdown.movesToRoom(mig, a100, need(Double.NaN, List.of("3g.40gb"), 3.0 / 7))).isEqualTo(1);
    // the whole GPU: both tenants move, then out of MIG mode: more than two moves
    assertThat(RefusalBreakdown.movesToRoom(mig, a100, need(Double.NaN, List.of(), 1))).isEqualTo(RefusalBreakdown.MAX_COUNTED + 1);
  }

  @Test
  void onAnMpsGpuTheLargestTenantsMoveFirstUntilTheLevelFits() {
    ClusterState mps = ClusterState.empty(cluster)
        .allocate(Allocation.of("half", List.of(Holding.of(a100, new MpsShare(0.5, 4 * GIB), 4 * GIB))))
        .allocate(Allocation.of("quarter", List.of(Holding.of(a100, new MpsShare(0.25, 2 * GIB), 2 * GIB))));
    assertThat(RefusalBreakdown.movesToRoom(mps, a100, need(0.25, List.of(), 0.25))).isZero();
    assertThat(RefusalBreakdown.movesToRoom(mps, a100, need(0.5, List.of(), 0.5))).isEqualTo(1);
    assertThat(RefusalBreakdown.movesToRoom(mps, a100, need(Double.NaN, List.of(), 1))).isEqualTo(2);
  }

  @Test
  void aClassNoSingleGpuServesNeedsSeveralAndIsNotCountedInMoves() {
    StrandedCapacity huge = new StrandedCapacity(cluster,
        new WorkloadSpec(List.of(new WorkloadSpec.Entry("llama2-70b", "decode", 1024, 8, SloClass.LOOSE, 1, 8))).resolve(cluster));
    var template = new WorkloadSpec(List.of(new WorkloadSpec.Entry("llama2-70b", "decode", 1024, 8, SloClass.LOOSE, 1, 8)))
        .resolve(cluster).classes().get(0).template();
    assertThat(new RefusalBreakdown(huge).classify(ClusterState.empty(cluster), template, id -> null)).endsWith("|multi-gpu|-|-");
  }

  @Test
  void aLightClassNeedsAPartOfAGpuAndIsServedAtOnceOnAnEmptyCluster() {
    var light = WorkloadSpec.lightMix().resolve(cluster);
    StrandedCapacity test = new StrandedCapacity(cluster, light);
    var loose = light.classes().stream().map(c -> c.template()).filter(t -> t.id().endsWith("/loose")).findFirst().orElseThrow();
    assertThat(new RefusalBreakdown(test).classify(ClusterState.empty(cluster), loose, id -> null)).matches(".*\\|part-gpu\\|0\\.[0-9]+\\|0");
  }

  /**
   * One move frees the 2g a tight Llama-2-7B decode step needs (on an H100: its SLO is relative to the fastest GPU; 1g.10gb is
   * too small for its memory); the tenant moved, a loose ResNet-50, has a free 1g on the other H100, which no re-cut can turn
   * into room for the decode step (relocatable), or no other GPU at all (stuck).
   */
  @Test
  void aSingleMoveIsRelocatableOnlyWhenTheMovedTenantHasRoomElsewhere() {
    var light = WorkloadSpec.lightMix().resolve(cluster);
    var decode = template(light, "llama2-7b-decode-512/b1/tight");
    var resnet = template(light, "resnet50/b1/loose");
    for (int gpus : new int[] {1, 2}) {
      Cluster c = org.rampa.catalog.ClusterPresets.mixed(new int[] {0, 0, 0, 1}, gpus);
      StrandedCapacity test = new StrandedCapacity(c, WorkloadSpec.lightMix().resolve(c));
      String type = c.gpuTypes().stream().map(t -> t.name()).filter(n -> n.startsWith("H100")).findFirst().orElseThrow();
      assertThat(test.needs(decode).get(type).migProfiles()).contains("2g.20gb").doesNotContain("1g.10gb");
      assertThat(test.needs(resnet).get(type).migProfiles()).contains("1g.10gb");
      String first = c.gpus().get(0).id();
      ClusterState state = ClusterState.empty(c).configureMig(first, mixed);
      java.util.Map<String, org.rampa.domain.ServiceRequest> classes = new java.util.HashMap<>();
      int i = 0;
      for (MigSlice s : mixed) {
        String id = "t" + i++;
        state = state.allocate(Allocation.of(id, List.of(Holding.of(first, s, GIB))));
        classes.put(id, resnet);
      }
      if (gpus == 2) {
        String second = c.gpus().get(1).id();
        List<MigSlice> sevenths = java.util.stream.IntStream.range(0, 7).mapToObj(k -> new MigSlice("1g.10gb", k)).toList();
        state = state.configureMig(second, sevenths);
        for (MigSlice s : sevenths.subList(1, 7)) {
          String id = "t" + i++;
          state = state.allocate(Allocation.of(id, List.of(Holding.of(second, s, GIB))));
          classes.put(id, resnet);
        }
      }
      assertThat(new RefusalBreakdown(test).classify(state, decode, classes::get))
          .endsWith(gpus == 2 ? "|1-relocatable" : "|1-stuck");
    }
  }

  private static org.rampa.domain.ServiceRequest template(org.rampa.heuristics.importance.WorkloadForecast w, String id) {
    return w.classes().stream().map(c -> c.template()).filter(t -> t.id().equals(id)).findFirst().orElseThrow();
  }

  private static StrandedCapacity.ClassNeed need(double level, List<String> profiles, double smallest) {
    return new StrandedCapacity.ClassNeed(level, GIB, profiles, smallest);
  }
}
