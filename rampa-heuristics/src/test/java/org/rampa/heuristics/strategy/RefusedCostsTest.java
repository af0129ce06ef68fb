package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RefusedCosts} refuses exactly the costs at or above one recorded at the same latency (its
 * few latencies held), never one it was not told of, and forgets everything when cleared; checked
 * against a plain list of every record on seeded random sequences.
 */
class RefusedCostsTest {

  @Test
  void refusesExactlyWhatARecordAtTheSameLatencyCovers() {
    for (long seed = 1; seed <= 300; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      RefusedCosts refused = new RefusedCosts();
      List<double[]> records = new ArrayList<>();
      // few distinct latencies (as in one stage end), sometimes more than the memo holds
      double[] latencies = new double[1 + r.nextInt(12)];
      for (int k = 0; k < latencies.length; k++) {
        latencies[k] = r.nextDouble();
      }
      for (int step = 0; step < 200; step++) {
        double latency = latencies[r.nextInt(latencies.length)];
        double cost = r.nextInt(20) / 4.0;
        if (r.nextInt(3) == 0) {
          refused.refused(latency, cost);
          records.add(new double[] {latency, cost});
        } else if (r.nextInt(40) == 0) {
          refused.clear();
          records.clear();
        } else {
          boolean covered = records.stream().anyMatch(x -> x[0] == latency && x[1] <= cost);
          boolean answer = refused.refuses(latency, cost);
          String msg = "seed " + seed + " step " + step + " " + refused;
          // never a cost nobody refused; every covered one while at most 8 latencies were recorded
          assertThat(!answer || covered).as(msg).isTrue();
          if (records.stream().mapToDouble(x -> x[0]).distinct().count() <= 8) {
            assertThat(answer).as(msg).isEqualTo(covered);
          }
        }
      }
    }
  }
}
