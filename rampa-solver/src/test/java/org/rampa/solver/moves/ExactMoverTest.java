package org.rampa.solver.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.heuristics.moves.GreedyMover;
import org.rampa.moves.Move;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.MovesResult;
import org.rampa.moves.Recut;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;
import org.rampa.testing.TinySharedProblems;
import org.rampa.testing.LegalStates;
import org.rampa.verify.PlanVerifier;

/**
 * The exact mover against a brute-force oracle on tiny shared clusters ({@link TinySharedProblems}:
 * at most 4 GPUs, A100s with MPS tenants, MIG layouts with held instances, GPUs held whole by
 * services that cannot be moved, L4s; and {@link #fragmented} ones). The oracle enumerates every sequence of at most the budget's
 * candidate moves ({@link MoveSpace}), applied by the same {@link MoveRules}, and places the request
 * after each; the placer is {@code dp} with sharing, which proves what it refuses. Checked: the
 * exact mover's price equals the oracle's least price on every instance (with unit prices: its move
 * count equals the least count), it is INFEASIBLE exactly where no sequence exists, and every state
 * on its way, and the heuristic mover's, passes the verifier and the MIG rules.
 */
class ExactMoverTest {

  private static final int TRIALS = 40;

  /** Odd seeds: {@link TinySharedProblems}; even seeds: {@link #fragmented}. Budget 1 or 2, unit or default prices. */
  static MoveProblem problem(long seed) {
    PlacementProblem p = seed % 2 == 1 ? TinySharedProblems.generate(seed, 4, 4) : fragmented(seed);
    Rampa.Placer placer = Rampa.on(p.state()).strategy("dp").importance(p.importance()).options(p.options());
    MoveCosts costs = (seed / 2) % 2 == 0 ? MoveCosts.unit() : MoveCosts.defaults();
    return MoveProblem.of(placer, p.request(), seed % 3 == 0 ? 2 : 1, costs);
  }

