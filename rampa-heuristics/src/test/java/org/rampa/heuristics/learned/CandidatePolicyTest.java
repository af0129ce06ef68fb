package org.rampa.heuristics.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.testing.Property;

class CandidatePolicyTest {
  private static final List<String> FEATURES = List.of("a", "b", "c");

  static double[][] randomFeatures(SplittableRandom random, int n, int width) {
    double[][] x = new double[n][];
    for (int i = 0; i < n; i++) {
      x[i] = random.doubles(width, 0, 1).toArray();
    }
    return x;
  }

  static boolean[] randomMask(SplittableRandom random, int n) {
    boolean[] legal = new boolean[n];
    for (int i = 0; i < n; i++) {
      legal[i] = random.nextInt(3) > 0;
    }
    legal[random.nextInt(n)] = true;
    return legal;
  }

  @Test
  void maskedCandidatesAreNeverChosenAndGetProbabilityZero() {
    Property.forSeeds("masked candidates are never chosen", 50, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      CandidatePolicy policy = CandidatePolicy.initialised(FEATURES, new int[] {6}, seed);
      int n = 1 + random.nextInt(40);
      double[][] x = randomFeatures(random, n, 3);
      boolean[] legal = randomMask(random, n);
      double[] p = policy.probabilities(x, legal);
      double sum = 0;
      for (int i = 0; i < n; i++) {
        if (!legal[i]) {
          assertThat(p[i]).isZero();
        }
        sum += p[i];
      }
      assertThat(sum).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
      for (int draw = 0; draw < 200; draw++) {
        assertThat(legal[policy.sample(x, legal, random)]).isTrue();
      }
      assertThat(legal[policy.greedy(x, legal)]).isTrue();
    });
  }

  @Test
  void aCandidatesScoreDoesNotDependOnHowManyOthersThereAre() {
    CandidatePolicy policy = CandidatePolicy.initialised(FEATURES, new int[] {6}, 3);
    SplittableRandom random = new SplittableRandom(4);
    double[][] many = randomFeatures(random, 1000, 3);
    boolean[] all = new boolean[1000];
    java.util.Arrays.fill(all, true);
    double[] scores = policy.scores(many, all);
    double[][] few = java.util.Arrays.copyOf(many, 10);
    double[] fewScores = policy.scores(few, java.util.Arrays.copyOf(all, 10));
    assertThat(fewScores).containsExactly(java.util.Arrays.copyOf(scores, 10));
  }

  @Test
  void aDecisionWithNothingLegalIsRefused() {
    CandidatePolicy policy = CandidatePolicy.initialised(FEATURES, new int[] {6}, 3);
    assertThatThrownBy(() -> policy.greedy(new double[2][3], new boolean[2]))
        .hasMessage("legal = all 2 candidates illegal: at least one candidate must be legal. "
            + "Maybe fall back to a heuristic when a step leaves nothing legal");
    assertThatThrownBy(() -> policy.greedy(new double[2][3], new boolean[3]))
        .hasMessage("legal.length = 3: must equal the number of candidates 2");
    assertThatThrownBy(() -> CandidatePolicy.initialised(List.of("a"), new int[] {2}, 1).greedy(new double[1][3], new boolean[] {true}))
        .hasMessage("features.length = 3: must be 1, the network's input width");
  }
}
