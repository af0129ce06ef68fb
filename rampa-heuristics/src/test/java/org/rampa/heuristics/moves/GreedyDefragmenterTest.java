package org.rampa.heuristics.moves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.ShareCost;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.Migration;
import org.rampa.moves.Move;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSequence;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.Property;
import org.rampa.verify.InterferenceGuard;
import org.rampa.testing.LegalStates;
import org.rampa.verify.PlanVerifier;

/**
 * The greedy defragmenter on seeded fragmented shared clusters ({@link FragmentedClusters}: 2-6
 * A100s with MPS tenants, MIG layouts with a held instance, GPUs held by services that cannot move;
 * budgets 1-4, unit or default prices, uniform or whole-GPU-heavy demand): it never leaves less room
 * than it found, every state on its way is legal (the verifier passes every admitted service, every
 * MIG layout passes {@link MigLayout#check}), and its moves commit through a
 * {@link ClusterStateHolder} at once and one by one to the state it reports.
 */
class GreedyDefragmenterTest {

  private static final MoveRules RULES = MoveRules.defaults();

  private static DefragProblem problem(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1 + r.nextInt(2)), 2 + r.nextInt(2), ClusterPresets.NETWORK_100G);
    ClusterState state = FragmentedClusters.state(cluster, r, false);
    ForecastRoom room = r.nextBoolean() ? ForecastRoom.uniform()
        : new ForecastRoom(Map.of(ShareCost.WHOLE, 4.0, "3g.40gb", 2.0), SharingOptions.DEFAULT_MPS_LEVELS);
    return new DefragProblem(state, RULES, 1 + r.nextInt(4), r.nextBoolean() ? MoveCosts.unit() : MoveCosts.defaults(), room,
        Duration.ofSeconds(20));
  }

  @Test
  void neverLessRoomEveryStateLegalAndTheMovesCommitThroughTheHolder() {
    AtomicInteger moved = new AtomicInteger();
    Property.forSeeds("greedy defragmentation", 40, seed -> {
      DefragProblem p = problem(seed);
      DefragResult d = new GreedyDefragmenter().defragment(p);
      assertThat(d.roomBefore()).isEqualTo(p.room().of(p.state()));
      assertThat(d.roomAfter()).isEqualTo(p.room().of(d.after())).isGreaterThanOrEqualTo(d.roomBefore() - 1e-9);
      assertThat(d.moves().size()).isLessThanOrEqualTo(p.budget());
      assertThat(d.moveCost()).isEqualTo(d.moves().stream().mapToDouble(p.costs()::of).sum(), org.assertj.core.data.Offset.offset(1e-9));
      if (!d.moves().isEmpty()) {
        moved.incrementAndGet();
        assertThat(d.roomAfter()).isGreaterThan(d.roomBefore());
      }
      ClusterState s = p.state();
      PlanVerifier verifier = PlanVerifier.defaults();
      for (Move m : d.moves()) {
        s = p.rules().apply(s, m);
        LegalStates.assertLegal(s, verifier, m);
      }
      assertThat(s.allocations()).isEqualTo(d.after().allocations());
      assertThat(s.migLayouts()).isEqualTo(d.after().migLayouts());

      ClusterStateHolder atOnce = new ClusterStateHolder(p.state());
      ClusterStateHolder.CommitResult all = atOnce.apply(MoveSequence.of(p.rules(), d.moves()), p.state().version());
      assertThat(all.outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
      assertThat(all.state().allocations()).isEqualTo(d.after().allocations());
      assertThat(all.state().migLayouts()).isEqualTo(d.after().migLayouts());
      ClusterStateHolder stepwise = new ClusterStateHolder(p.state());
      long version = p.state().version();
      for (Move m : d.moves()) {
        ClusterStateHolder.CommitResult one = stepwise.apply(MoveSequence.of(p.rules(), List.of(m)), version);
        assertThat(one.outcome()).as("%s", m).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
        version = one.state().version();
      }
      assertThat(stepwise.current().allocations()).isEqualTo(d.after().allocations());
      assertThat(stepwise.current().migLayouts()).isEqualTo(d.after().migLayouts());
    });
    assertThat(moved.get()).as("instances where defragmentation moved something").isGreaterThan(0);
  }

  /**
   * Under layout-only rules ({@link MoveRules#layoutOnly()}) the defragmenter re-cuts and changes modes
   * but migrates nothing, still never leaves less room, and every step is legal and commits one by one
   * under the full rules too; on the same seeded problems the full rules do migrate, so the restriction bites.
   */
  @Test
  void layoutOnlyRulesReCutAndChangeModesButMigrateNothing() {
    AtomicInteger migratedWithFullRules = new AtomicInteger();
    AtomicInteger movedLayoutOnly = new AtomicInteger();
    Property.forSeeds("layout-only defragmentation", 40, seed -> {
      DefragProblem full = problem(seed);
      DefragProblem p = new DefragProblem(full.state(), full.rules().layoutOnly(), full.budget(), full.costs(), full.room(), full.timeLimit());
      DefragResult d = new GreedyDefragmenter().defragment(p);
      assertThat(d.moves()).noneMatch(m -> m instanceof Migration).hasSizeLessThanOrEqualTo(p.budget());
      assertThat(d.roomAfter()).isEqualTo(p.room().of(d.after())).isGreaterThanOrEqualTo(d.roomBefore() - 1e-9);
      movedLayoutOnly.addAndGet(d.moves().isEmpty() ? 0 : 1);
      ClusterStateHolder stepwise = new ClusterStateHolder(p.state());
      long version = p.state().version();
      ClusterState s = p.state();
      for (Move m : d.moves()) {
        s = RULES.apply(s, m);
        LegalStates.assertLegal(s, PlanVerifier.defaults(), m);
        ClusterStateHolder.CommitResult one = stepwise.apply(MoveSequence.of(RULES, List.of(m)), version);
        assertThat(one.outcome()).as("%s", m).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
        version = one.state().version();
      }
      assertThat(stepwise.current().allocations()).isEqualTo(d.after().allocations());
      assertThat(stepwise.current().migLayouts()).isEqualTo(d.after().migLayouts());
      migratedWithFullRules.addAndGet(new GreedyDefragmenter().defragment(full).moves().stream().anyMatch(m -> m instanceof Migration) ? 1 : 0);
    });
    assertThat(migratedWithFullRules.get()).as("instances the full rules defragment with migrations").isGreaterThan(0);
    assertThat(movedLayoutOnly.get()).as("instances layout moves alone defragment").isGreaterThan(0);
  }

  @Test
  void twoQuarterFullGpusAreConsolidatedIntoOneAndTheOtherFreed() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    String g0 = cluster.gpus().get(0).id();
    String g1 = cluster.gpus().get(1).id();
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    DecodeServices.Admission a = services.service("a", g0, new MpsShare(0.25, services.memory()), 3);
    state = guard.admit(state, a.request(), a.plan());
    DecodeServices.Admission b = services.service("b", g1, new MpsShare(0.25, services.memory()), 3);
    state = guard.admit(state, b.request(), b.plan());
    DefragProblem p = new DefragProblem(state, RULES, 2, MoveCosts.defaults(), ForecastRoom.uniform(), Duration.ofSeconds(20));

    DefragResult d = new GreedyDefragmenter().defragment(p);

    assertThat(d.moves()).hasSize(1).first().isInstanceOf(Migration.class);
    assertThat(d.after().isFree(g0) || d.after().isFree(g1)).isTrue();
    assertThat(d.roomAfter()).isGreaterThan(d.roomBefore());
    // a second pass finds nothing more to gain: one GPU is free, the other as full as these tenants allow
    DefragResult again = new GreedyDefragmenter().defragment(new DefragProblem(d.after(), RULES, 2, MoveCosts.defaults(), ForecastRoom.uniform(),
        Duration.ofSeconds(20)));
    assertThat(again.moves()).isEmpty();
    assertThat(again.roomAfter()).isEqualTo(again.roomBefore());
  }

  /**
   * One migration, the only step that gains room: two tenants of a quarter each on one A100 (so
   * emptying it takes two moves, over a budget of one), 0.7 held on the other; under a demand for
   * thirds only, moving one quarter tenant into the other GPU's stranded 0.3 turns the first GPU's
   * 0.5 free (one third) into 0.75 (two thirds) and takes no third from the second. Placements are
   * kept, so the 0.7 tenant cannot shrink into the first GPU and free the second (the better step then).
   */
  @Test
  void aSingleMigrationIsAStepWhenEmptyingAGpuTakesMoreThanTheBudget() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    String g0 = cluster.gpus().get(0).id();
    String g1 = cluster.gpus().get(1).id();
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    for (DecodeServices.Admission x : List.of(services.service("a", g0, new MpsShare(0.25, services.memory()), 3),
        services.service("c", g0, new MpsShare(0.25, services.memory()), 3), services.service("d", g1, new MpsShare(0.7, services.memory()), 3))) {
      state = guard.admit(state, x.request(), x.plan());
    }
    ForecastRoom thirds = new ForecastRoom(Map.of(ShareCost.WHOLE, 0.0), List.of(1.0 / 3));
    DefragProblem p = new DefragProblem(state, RULES.keepingPlacements(), 1, MoveCosts.defaults(), thirds, Duration.ofSeconds(20));

    DefragResult d = new GreedyDefragmenter().defragment(p);

    assertThat(d.moves()).hasSize(1).first().isInstanceOf(Migration.class);
    Migration m = (Migration) d.moves().get(0);
    assertThat(m.fromGpu()).isEqualTo(g0);
    assertThat(m.toGpu()).isEqualTo(g1);
    assertThat(d.roomAfter()).isGreaterThan(d.roomBefore());
    LegalStates.assertLegal(p.rules().apply(state, m), PlanVerifier.defaults(), m);
  }

  @Test
  void badInputIsRefusedByName() {
    ClusterState s = problem(1).state();
    assertThatThrownBy(() -> new DefragProblem(s, RULES, -1, MoveCosts.defaults(), ForecastRoom.uniform(), Duration.ofSeconds(1)))
        .hasMessageContaining("defrag.budget = -1");
    assertThatThrownBy(() -> new ForecastRoom(Map.of(ShareCost.WHOLE, -1.0), SharingOptions.DEFAULT_MPS_LEVELS))
        .hasMessageContaining("demand[whole]");
    assertThatThrownBy(() -> new ForecastRoom(Map.of(), List.of(1.5))).hasMessageContaining("mpsLevels = 1.5");
  }
}