  /**
   * A fragmented tiny cluster: one node of 2-3 A100-SXM4-80GB, each GPU free, shared by 1-2 decode
   * tenants on MPS shares of 1/4 to 1/2 (latency bounds 1.05-2x their time alone), in a random maximal
   * MIG layout with one instance held, or held whole by a service that cannot be moved; the newcomer
   * is a decode step whose latency bound is 1-1.6x its time alone on a whole GPU, so it often needs
   * a GPU nobody shares.
   */
  private static PlacementProblem fragmented(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2 + r.nextInt(2), ClusterPresets.NETWORK_100G);
    ClusterState state = FragmentedClusters.state(cluster, r, false);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    DecodeServices.Admission newcomer = services.service("new-" + seed, cluster.gpus().get(0).id(), new Whole(), 1.0 + 0.6 * r.nextDouble());
    StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().seed(seed).timeLimit(Duration.ofSeconds(20)).build());
    return new PlacementProblem(newcomer.request(), state, StaticImportance.uniform(), PerformanceModel.defaults(), options);
  }

  /** The least price of a sequence of at most {@code left} more moves after which the request fits, by enumerating them all. */
  static double oracle(MoveProblem p, ClusterState s, int left, double spent, boolean[] unproven) {
    var r = p.placer().place(s, p.request());
    if (r.plan().isPresent()) {
      return spent;
    }
    unproven[0] |= r.status() != SolveStatus.INFEASIBLE;
    double best = Double.POSITIVE_INFINITY;
    if (left == 0) {
      return best;
    }
    for (Move m : MoveSpace.candidates(s, p.rules())) {
      MoveRules.Outcome o = p.rules().attempt(s, m);
      if (o.applied()) {
        best = Math.min(best, oracle(p, o.after().get(), left - 1, spent + p.costs().of(m), unproven));
      }
    }
    return best;
  }

  @Test
  void theExactMoverFindsTheLeastPriceTheOracleFindsAndIsInfeasibleExactlyWhereNoSequenceExists() {
    int[] counts = new int[4]; // fit without moves, fit with moves, infeasible, unproven
    Property.forSeeds("exact mover = brute force", TRIALS, seed -> agreesWithTheOracle(problem(seed), seed, counts));
    System.out.printf("exact mover vs brute force, %d instances: %d fit without moves, %d need moves, %d infeasible, %d unproven%n",
        TRIALS, counts[0], counts[1], counts[2], counts[3]);
    assertThat(counts[1]).as("instances that need moves").isGreaterThan(0);
  }

  /** The exact mover's answer on {@code p} against the oracle's least price (and the greedy mover's, which may not beat it); counts the outcome. */
  private static void agreesWithTheOracle(MoveProblem p, long seed, int[] counts) {
    boolean[] unproven = {false};
    agreesWithTheOracle(p, seed, counts, oracle(p, p.state(), p.budget(), 0, unproven), unproven[0]);
  }

  /**
   * The exact mover's answer on {@code p} against {@code least}, the oracle's least price ({@code
   * unproven} when the placer gave up without a proof on some state), and the greedy mover's;
   * counts the outcome: fit without moves, with moves, infeasible, unproven.
   */
  static void agreesWithTheOracle(MoveProblem p, long seed, int[] counts, double least, boolean unproven) {
    MovesResult r = new ExactMover().admit(p);
    if (Double.isFinite(least)) {
      assertThat(r.plan()).as("seed %d: %s", seed, r.reason()).isPresent();
      assertThat(r.moveCost()).as("seed %d price", seed).isCloseTo(least, org.assertj.core.data.Offset.offset(1e-9));
      if (p.costs().equals(MoveCosts.unit())) {
        assertThat((double) r.moves().size()).as("seed %d count", seed).isEqualTo(least);
      }
      assertThat(r.status()).as("seed %d", seed).isEqualTo(unproven ? SolveStatus.FEASIBLE : SolveStatus.OPTIMAL);
      counts[r.moves().isEmpty() ? 0 : 1]++;
      assertEveryStateLegal(p, r);
    } else {
      assertThat(r.plan()).as("seed %d", seed).isEmpty();
      assertThat(r.status()).as("seed %d: %s", seed, r.reason()).isEqualTo(unproven ? SolveStatus.NO_PLAN_FOUND : SolveStatus.INFEASIBLE);
      counts[unproven ? 3 : 2]++;
    }
    MovesResult greedy = new GreedyMover().admit(p);
    assertThat(greedy.status()).as("seed %d heuristic", seed).isNotEqualTo(SolveStatus.INFEASIBLE);
    if (greedy.plan().isPresent()) {
      assertThat(greedy.moveCost()).as("seed %d heuristic", seed).isGreaterThanOrEqualTo(least - 1e-9);
      assertEveryStateLegal(p, greedy);
    }
  }

  /** Replays the answer's moves: after each, every MIG layout is legal, a re-cut kept every held instance, every admitted service passes the verifier; the plan passes it last. */
  static void assertEveryStateLegal(MoveProblem p, MovesResult r) {
    PlanVerifier verifier = PlanVerifier.defaults();
    ClusterState s = p.state();
    for (Move m : r.moves()) {
      ClusterState next = p.rules().apply(s, m);
      if (m instanceof Recut cut) {
        Set<MigSlice> held = new HashSet<>();
        for (Holding h : s.holdingsOn(cut.gpu())) {
          held.add(h.placement() instanceof MigSliceMps mm ? mm.slice() : (MigSlice) h.placement());
        }
        assertThat(next.migLayout(cut.gpu())).containsAll(held);
      }
      s = next;
      LegalStates.assertLegal(s, verifier, m);
    }
    assertThat(s.allocations()).isEqualTo(r.afterMoves().allocations());
    assertThat(verifier.verify(p.request(), r.plan().orElseThrow(), s).violations()).isEmpty();
  }

  @Test
  void aBudgetOfZeroIsPlainAdmission() {
    Property.forSeeds("budget 0", 10, seed -> {
      MoveProblem p0 = problem(seed);
      MoveProblem p = new MoveProblem(p0.state(), p0.request(), p0.placer(), p0.rules(), 0, p0.costs(), p0.timeLimit());
      MovesResult r = new ExactMover().admit(p);
      var direct = p.placer().place(p.state(), p.request());
      assertThat(r.moves()).isEmpty();
      assertThat(r.plan().isPresent()).isEqualTo(direct.plan().isPresent());
      List<Move> none = new ArrayList<>();
      assertThat(r.moves()).isEqualTo(none);
      assertThat(r.status()).isEqualTo(direct.plan().isPresent() ? SolveStatus.OPTIMAL
          : direct.status() == SolveStatus.INFEASIBLE ? SolveStatus.INFEASIBLE : SolveStatus.NO_PLAN_FOUND);
      assertThat(Optional.of(r.mover())).contains("exact-moves");
    });
  }
}
