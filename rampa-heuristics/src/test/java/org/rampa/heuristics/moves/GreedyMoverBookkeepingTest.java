package org.rampa.heuristics.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.Recut;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.Property;

/**
 * The greedy mover's shortcuts against their definitions, on seeded fragmented shared clusters
 * (8-40 A100s: MPS tenants, MIG layouts with a held instance, GPUs held whole by services that
 * cannot move): the one-pass replica count of evacuation candidates, and the promising re-cuts
 * found through the memo kept across decisions, computed once cold and once warm.
 */
class GreedyMoverBookkeepingTest {

  @Test
  void movableReplicasCountsWhatReplicasListsOrRefusesAnUnmovableHolder() {
    Property.forSeeds("movableReplicas = replicas().size() when every holder can move, else -1", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2 + r.nextInt(9)), 4, ClusterPresets.NETWORK_100G);
      ClusterState s = FragmentedClusters.state(cluster, r, r.nextBoolean());
      for (Gpu g : cluster.gpus()) {
        boolean movable = s.servicesOn(g.id()).stream().allMatch(id -> s.allocations().get(id).request().isPresent());
        assertThat(GreedyMover.movableReplicas(s, g.id())).isEqualTo(movable ? GreedyMover.replicas(s, g.id()).size() : -1);
      }
    });
  }

  @Test
  void promisingRecutsThroughTheMemoAreTheDefinitionsCutsColdAndWarm() {
    int[] nonEmpty = {0};
    Property.forSeeds("promising re-cuts = the definition's", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2 + r.nextInt(9)), 4, ClusterPresets.NETWORK_100G);
      ClusterState s = FragmentedClusters.state(cluster, r, r.nextBoolean());
      int cap = 1 + r.nextInt(10);
      GreedyMover mover = new GreedyMover(cap);
      List<Recut> expected = definition(s, cap);
      assertThat(mover.promisingRecuts(s)).isEqualTo(expected);
      assertThat(mover.promisingRecuts(s)).isEqualTo(expected);
      nonEmpty[0] += expected.isEmpty() ? 0 : 1;
    });
    assertThat(nonEmpty[0]).isGreaterThan(10);
  }

  /**
   * The promising re-cuts by their definition, computed afresh: per MIG GPU in cluster order, every
   * maximal layout keeping its held instances, other than its layout, whose largest free instance
   * is larger than the layout's now; the first per GPU type, held instances and new layout; the
   * largest new free instance first (stable), at most {@code cap}.
   */
  private static List<Recut> definition(ClusterState s, int cap) {
    Map<List<Object>, Recut> first = new LinkedHashMap<>();
    Map<Recut, Integer> gain = new LinkedHashMap<>();
    for (Gpu gpu : s.cluster().gpus()) {
      List<MigSlice> layout = s.migLayout(gpu.id());
      if (layout.isEmpty()) {
        continue;
      }
      MigGeometry g = s.partitioning(gpu.id()).requireMig();
      List<MigSlice> held = s.holdingsOn(gpu.id()).stream().map(h -> MigLayout.instanceOf(h.placement())).toList();
      Set<MigSlice> heldSet = Set.copyOf(held);
      int now = GreedyMover.largestFree(g, layout, heldSet);
      for (List<MigSlice> to : MoveSpace.maximalLayouts(g, held)) {
        int after = GreedyMover.largestFree(g, to, heldSet);
        List<Object> key = List.of(gpu.type(), heldSet, Set.copyOf(to));
        if (after > now && !Set.copyOf(to).equals(Set.copyOf(layout)) && !first.containsKey(key)) {
          Recut cut = new Recut(gpu.id(), layout, to);
          first.put(key, cut);
          gain.put(cut, after);
        }
      }
    }
    List<Recut> out = new ArrayList<>(first.values());
    out.sort(Comparator.comparingInt((Recut c) -> -gain.get(c)));
    return out.subList(0, Math.min(cap, out.size()));
  }
}
