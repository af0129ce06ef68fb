package org.rampa.solver.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.moves.GreedyMover;
import org.rampa.importance.StaticImportance;
import org.rampa.moves.Migration;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MovesResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.verify.InterferenceGuard;

/**
 * Partial evacuation in the greedy mover: a crowded tiny cluster where no GPU can be emptied within
 * the budget, so only moving one tenant off a GPU that keeps another admits the newcomer. Before
 * partial evacuation the greedy mover answered NO_PLAN_FOUND here (no MIG layout to re-cut, every
 * GPU holds more replicas than the budget); its answer is checked against the brute-force oracle
 * of {@link ExactMoverTest}.
 */
class PartialEvacuationTest {

  /**
   * Two A100-SXM4-80GB, each shared on MPS by a decode tenant on half the GPU and one on a quarter
   * (latency bounds twice their time alone), so each has a quarter free; the newcomer, a decode
   * step, meets its bound on half a GPU next to one tenant but not on a quarter: it fits once a
   * quarter tenant moves next to the other GPU's pair. Budget 1, unit prices, placer {@code dp}.
   */
  static MoveProblem crowded(double newcomerSlack) {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    int n = 0;
    for (var g : cluster.gpus()) {
      for (double share : List.of(0.5, 0.25)) {
        DecodeServices.Admission a = services.service("t" + n++, g.id(), new MpsShare(share, services.memory()), 2.0);
        state = guard.admit(state, a.request(), a.plan());
      }
    }
    DecodeServices.Admission newcomer = services.service("new", cluster.gpus().get(0).id(), new Whole(), newcomerSlack);
    StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(1).timeLimit(Duration.ofSeconds(20)).build());
    Rampa.Placer placer = Rampa.on(state).strategy("dp").importance(StaticImportance.uniform()).options(options);
    return MoveProblem.of(placer, newcomer.request(), 1, MoveCosts.unit());
  }

  @Test
  void oneTenantMovedOffACrowdedGpuAdmitsTheNewcomerWithTheFewestMoves() {
    MoveProblem p = crowded(SLACK);
    ClusterState s = p.state();
    // what the mover had before: no layout to re-cut and no GPU it could empty within the budget
    assertThat(s.migLayouts()).isEmpty();
    assertThat(s.cluster().gpus()).allSatisfy(g -> assertThat(s.holdingsOn(g.id()).size()).isGreaterThan(p.budget()));
    assertThat(p.placer().place(s, p.request()).plan()).as("refused without moves").isEmpty();

    MovesResult r = new GreedyMover().admit(p);

    assertThat(r.status()).as(r.reason()).isEqualTo(SolveStatus.FEASIBLE);
    assertThat(r.moves()).hasSize(1);
    Migration m = (Migration) r.moves().get(0);
    assertThat(r.afterMoves().servicesOn(m.fromGpu())).as("the GPU keeps a tenant: a partial evacuation").isNotEmpty();
    assertThat(r.plan().orElseThrow().stages()).allSatisfy(st -> assertThat(st.gpus()).contains(m.fromGpu()));
    assertThat((double) r.moves().size()).as("the least count, by brute force").isEqualTo(ExactMoverTest.oracle(p, s, p.budget(), 0, new boolean[1]));
    ExactMoverTest.assertEveryStateLegal(p, r);
    // deterministic: the same answer again
    assertThat(new GreedyMover().admit(p).moves()).isEqualTo(r.moves());
  }

  /** The newcomer's latency bound over its time alone on a whole GPU: met on half an A100 next to one tenant, not on a quarter next to two. */
  private static final double SLACK = 1.2;
}
