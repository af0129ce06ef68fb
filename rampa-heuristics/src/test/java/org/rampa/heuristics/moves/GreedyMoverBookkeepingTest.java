package org.rampa.heuristics.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.moves.Migration;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.MovesResult;
import org.rampa.moves.Recut;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.Property;

/**
 * The greedy mover's shortcuts against their definitions, on seeded fragmented shared clusters
 * (8-40 A100s: MPS tenants, MIG layouts with a held instance, GPUs held whole by services that
 * cannot move): the one-pass replica count of evacuation candidates, the promising re-cuts
 * found through the memo kept across decisions, computed once cold and once warm, the target walk
 * (a replica's candidates built GPU by GPU in the order they are tried) against the first accepted
 * of the whole sorted candidate list, the move space's rule for GPUs nobody holds, and decisions of
 * a mover that kept a state's request-independent reads against those of a fresh mover, the
 * test that a GPU offers no target (held whole) against the move space, and a state's target order
 * (walked instead of a heap on the problem's state) against the sort it stands for.
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

  @Test
  void theTargetWalkTakesTheDefinitionsFirstAcceptedMigration() {
    int[] compared = {0, 0};
    Property.forSeeds("bestTarget = the first accepted of every candidate sorted by free share, position, compute part", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2 + r.nextInt(9)), 4, ClusterPresets.NETWORK_100G);
      ClusterState s = FragmentedClusters.state(cluster, r, r.nextBoolean());
      MoveRules rules = r.nextInt(3) == 0 ? MoveRules.defaults().keepingPlacements() : MoveRules.defaults();
      GreedyMover.TargetOrder order = GreedyMover.targetOrder(s);
      for (Gpu g : cluster.gpus()) {
        if (r.nextInt(3) != 0) {
          continue;
        }
        for (GreedyMover.Replica replica : GreedyMover.replicas(s, g.id())) {
          List<Migration> all = MoveSpace.migrations(s, rules, replica.service(), replica.stage(), g.id());
          Optional<Migration> expected = firstAccepted(s, rules, all);
          Optional<GreedyMover.Applied> walked = GreedyMover.bestTarget(rules, s, replica.service(), replica.stage(), g.id());
          assertThat(walked.map(GreedyMover.Applied::move)).isEqualTo(expected);
          walked.ifPresent(a -> assertThat(a.after().allocations()).isEqualTo(rules.attempt(s, expected.get()).after().get().allocations()));
          Optional<GreedyMover.Applied> ordered = GreedyMover.bestTarget(rules, s, replica.service(), replica.stage(), g.id(), order);
          assertThat(ordered.map(GreedyMover.Applied::move)).isEqualTo(expected);
          compared[0]++;
          compared[1] += expected.isPresent() ? 1 : 0;
        }
      }
    });
    assertThat(compared[1]).as("replicas with an accepted target").isGreaterThan(20);
    assertThat(compared[0]).as("replicas compared").isGreaterThan(compared[1]);
  }

  @Test
  void aGpuThatOffersNothingHasNoCandidateAndTheStatesOrderIsTheSortOfTheOthers() {
    int[] skipped = {0};
    Property.forSeeds("offersNoTarget -> no replica's migration targets it; targetOrder = the others sorted by free share, position", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2 + r.nextInt(9)), 4, ClusterPresets.NETWORK_100G);
      ClusterState s = FragmentedClusters.state(cluster, r, r.nextBoolean());
      MoveRules rules = r.nextInt(3) == 0 ? MoveRules.defaults().keepingPlacements() : MoveRules.defaults();
      List<Integer> others = new ArrayList<>();
      for (Gpu g : cluster.gpus()) {
        if (!GreedyMover.offersNoTarget(s, g.id())) {
          others.add(cluster.indexOf(g.id()));
          continue;
        }
        skipped[0]++;
        for (Gpu from : cluster.gpus()) {
          for (GreedyMover.Replica replica : GreedyMover.replicas(s, from.id())) {
            assertThat(MoveSpace.migrations(s, rules, replica.service(), replica.stage(), from.id()))
                .noneMatch(m -> m.toGpu().equals(g.id()));
          }
        }
      }
      others.sort(Comparator.comparingDouble((Integer i) -> s.freeShare(cluster.gpus().get(i).id())));
      assertThat(GreedyMover.targetOrder(s).positions()).containsExactly(others.stream().mapToInt(Integer::intValue).toArray());
    });
    assertThat(skipped[0]).as("GPUs held whole").isGreaterThan(20);
  }

  @Test
  void aReplicasTargetsOfferNothingWhereTheWalkSkipsAGpu() {
    int[] skipped = {0, 0};
    Property.forSeeds("ReplicaTargets.offersNothing(g, free share) -> to(g) is empty", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2 + r.nextInt(9)), 4, ClusterPresets.NETWORK_100G);
      ClusterState made = FragmentedClusters.state(cluster, r, r.nextBoolean());
      // an overcommit lets fuller GPUs take a share: the test must follow it
      ClusterState s = r.nextInt(3) == 0 ? org.rampa.domain.ImmutableClusterState.copyOf(made).withMpsOvercommit(0.1 * r.nextInt(4)) : made;
      MoveRules rules = r.nextInt(3) == 0 ? MoveRules.defaults().keepingPlacements() : MoveRules.defaults();
      for (Gpu from : cluster.gpus()) {
        for (GreedyMover.Replica replica : GreedyMover.replicas(s, from.id())) {
          MoveSpace.ReplicaTargets targets = new MoveSpace.ReplicaTargets(s, rules, replica.service(), replica.stage(), from.id());
          for (Gpu g : cluster.gpus()) {
            boolean none = targets.to(g).isEmpty();
            if (targets.offersNothing(g, s.freeShare(g.id()))) {
              assertThat(none).as("%s skipped for %s", g.id(), replica).isTrue();
              skipped[0]++;
            } else if (none) {
              skipped[1]++;
            }
          }
        }
      }
    });
    assertThat(skipped[0]).as("GPUs skipped").isGreaterThan(100);
    assertThat(skipped[1]).as("GPUs not skipped that offer nothing (the test is cheap, not complete)").isPositive();
  }

  /** The definition: every candidate sorted by its target's free share, then position, then its compute part (stable), the first accepted. */
  private static Optional<Migration> firstAccepted(ClusterState s, MoveRules rules, List<Migration> all) {
    List<Migration> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparingDouble((Migration m) -> s.freeShare(m.toGpu()))
        .thenComparingInt(m -> s.cluster().indexOf(m.toGpu()))
        .thenComparingDouble(m -> m.placement().computeFraction(s.partitioning(m.toGpu()))));
    return sorted.stream().filter(m -> rules.attempt(s, m).applied()).findFirst();
  }

  @Test
  void amongGpusNobodyHoldsOnlyTheFirstOfEachTypeOnEachNodeIsATarget() {
    int[] seen = {0};
    Property.forSeeds("free targets = the first free GPU without a layout of each type on each node", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2 + r.nextInt(9)), 4, ClusterPresets.NETWORK_100G);
      ClusterState s = FragmentedClusters.state(cluster, r, false);
      Map<String, String> first = new LinkedHashMap<>(); // node -> its first free GPU without a layout (one type here)
      for (Gpu g : cluster.gpus()) {
        if (s.isFree(g.id()) && s.migLayout(g.id()).isEmpty()) {
          first.putIfAbsent(g.node(), g.id());
        }
      }
      for (Gpu g : cluster.gpus()) {
        for (GreedyMover.Replica replica : GreedyMover.replicas(s, g.id())) {
          Set<String> freeTargets = new java.util.TreeSet<>();
          for (Migration m : MoveSpace.migrations(s, MoveRules.defaults(), replica.service(), replica.stage(), g.id())) {
            if (s.isFree(m.toGpu()) && s.migLayout(m.toGpu()).isEmpty()) {
              freeTargets.add(m.toGpu());
            }
          }
          assertThat(freeTargets).isEqualTo(new java.util.TreeSet<>(first.values()));
          seen[0] += freeTargets.size();
        }
      }
    });
    assertThat(seen[0]).isPositive();
  }

  @Test
  void decisionsWithTheStatesReadsKeptEqualDecisionsOfAFreshMover() {
    int[] moved = {0};
    Property.forSeeds("a mover that kept the state's reads decides as a fresh one", 12, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 3 + r.nextInt(4)), 4, ClusterPresets.NETWORK_100G);
      ClusterState a = FragmentedClusters.state(cluster, r, true);
      ClusterState b = FragmentedClusters.state(cluster, r, true);
      DecodeServices services = new DecodeServices(cluster, "newcomer");
      GreedyMover kept = new GreedyMover();
      // the same state again, another state, the first again, another budget: hits and misses of the kept reads
      ClusterState[] states = {a, a, b, a, a, b};
      int[] budgets = {2, 2, 2, 2, 1, 1};
      for (int k = 0; k < states.length; k++) {
        DecodeServices.Admission newcomer = services.service("new-" + k, cluster.gpus().get(0).id(), new Whole(), 1.05 + 0.01 * r.nextInt(5));
        StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(seed).build());
        Rampa.Placer placer = Rampa.on(states[k]).strategy("greedy").importance(StaticImportance.uniform()).options(options);
        MoveProblem q = MoveProblem.of(placer, newcomer.request(), budgets[k], MoveCosts.defaults());
        MovesResult warm = kept.admit(q);
        MovesResult cold = new GreedyMover().admit(q);
        assertThat(warm.status()).isEqualTo(cold.status());
        assertThat(warm.moves()).isEqualTo(cold.moves());
        assertThat(warm.plan()).isEqualTo(cold.plan());
        assertThat(warm.reason()).isEqualTo(cold.reason());
        moved[0] += warm.moves().isEmpty() ? 0 : 1;
      }
    });
    assertThat(moved[0]).as("decisions with moves").isGreaterThan(20);
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
