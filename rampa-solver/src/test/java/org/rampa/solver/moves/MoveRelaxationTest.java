package org.rampa.solver.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.moves.Move;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.testing.Property;

/**
 * The two facts the exact mover's pruning rests on, checked on the oracle's tiny shared clusters
 * ({@link ExactMoverTest#problem}): the relaxation's level is 0 wherever the placer finds a plan
 * (so a state with a positive level is no goal, and a level above the moves left rules out
 * everything after it), and one move lowers the level by at most one (so the bound it gives the
 * search is consistent), on the state and after every candidate move the rules accept.
 */
class MoveRelaxationTest {

  @Test
  void theLevelIsZeroWhereverThePlacerFitsAndOneMoveLowersItByAtMostOne() {
    int[] seen = new int[3]; // states, states that fit, states with a positive level
    Property.forSeeds("relaxation sound and consistent", 30, seed -> {
      MoveProblem p = ExactMoverTest.problem(seed);
      int budget = 3;
      MoveRelaxation relax = new MoveRelaxation(p.state(), p.request(), p.rules().performance(), p.rules().interference(), budget);
      Set<String> all = p.state().cluster().gpus().stream().map(Gpu::id).collect(Collectors.toSet());
      int before = check(p, relax, p.state(), all, seen);
      for (Move m : MoveSpace.candidates(p.state())) {
        MoveRules.Outcome o = p.rules().attempt(p.state(), m);
        if (o.applied()) {
          int after = check(p, relax, o.after().get(), all, seen);
          assertThat(after).as("seed %d: level after %s", seed, m).isGreaterThanOrEqualTo(before - 1);
        }
      }
    });
    System.out.printf("relaxation: %d states, %d fit, %d with a positive level%n", seen[0], seen[1], seen[2]);
    assertThat(seen[1]).isGreaterThan(0);
    assertThat(seen[2]).isGreaterThan(0);
  }

  /** The level of {@code s} (every GPU computed afresh); asserts it is 0 when the placer fits the request there. */
  private static int check(MoveProblem p, MoveRelaxation relax, ClusterState s, Set<String> all, int[] seen) {
    int level = relax.level(relax.tallies(s, all));
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
