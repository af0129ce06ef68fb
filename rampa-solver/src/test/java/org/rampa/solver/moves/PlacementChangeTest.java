package org.rampa.solver.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.moves.GreedyMover;
import org.rampa.importance.StaticImportance;
import org.rampa.moves.Migration;
import org.rampa.moves.Move;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.MovesResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.verify.InterferenceGuard;

/**
 * Directed instances where a migration that changes a stage's placement kind or size is the only way
 * to admit the newcomer within the budget: the exact mover's answer equals the brute-force oracle's
 * least over the move space with placement changes, {@link MoveRelaxation}'s bound never exceeds the
 * least price still to pay on every state of the answer's way, and with {@link MoveRules#keepingPlacements()}
 * both the oracle and the exact mover find nothing (INFEASIBLE, proven). The greedy mover finds an
 * answer with placement changes and none without.
 */
class PlacementChangeTest {

  private static final StrategyOptions OPTIONS =
      SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(1).timeLimit(Duration.ofSeconds(20)).build());

  /**
   * Two A100-SXM4-80GB: the first in a MIG layout with one 2g.20gb instance held by a decode tenant
   * (bound 3× its time alone there), the second shared on MPS by a tenant on half of it (bound 2×).
   * The newcomer needs a whole A100 to itself (bound 1.02× its time alone on one). The first GPU
   * leaves MIG only when empty, and its tenant has no other MIG instance to go to: it must become an
   * MPS share of the second GPU. Budget 2 (the migration and the mode change), unit prices.
   */
  static MoveProblem migTenantMustBecomeAnMpsShare() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    String mig = cluster.gpus().get(0).id();
    String mps = cluster.gpus().get(1).id();
    ClusterState state = ClusterState.empty(cluster);
    MigSlice held = new MigSlice("2g.20gb", 0);
    state = state.configureMig(mig, MoveSpace.maximalLayouts(state.partitioning(mig).requireMig(), List.of(held)).get(0));
    DecodeServices.Admission tenant = services.service("mig-tenant", mig, held, 3.0);
    state = guard.admit(state, tenant.request(), tenant.plan());
    DecodeServices.Admission other = services.service("mps-tenant", mps, new MpsShare(0.5, services.memory()), 2.0);
    state = guard.admit(state, other.request(), other.plan());
    return problem(state, services.service("new", mig, new Whole(), 1.02), 2);
  }

  /**
   * Two A100-SXM4-80GB on MPS: the first shared by a tenant on half (bound 5× its time alone there)
   * and one on a quarter that tolerates one co-runner but not two (bound 1.08×); the second by
   * tenants on a half and a quarter (bounds 2×), a quarter free. The newcomer (bound 1.2× its time
   * alone on a whole GPU) fits on half a GPU next to one tenant, not on a quarter. No tenant fits the
   * second GPU's free quarter keeping its placement but for the quarter tenants, and each of them
   * would put a third tenant next to a quarter tenant that tolerates only one: the half tenant must
   * shrink to a quarter on the second GPU. Budget 1, unit prices.
   */
  static MoveProblem halfShareMustShrinkToAQuarter() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    String first = cluster.gpus().get(0).id();
    String second = cluster.gpus().get(1).id();
    ClusterState state = ClusterState.empty(cluster);
    for (var t : List.of(services.service("half", first, new MpsShare(0.5, services.memory()), 5.0),
        services.service("quarter", first, new MpsShare(0.25, services.memory()), 1.08),
        services.service("z-half", second, new MpsShare(0.5, services.memory()), 2.0),
        services.service("z-quarter", second, new MpsShare(0.25, services.memory()), 2.0))) {
      state = guard.admit(state, t.request(), t.plan());
    }
    return problem(state, services.service("new", first, new Whole(), 1.2), 1);
  }

  private static MoveProblem problem(ClusterState state, DecodeServices.Admission newcomer, int budget) {
    Rampa.Placer placer = Rampa.on(state).strategy("dp").importance(StaticImportance.uniform()).options(OPTIONS);
    return MoveProblem.of(placer, newcomer.request(), budget, MoveCosts.unit());
  }

  @Test
  void aMigTenantBecomesAnMpsShareElsewhereToFreeAWholeGpu() {
    MovesResult r = onlyWayIsAPlacementChange(migTenantMustBecomeAnMpsShare(), 1);
    assertThat(r.moves()).hasSize(2);
    Migration m = (Migration) r.moves().get(0);
    assertThat(m.placement()).isInstanceOf(MpsShare.class);
    assertThat(r.moves().get(1).kind()).isEqualTo("mode");
  }

  @Test
  void aHalfShareShrinksToAQuarterElsewhere() {
    MovesResult r = onlyWayIsAPlacementChange(halfShareMustShrinkToAQuarter(), 2);
    assertThat(r.moves()).hasSize(1);
    Migration m = (Migration) r.moves().get(0);
    assertThat(m.service()).isEqualTo("half");
    assertThat(m.placement()).isEqualTo(new MpsShare(0.25, m.placement().memoryBytes(r.afterMoves().partitioning(m.toGpu()))));
  }

  /**
   * Checks {@code p} (seed {@code seed} in messages) against brute force with and without placement
   * changes, the bound on the answer's way, and the greedy mover; returns the exact mover's answer.
   */
  private static MovesResult onlyWayIsAPlacementChange(MoveProblem p, long seed) {
    assertThat(p.rules().changesPlacements()).as("placement changes are the default").isTrue();
    assertThat(p.placer().place(p.state(), p.request()).plan()).as("refused without moves").isEmpty();

    boolean[] unproven = {false};
    double least = ExactMoverTest.oracle(p, p.state(), p.budget(), 0, unproven);
    assertThat(least).as("brute force with placement changes").isFinite();
    assertThat(unproven[0]).isFalse();
    ExactMoverTest.agreesWithTheOracle(p, seed, new int[4], least, false); // exact = oracle, every state legal, greedy not below it
    MovesResult r = new ExactMover().admit(p);
    assertThat(r.status()).isEqualTo(SolveStatus.OPTIMAL);
    assertThat(r.moves()).anySatisfy(m -> assertThat(m).isInstanceOfSatisfying(Migration.class,
        x -> assertThat(x.placement()).isNotEqualTo(placementOf(p.state(), x))));

    // the bound with the moves left never exceeds what brute force still has to pay, along the answer
    MoveRelaxation relax = new MoveRelaxation(p.state(), p.request(), p.rules().performance(), p.rules().interference(), p.budget(), p.costs());
    Set<String> all = p.state().cluster().gpus().stream().map(Gpu::id).collect(Collectors.toSet());
    ClusterState s = p.state();
    double spent = 0;
    List<Move> done = new ArrayList<>();
    for (Move m : r.moves()) {
      int left = p.budget() - done.size();
      MoveRelaxationTest.admissible(relax, s, left, all, ExactMoverTest.oracle(p, s, left, 0, new boolean[1]), new int[3], seed);
      s = p.rules().apply(s, m);
      spent += p.costs().of(m);
      done.add(m);
    }
    assertThat(spent).isEqualTo(least);

    MovesResult greedy = new GreedyMover().admit(p);
    assertThat(greedy.status()).as(greedy.reason()).isEqualTo(SolveStatus.FEASIBLE);
    ExactMoverTest.assertEveryStateLegal(p, greedy);

    MoveProblem keeping = p.withRules(p.rules().keepingPlacements());
    assertThat(ExactMoverTest.oracle(keeping, keeping.state(), keeping.budget(), 0, new boolean[1]))
        .as("brute force keeping placements").isInfinite();
    MovesResult none = new ExactMover().admit(keeping);
    assertThat(none.status()).as(none.reason()).isEqualTo(SolveStatus.INFEASIBLE);
    assertThat(new GreedyMover().admit(keeping).plan()).isEmpty();
    return r;
  }

  /** The placement the migrated stage holds in {@code state}. */
  private static Placement placementOf(ClusterState state, Migration m) {
    return state.allocations().get(m.service()).plan().orElseThrow().stages().get(m.stage()).placement();
  }
}
