package org.rampa.solver.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.moves.Migration;
import org.rampa.moves.ModeChange;
import org.rampa.moves.Move;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.Recut;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The facts the exact mover's pruning rests on, checked on the oracle's tiny shared clusters
 * ({@link ExactMoverTest#problem}): the relaxation's level is 0 wherever the placer finds a plan
 * (so a state with a positive level is no goal, and a level above the moves left rules out
 * everything after it), and one move lowers the level by at most one (so the bound it gives the
 * search is consistent), on the state and after every candidate move the rules accept; and the
 * price bound never exceeds the least price still to pay (brute force) and drops by at most the
 * price of one move.
 */
class MoveRelaxationTest {

  @Test
  void theLevelIsZeroWhereverThePlacerFitsAndOneMoveLowersItByAtMostOne() {
    int[] seen = new int[3]; // states, states that fit, states with a positive level
    Property.forSeeds("relaxation sound and consistent", 30, seed -> {
      MoveProblem p = ExactMoverTest.problem(seed);
      int budget = 3;
      MoveRelaxation relax = new MoveRelaxation(p.state(), p.request(), p.rules().performance(), p.rules().interference(), budget, p.costs());
      Set<String> all = p.state().cluster().gpus().stream().map(Gpu::id).collect(Collectors.toSet());
      int before = check(p, relax, p.state(), all, seen);
      MoveRelaxation.Tally[] root = relax.tallies(p.state(), Set.of());
      for (Move m : MoveSpace.candidates(p.state(), p.rules())) {
        MoveRules.Outcome o = p.rules().attempt(p.state(), m);
        if (o.applied()) {
          int after = check(p, relax, o.after().get(), all, seen);
          assertThat(after).as("seed %d: level after %s", seed, m).isGreaterThanOrEqualTo(before - 1);
          // the search's tallies, updated from the parent's on the GPUs the move changed, are the ones computed afresh
          Set<String> changed = m instanceof Migration x ? Set.of(x.fromGpu(), x.toGpu()) : Set.of(m instanceof Recut r ? r.gpu() : ((ModeChange) m).gpu());
          MoveRelaxation.Tally[] updated = relax.tallies(root, p.state(), Set.of(), o.after().get(), changed);
          MoveRelaxation.Tally[] fresh = relax.tallies(o.after().get(), all);
          for (int i = 0; i < fresh.length; i++) {
            assertThat(updated[i].kinds()).as("seed %d: tally %d after %s", seed, i, m).isEqualTo(fresh[i].kinds());
          }
        }
      }
    });
    System.out.printf("relaxation: %d states, %d fit, %d with a positive level%n", seen[0], seen[1], seen[2]);
    assertThat(seen[1]).isGreaterThan(0);
    assertThat(seen[2]).isGreaterThan(0);
  }

  /**
   * The price bound against brute force ({@link ExactMoverTest#oracle}) at a budget of 2 on the first
   * 8 instances (after the oracle's 40) that {@code dp} refuses without moves: on each state and after
   * every candidate move the rules accept, the bound with the moves left never exceeds the least price
   * of a sequence within them after which the placer fits the request (so A* on it is admissible), and
   * the bound before a move never exceeds the move's price plus the bound after it (so it is
   * consistent). The same brute force checks the exact mover's answer there
   * ({@link ExactMoverTest#agreesWithTheOracle}), the budget-2 cases the oracle's own instances have
   * few of.
   */
  @Test
  void thePriceBoundNeverExceedsTheLeastPriceStillToPayAndDropsByAtMostOneMovesPrice() {
    int[] seen = new int[3]; // states, states with a finite least price, states with a positive price bound
    int[] counts = new int[4]; // the exact mover's outcomes: fit without moves, with moves, infeasible, unproven
    Property.forSeeds("price bound admissible and consistent", 120, seed -> {
      if (counts[1] + counts[2] + counts[3] >= 8) {
        return;
      }
      MoveProblem p1 = ExactMoverTest.problem(seed + 40);
      var refused = p1.placer().place(p1.state(), p1.request());
      if (refused.plan().isPresent()) {
        return;
      }
      int budget = 2;
      MoveProblem p = new MoveProblem(p1.state(), p1.request(), p1.placer(), p1.rules(), budget, p1.costs(), p1.timeLimit());
      MoveRelaxation relax = new MoveRelaxation(p.state(), p.request(), p.rules().performance(), p.rules().interference(), budget, p.costs());
      Set<String> all = p.state().cluster().gpus().stream().map(Gpu::id).collect(Collectors.toSet());
      MoveRelaxation.Bound before = relax.bound(relax.tallies(p.state(), all), budget);
      // the root's least price from its children's (the oracle's own recursion), so each child is enumerated once
      boolean[] unproven = {refused.status() != SolveStatus.INFEASIBLE};
      double least = Double.POSITIVE_INFINITY;
      for (Move m : MoveSpace.candidates(p.state(), p.rules())) {
        MoveRules.Outcome o = p.rules().attempt(p.state(), m);
        if (o.applied()) {
          ClusterState after = o.after().get();
          double rest = ExactMoverTest.oracle(p, after, budget - 1, 0, unproven);
          MoveRelaxation.Bound bound = admissible(relax, after, budget - 1, all, rest, seen, seed + 40);
          assertThat(before.price()).as("seed %d: price bound before %s, after %s", seed + 40, m, bound)
              .isLessThanOrEqualTo(p.costs().of(m) + bound.price() + 1e-9);
          least = Math.min(least, p.costs().of(m) + rest);
        }
      }
      admissible(relax, p.state(), budget, all, least, seen, seed + 40);
      ExactMoverTest.agreesWithTheOracle(p, seed + 40, counts, least, unproven[0]);
    });
    System.out.printf("price bound: %d states, %d with a finite least price, %d with a positive bound; the exact mover at budget 2 where "
        + "the request does not fit without moves: %d need moves, %d infeasible, %d unproven%n", seen[0], seen[1], seen[2], counts[1],
        counts[2], counts[3]);
    assertThat(seen[1]).isGreaterThan(0);
    assertThat(seen[2]).isGreaterThan(0);
    assertThat(counts[1]).as("instances that need moves").isGreaterThanOrEqualTo(3);
  }

  /** The bound of {@code s} with {@code left} moves left (every GPU computed afresh); asserts it is at most {@code least}, the least price brute force found. */
  static MoveRelaxation.Bound admissible(MoveRelaxation relax, ClusterState s, int left, Set<String> all, double least, int[] seen,
      long seed) {
    MoveRelaxation.Bound b = relax.bound(relax.tallies(s, all), left);
    seen[0]++;
    seen[1] += Double.isFinite(least) ? 1 : 0;
    seen[2] += b.price() > 0 ? 1 : 0;
    assertThat(b.price()).as("seed %d: bound %s, least price %s with %d moves left", seed, b, least, left).isLessThanOrEqualTo(least + 1e-9);
    if (Double.isFinite(least)) {
      assertThat(b.level()).as("seed %d: a sequence of %d moves exists", seed, left).isLessThanOrEqualTo(left);
    }
    return b;
  }

  /** The level of {@code s} (every GPU computed afresh); asserts it is 0 when the placer fits the request there. */
  private static int check(MoveProblem p, MoveRelaxation relax, ClusterState s, Set<String> all, int[] seen) {
    int level = relax.bound(relax.tallies(s, all), Integer.MAX_VALUE).level(); // every move the relaxation was built for
    boolean fits = p.placer().place(s, p.request()).plan().isPresent();
    seen[0]++;
    seen[1] += fits ? 1 : 0;
    seen[2] += level > 0 ? 1 : 0;
    if (fits) {
      assertThat(level).as("the placer fits the request, so the floor must meet the SLO").isZero();
    }
    return level;
  }
}
