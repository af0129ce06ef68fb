package org.rampa.solver.moves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.MigSlice;
import org.rampa.heuristics.moves.GreedyDefragmenter;
import org.rampa.importance.ShareCost;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.Move;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.LegalStates;
import org.rampa.testing.Property;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanVerifier;

/**
 * The exact defragmenter against a brute-force oracle on tiny fragmented clusters ({@link
 * FragmentedClusters}: one node of 2-4 A100s with MPS tenants, MIG layouts with a held instance,
 * GPUs held whole by services that cannot move; budgets 1-3, unit or default prices, uniform or
 * whole-GPU-heavy demand; budget 3 where the root has at most 84 candidate moves, 2 where at most 774). The oracle enumerates every sequence of at most the budget's candidate
 * moves ({@link MoveSpace}), applied by the same {@link MoveRules}. Checked: the exact answer has the
 * oracle's most room, and among sequences with that room its least price (then fewest moves), and is
 * OPTIMAL, alone or warm-started by greedy; every state on its way is legal; the greedy defragmenter (single migrations among
 * its steps) never beats it and every state on its way is legal too. Prints how often
 * greedy reached the optimum and the mean gap.
 */
class ExactDefragmenterTest {

  private static final MoveRules RULES = MoveRules.defaults();
  private static final double EPS = 1e-9;
  private static final int TRIALS = 40;

