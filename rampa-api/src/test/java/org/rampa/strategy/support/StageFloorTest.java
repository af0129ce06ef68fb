package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.testing.Property;

class StageFloorTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @Test
  void aHandWorkedModelOfThreeLayers() {
    // [0,1) 1, [1,3) 1, [0,3) 5, [0,2) 1.5, [2,3) 0.2; everything else infinite
    double[][] t = new double[3][4];
    for (double[] row : t) {
      Arrays.fill(row, INF);
    }
    t[0][1] = 1;
    t[1][3] = 1;
    t[0][3] = 5;
    t[0][2] = 1.5;
    t[2][3] = 0.2;
    assertThat(StageFloor.leastSeconds(t, 1)).isEqualTo(5);
    assertThat(StageFloor.leastSeconds(t, 2)).isEqualTo(1.7); // [0,2) + [2,3)
    assertThat(StageFloor.leastSeconds(t, 3)).isEqualTo(1.7); // [0,1) [1,2) has no time for [1,2)
    t[1][2] = 0.1;
    assertThat(StageFloor.leastSeconds(t, 3)).isEqualTo(1.0 + 0.1 + 0.2);
  }

  @Test
  void noFiniteSplitIsInfinite() {
    double[][] t = new double[2][3];
    for (double[] row : t) {
      Arrays.fill(row, INF);
    }
    t[0][1] = 1; // the second layer fits nowhere
    assertThat(StageFloor.leastSeconds(t, 2)).isInfinite();
  }

  @Test
  void equalsTheLeastOverEverySplit() {
    Property.forSeeds("stage floor = least over every split", 300, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      int n = 1 + r.nextInt(7);
      int maxStages = 1 + r.nextInt(n + 1);
      double[][] t = new double[n][n + 1];
      for (int i = 0; i < n; i++) {
        Arrays.fill(t[i], INF);
        for (int j = i + 1; j <= n; j++) {
          t[i][j] = r.nextInt(5) == 0 ? INF : r.nextDouble(0.01, 3.0);
        }
      }
      double expected = everySplit(t, 0, maxStages);
      double floor = StageFloor.leastSeconds(t, maxStages);
      if (Double.isInfinite(expected)) {
        assertThat(floor).isInfinite();
      } else {
        assertThat(floor).isCloseTo(expected, within(1e-12)); // the enumeration adds in another order
      }
    });
  }

  /** The least over every split of layers [from, n) into at most {@code stages} stages, by enumeration. */
  private static double everySplit(double[][] t, int from, int stages) {
    int n = t.length;
    if (from == n) {
      return 0;
    }
    if (stages == 0) {
      return INF;
    }
    double best = INF;
    for (int to = from + 1; to <= n; to++) {
      best = Math.min(best, t[from][to] + everySplit(t, to, stages - 1));
    }
    return best;
  }
}
