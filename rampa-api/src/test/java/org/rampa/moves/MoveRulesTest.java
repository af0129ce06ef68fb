package org.rampa.moves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.ClusterStateHolder.Outcome;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;
import org.rampa.verify.InterferenceGuard;

/**
 * The rules of each kind of move on two A100-SXM4-80GB GPUs with Llama-2-7B decode steps (context 512,
 * batch 1) whose latency bounds leave a chosen room for co-runners (linear interference, 5 % each).
 */
class MoveRulesTest {

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2), 2, ClusterPresets.NETWORK_100G);
  private final String g0 = cluster.gpus().get(0).id();
  private final String g1 = cluster.gpus().get(1).id();
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final InterferenceGuard guard = InterferenceGuard.defaults();
  private final MoveRules rules = MoveRules.defaults();

  private MpsShare mps(double fraction) {
    return new MpsShare(fraction, services.memory());
  }

  private ClusterState admit(ClusterState state, Admission a) {
    return guard.admit(state, a.request(), a.plan());
  }

  /** "chat" (0.5) on g0 with room for one co-runner, "batch" (0.5) on g1. */
  private ClusterState twoServices(double chatSlack) {
    ClusterState s = admit(ClusterState.empty(cluster), services.service("chat", g0, mps(0.5), chatSlack));
    return admit(s, services.service("batch", g1, mps(0.5), 2.0));
  }

  @Test
  void aMigrationRestartsTheReplicaOnItsTargetAndRePredictsItsPlan() {
    ClusterState before = twoServices(1.08);
    Migration m = new Migration("batch", 0, g1, g0, mps(0.5));
    ClusterState after = rules.apply(before, m);
    assertThat(after.servicesOn(g0)).containsExactly("chat", "batch");
    assertThat(after.isFree(g1)).isTrue();
    assertThat(after.allocations().get("batch").plan().orElseThrow().stages().get(0).gpus()).containsExactly(g0);
    assertThat(after.version()).isEqualTo(before.version() + 2); // release, then allocate
    assertThat(m.kind()).isEqualTo("migrate");
    assertThat(m.from()).isEqualTo(g1);
    assertThat(m.to()).isEqualTo(g0 + " mps 0.5");
    assertThat(m.cost(MoveCosts.defaults())).isGreaterThan(MoveCosts.defaults().recut());
  }

  @Test
  void aMigrationThatWouldPushAnIncumbentPastItsSloIsRefusedNamingIt() {
    ClusterState before = twoServices(1.03);
    List<String> refusals = rules.refusals(before, new Migration("batch", 0, g1, g0, mps(0.5)));
    assertThat(refusals).isNotEmpty();
    assertThat(String.join("\n", refusals)).contains("\"chat\"", "INTERFERENCE");
    assertThatThrownBy(() -> rules.apply(before, new Migration("batch", 0, g1, g0, mps(0.5))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("move refused");
  }

  @Test
  void aMigrationMustNameTheReplicaWhereItIs() {
    ClusterState before = twoServices(1.08);
    assertThat(rules.refusals(before, new Migration("batch", 0, g0, g1, mps(0.5)))).singleElement().asString()
        .contains("is not on GPU \"" + g0 + "\"");
    assertThat(rules.refusals(before, new Migration("nobody", 0, g0, g1, mps(0.5)))).singleElement().asString().contains("holds nothing");
    assertThat(rules.refusals(before, new Migration("batch", 3, g1, g0, mps(0.5)))).singleElement().asString().contains("no stage 3");
  }

  @Test
  void aRecutKeepsEveryHeldInstanceAndRefusesToDestroyOne() {
    List<MigSlice> layout = List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4));
    ClusterState mig = ClusterState.empty(cluster).configureMig(g0, layout);
    ClusterState held = admit(mig, services.service("chat", g0, new MigSlice("3g.40gb", 4), 1.0001));
    List<MigSlice> recut = List.of(new MigSlice("1g.10gb", 0), new MigSlice("1g.10gb", 1), new MigSlice("2g.20gb", 2), new MigSlice("3g.40gb", 4));
    ClusterState after = rules.apply(held, new Recut(g0, layout, recut));
    assertThat(after.migLayout(g0)).containsExactlyElementsOf(recut);
    assertThat(after.servicesOn(g0)).containsExactly("chat");
    assertThat(rules.refusals(held, new Recut(g0, layout, List.of(new MigSlice("7g.80gb", 0))))).singleElement().asString()
        .contains("would destroy instance 3g.40gb@4", "chat");
    assertThat(rules.refusals(held, new Recut(g0, recut, layout))).singleElement().asString().contains("made for another state");
    assertThat(rules.refusals(held, new Recut(g0, layout, List.of(new MigSlice("4g.40gb", 0), new MigSlice("3g.40gb", 4), new MigSlice("1g.10gb", 3)))))
        .singleElement().asString().contains("illegal", "MIG_OVERLAP");
  }

  @Test
  void aModeChangeNeedsAnEmptyGpu() {
    ClusterState before = twoServices(1.08);
    List<MigSlice> full = List.of(new MigSlice("7g.80gb", 0));
    assertThat(rules.refusals(before, new ModeChange(g1, List.of(), full))).singleElement().asString().contains("needs an empty GPU", "batch");
    ClusterState emptied = rules.apply(before, new Migration("batch", 0, g1, g0, mps(0.5)));
    ClusterState mig = rules.apply(emptied, new ModeChange(g1, List.of(), full));
    assertThat(mig.migLayout(g1)).isEqualTo(full);
    assertThat(rules.apply(mig, new ModeChange(g1, full, List.of())).migLayout(g1)).isEmpty();
    assertThatThrownBy(() -> new ModeChange(g1, List.of(), List.of())).hasMessageContaining("exactly one of fromLayout and toLayout");
    assertThatThrownBy(() -> new MoveCosts(0, 1, 1)).hasMessageContaining("moves.costs.migration = 0");
  }

  @Test
  void theHolderAppliesASequenceAtOnceOrMoveByMoveWithTheVersionCheck() {
    ClusterState start = twoServices(1.08);
    List<Move> moves = List.of(new Migration("batch", 0, g1, g0, mps(0.5)), new ModeChange(g1, List.of(), List.of(new MigSlice("7g.80gb", 0))));
    ClusterStateHolder atOnce = new ClusterStateHolder(start);
    assertThat(atOnce.apply(MoveSequence.of(rules, moves), start.version() - 1).outcome()).isEqualTo(Outcome.STALE);
    ClusterStateHolder.CommitResult done = atOnce.apply(MoveSequence.of(rules, moves), start.version());
    assertThat(done.outcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(done.state().migLayout(g1)).hasSize(1);
    // applied again on the new state the first move no longer applies: refused, nothing changed
    ClusterStateHolder.CommitResult again = atOnce.apply(MoveSequence.of(rules, moves), done.state().version());
    assertThat(again.outcome()).isEqualTo(Outcome.REFUSED);
    assertThat(again.reasons().get(0)).startsWith("move 1 of 2: ");
    assertThat(atOnce.current()).isSameAs(done.state());

    ClusterStateHolder stepwise = new ClusterStateHolder(start);
    long version = start.version();
    for (Move m : moves) {
      ClusterStateHolder.CommitResult r = stepwise.apply(MoveSequence.of(rules, List.of(m)), version);
      assertThat(r.outcome()).isEqualTo(Outcome.COMMITTED);
      version = r.state().version();
    }
    assertThat(stepwise.current().allocations()).isEqualTo(done.state().allocations());
    assertThat(stepwise.current().migLayouts()).isEqualTo(done.state().migLayouts());
  }

  @Test
  void maximalLayoutsAreLegalKeepTheHeldInstancesAndTakeNoFurtherInstance() {
    MigGeometry a100 = ClusterState.empty(cluster).partitioning(g0).requireMig();
    List<MigSlice> held = List.of(new MigSlice("2g.20gb", 2));
    List<List<MigSlice>> all = MoveSpace.maximalLayouts(a100, List.of());
    assertThat(all).isNotEmpty().doesNotHaveDuplicates();
    for (List<MigSlice> layout : MoveSpace.maximalLayouts(a100, held)) {
      assertThat(MigLayout.check(a100, layout)).isEmpty();
      assertThat(layout).containsAll(held);
      assertThat(all).anySatisfy(l -> assertThat(new HashSet<>(l)).isEqualTo(new HashSet<>(layout)));
      for (var p : a100.profiles()) {
        for (int s : p.allowedStarts()) {
          List<MigSlice> more = new java.util.ArrayList<>(layout);
          more.add(new MigSlice(p.name(), s));
          assertThat(MigLayout.check(a100, more)).as("adding %s@%d to %s", p.name(), s, layout).isPresent();
        }
      }
    }
  }

  /**
   * The move space lands a migrating one-replica stage only on placements the sharing menu offers (its
   * own, the whole free GPU, an MPS share of a menu level reserving the stage's memory, a free MIG
   * instance), and only on its own placement when the rules keep placements; on 30 seeded
   * fragmented states of 2-4 A100s with MPS, MIG and whole holdings.
   */
  @Test
  void placementChangesLandOnlyOnTheSharingMenusPlacements() {
    int[] changed = {0};
    org.rampa.testing.Property.forSeeds("menu placements", 30, seed -> {
      java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
      Cluster c = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2 + r.nextInt(3), ClusterPresets.NETWORK_100G);
      ClusterState s = org.rampa.testing.FragmentedClusters.state(c, r, false);
      List<Move> all = MoveSpace.candidates(s, rules);
      List<Move> keeping = MoveSpace.candidates(s, rules.keepingPlacements());
      assertThat(all).containsAll(keeping);
      for (Move m : all) {
        if (!(m instanceof Migration x)) {
          continue;
        }
        org.rampa.domain.Stage stage = s.allocations().get(x.service()).plan().orElseThrow().stages().get(x.stage());
        if (x.placement().equals(stage.placement())) {
          continue;
        }
        changed[0]++;
        if (x.placement() instanceof MpsShare share) {
          assertThat(rules.mpsLevels()).contains(share.fraction());
          assertThat(share.memoryBytes()).isEqualTo(stage.memoryBytes());
        } else if (x.placement() instanceof MigSlice slice) {
          assertThat(s.migLayout(x.toGpu())).contains(slice);
          assertThat(s.holdingsOn(x.toGpu())).noneMatch(h -> MigLayout.instanceOf(h.placement()).equals(slice));
        } else {
          assertThat(x.placement()).isEqualTo(new org.rampa.domain.share.Whole());
          assertThat(s.isFree(x.toGpu())).isTrue();
        }
      }
      for (Move m : keeping) {
        if (m instanceof Migration x) {
          org.rampa.domain.Stage stage = s.allocations().get(x.service()).plan().orElseThrow().stages().get(x.stage());
          if (stage.placement() instanceof MigSlice || stage.placement() instanceof org.rampa.domain.share.MigSliceMps) {
            assertThat(MigLayout.instanceOf(x.placement()).profile()).isEqualTo(MigLayout.instanceOf(stage.placement()).profile());
          } else {
            assertThat(x.placement()).isEqualTo(stage.placement());
          }
        }
      }
    });
    assertThat(changed[0]).as("placement changes offered").isGreaterThan(0);
  }

  /**
   * Layout-only rules offer and apply no migration, and every re-cut and mode change as the default
   * rules do: on 30 seeded fragmented states of 2-4 A100s, the layout-only move space is the default
   * one less its migrations, each of those migrations the default rules accept is refused by name,
   * and keeping placements keeps the restriction.
   */
  @Test
  void layoutOnlyRulesOfferAndApplyNoMigrationAndEveryLayoutMoveAsBefore() {
    MoveRules layoutOnly = rules.layoutOnly();
    assertThat(rules.migrates()).isTrue();
    assertThat(layoutOnly.migrates()).isFalse();
    assertThat(layoutOnly.keepingPlacements().migrates()).isFalse();
    int[] refused = {0};
    org.rampa.testing.Property.forSeeds("layout-only rules", 30, seed -> {
      java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
      Cluster c = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2 + r.nextInt(3), ClusterPresets.NETWORK_100G);
      ClusterState s = org.rampa.testing.FragmentedClusters.state(c, r, false);
      List<Move> all = MoveSpace.candidates(s, rules);
      List<Move> layoutMoves = MoveSpace.candidates(s, layoutOnly);
      assertThat(layoutMoves).noneMatch(m -> m instanceof Migration);
      assertThat(layoutMoves).containsExactlyElementsOf(all.stream().filter(m -> !(m instanceof Migration)).toList());
      for (Move m : all) {
        MoveRules.Outcome full = rules.attempt(s, m);
        MoveRules.Outcome restricted = layoutOnly.attempt(s, m);
        if (m instanceof Migration) {
          assertThat(restricted.applied()).as("%s", m).isFalse();
          assertThat(restricted.refusals()).singleElement().asString().contains("layout only").contains(m.service());
          refused[0] += full.applied() ? 1 : 0;
        } else {
          assertThat(restricted).as("%s", m).isEqualTo(full);
        }
      }
    });
    assertThat(refused[0]).as("migrations the default rules accept").isGreaterThan(0);
  }
}