  static DefragProblem problem(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int gpus = 2 + r.nextInt(3);
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), gpus, ClusterPresets.NETWORK_100G);
    ClusterState state = FragmentedClusters.state(cluster, r, false);
    ForecastRoom room = r.nextBoolean() ? ForecastRoom.uniform()
        : new ForecastRoom(Map.of(ShareCost.WHOLE, 4.0, "3g.40gb", 2.0), SharingOptions.DEFAULT_MPS_LEVELS);
    // the oracle enumerates every sequence: a budget drawn in [1, 3], lowered until the root's candidates to that power are
    // at most 600 000 (budget 3 on states with at most 84 candidate moves, 2 with at most 774)
    int budget = 1 + r.nextInt(3);
    int candidates = MoveSpace.candidates(state, RULES).size();
    while (budget > 1 && Math.pow(candidates, budget) > 600_000) {
      budget--;
    }
    return new DefragProblem(state, RULES, budget, r.nextBoolean() ? MoveCosts.unit() : MoveCosts.defaults(), room, Duration.ofSeconds(60));
  }

  /**
   * The best of every sequence of at most {@code left} more moves from {@code s}, as {room, price,
   * moves} of the continuation: most room, then least price, then fewest moves. Every candidate of
   * every state is applied; only the answer for a state already enumerated with as many moves left
   * is reused (equal states have equal continuations, and price and moves add up, so the best
   * continuation does not depend on how the state was reached). States are compared by their own
   * description here, not by the searches' {@code ExpandedStates} key, so a fault in that key
   * cannot hide from this oracle.
   */
  static double[] oracle(DefragProblem p, ClusterState s, int left, Map<List<Object>, double[]> memo) {
    List<Object> key = List.of(describe(s), left);
    double[] known = memo.get(key);
    if (known != null) {
      return known;
    }
    double[] best = {p.room().of(s), 0, 0};
    if (left > 0) {
      for (Move m : MoveSpace.candidates(s, p.rules())) {
        var o = p.rules().attempt(s, m);
        if (o.applied()) {
          double[] rest = oracle(p, o.after().get(), left - 1, memo);
          double[] next = {rest[0], rest[1] + p.costs().of(m), rest[2] + 1};
          if (better(next, best)) {
            best = next;
          }
        }
      }
    }
    memo.put(key, best);
    return best;
  }

  /** Who holds what and each GPU's set of MIG instances, as text in a fixed order. */
  private static String describe(ClusterState s) {
    Map<String, String> holdings = new TreeMap<>();
    s.allocations().forEach((service, a) -> holdings.put(service, a.holdings().toString()));
    Map<String, String> layouts = new TreeMap<>();
    s.migLayouts().forEach((gpu, layout) -> layouts.put(gpu, new TreeSet<>(layout.stream().map(MigSlice::label).toList()).toString()));
    return holdings + " " + layouts;
  }

  private static boolean better(double[] a, double[] b) {
    if (Math.abs(a[0] - b[0]) > EPS) {
      return a[0] > b[0];
    }
    if (Math.abs(a[1] - b[1]) > EPS) {
      return a[1] < b[1];
    }
    return a[2] < b[2];
  }

  @Test
  void theExactDefragmenterFindsTheOraclesBestAndGreedyNeverBeatsIt() {
    int[] greedyOptimal = {0};
    int[] gained = {0};
    double[] gap = {0, 0}; // sum of exact - greedy room, largest
    Property.forSeeds("exact defragmenter = brute force", TRIALS, seed -> {
      DefragProblem p = problem(seed);
      double[] best = oracle(p, p.state(), p.budget(), new HashMap<>());
      // odd seeds: warm-started by greedy, which must change nothing but the work
      DefragResult d = (seed % 2 == 1 ? new ExactDefragmenter(new GreedyDefragmenter()) : new ExactDefragmenter()).defragment(p);
      assertThat(d.status()).as("seed %d: %s", seed, d.reason()).isEqualTo(SolveStatus.OPTIMAL);
      assertThat(d.roomAfter()).as("seed %d room", seed).isCloseTo(best[0], within(EPS));
      assertThat(d.moveCost()).as("seed %d price", seed).isCloseTo(best[1], within(EPS));
      assertThat(d.moves()).as("seed %d moves", seed).hasSize((int) best[2]);
      assertThat(d.roomBefore()).isEqualTo(p.room().of(p.state()));
      assertEveryStateLegal(p, d);
      if (!d.moves().isEmpty()) {
        gained[0]++;
      }
      DefragResult greedy = new GreedyDefragmenter().defragment(p);
      assertThat(greedy.roomAfter()).as("seed %d greedy", seed).isLessThanOrEqualTo(d.roomAfter() + EPS);
      assertEveryStateLegal(p, greedy);
      double g = d.roomAfter() - greedy.roomAfter();
      if (g <= EPS) {
        greedyOptimal[0]++;
      }
      gap[0] += Math.max(0, g);
      gap[1] = Math.max(gap[1], g);
    });
    System.out.printf("exact vs greedy defragmentation, %d instances (%d gain room): greedy reaches the most room on %d, mean gap %.4f, "
        + "largest %.4f GPU share equivalents%n", TRIALS, gained[0], greedyOptimal[0], gap[0] / TRIALS, gap[1]);
    assertThat(gained[0]).as("instances where moves gain room").isGreaterThan(TRIALS / 4);
  }

  /**
   * With the guarded room ({@link ForecastRoom#guarded}: MPS copies on a held GPU capped by the interference guard's
   * incumbent budget) the bound stays admissible on these single-GPU tenants: the exact defragmenter still finds the
   * oracle's best, and greedy never beats it.
   */
  @Test
  void withTheGuardedRoomTheExactDefragmenterStillFindsTheOraclesBest() {
    Property.forSeeds("exact defragmenter = brute force, guarded room", TRIALS / 2, seed -> {
      DefragProblem u = problem(seed);
      DefragProblem p = new DefragProblem(u.state(), u.rules(), u.budget(), u.costs(), u.room().guarded(InterferenceGuard.defaults()), u.timeLimit());
      double[] best = oracle(p, p.state(), p.budget(), new HashMap<>());
      DefragResult d = new ExactDefragmenter(new GreedyDefragmenter()).defragment(p);
      assertThat(d.status()).as("seed %d: %s", seed, d.reason()).isEqualTo(SolveStatus.OPTIMAL);
      assertThat(d.roomAfter()).as("seed %d room", seed).isCloseTo(best[0], within(EPS));
      assertThat(d.moveCost()).as("seed %d price", seed).isCloseTo(best[1], within(EPS));
      assertThat(new GreedyDefragmenter().defragment(p).roomAfter()).as("seed %d greedy", seed).isLessThanOrEqualTo(d.roomAfter() + EPS);
    });
  }

  /** Replays the answer: after each move every MIG layout is legal and every admitted service passes the verifier; it ends in the reported state. */
  private static void assertEveryStateLegal(DefragProblem p, DefragResult d) {
    PlanVerifier verifier = PlanVerifier.defaults();
    ClusterState s = p.state();
    for (Move m : d.moves()) {
      s = p.rules().apply(s, m);
      LegalStates.assertLegal(s, verifier, m);
    }
    assertThat(s.allocations()).isEqualTo(d.after().allocations());
    assertThat(s.migLayouts()).isEqualTo(d.after().migLayouts());
    assertThat(d.roomAfter()).isEqualTo(p.room().of(s));
  }

  @Test
  void aTimeLimitThatStopsTheSearchIsNoProof() {
    int stopped = 0;
    for (long seed = 1; seed <= 20; seed++) {
      DefragProblem p0 = problem(seed);
      DefragProblem p = new DefragProblem(p0.state(), p0.rules(), p0.budget(), p0.costs(), p0.room(), Duration.ofNanos(1));
      DefragResult d = new ExactDefragmenter().defragment(p);
      assertThat(d.roomAfter()).isGreaterThanOrEqualTo(d.roomBefore());
      assertEveryStateLegal(p, d);
      if (new ExactDefragmenter().defragment(p0).roomAfter() > d.roomAfter() + EPS) {
        // the search stopped before it found the best: it must not claim a proof
        assertThat(d.status()).as("seed %d: %s", seed, d.reason()).isEqualTo(SolveStatus.FEASIBLE);
        stopped++;
      }
    }
    assertThat(stopped).as("instances the time limit cut short").isGreaterThan(0);
  }

  @Test
  void aBudgetOfZeroMovesNothingAndIsOptimal() {
    DefragProblem p0 = problem(3);
    DefragResult d = new ExactDefragmenter().defragment(new DefragProblem(p0.state(), RULES, 0, p0.costs(), p0.room(), Duration.ofSeconds(5)));
    assertThat(d.moves()).isEmpty();
    assertThat(d.status()).isEqualTo(SolveStatus.OPTIMAL);
    assertThat(d.roomAfter()).isEqualTo(d.roomBefore());
    assertThat(d.defragmenter()).isEqualTo("exact-defrag");
  }
}
