package org.rampa.strategy.support;

import java.util.Arrays;
import java.util.List;
import org.rampa.domain.Model;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageCursor;

/**
 * The least compute of a pipeline, given a lower bound on each possible stage's time: the proven
 * latency floors of greedy's refusal ({@code LatencyFloor}, rampa-heuristics) and of the exact
 * mover's relaxation ({@code MoveRelaxation}, rampa-solver) both time stages alone and end in this split.
 */
public final class StageFloor {
  private StageFloor() {}

  /**
   * The least sum of {@code stageSeconds[i][j]} over splits of layers {@code [0, n)} into at most
   * {@code maxStages} contiguous stages {@code [i, j)}; infinite when no split has finite times.
   * {@code stageSeconds} is n × (n + 1), infinite where a stage cannot run.
   */
  public static double leastSeconds(double[][] stageSeconds, int maxStages) {
    int n = stageSeconds.length;
    double[] best = new double[n + 1];
    Arrays.fill(best, Double.POSITIVE_INFINITY);
    best[0] = 0;
    double floor = Double.POSITIVE_INFINITY;
    for (int s = 1; s <= Math.min(maxStages, n); s++) {
      double[] next = new double[n + 1];
      Arrays.fill(next, Double.POSITIVE_INFINITY);
      for (int i = 0; i < n; i++) {
        if (best[i] == Double.POSITIVE_INFINITY) {
          continue;
        }
        for (int j = i + 1; j <= n; j++) {
          next[j] = Math.min(next[j], best[i] + stageSeconds[i][j]);
        }
      }
      best = next;
      floor = Math.min(floor, best[n]);
    }
    return floor;
  }

  /**
   * Every stage {@code [i, j)} of {@code model}'s batch of {@code batch} alone on {@code kind}, in
   * seconds, n × (n + 1); infinite where the stage's memory does not fit the kind.
   */
  public static double[][] stageSecondsAlone(PerformanceModel performance, Model model, int batch, DeviceKind kind) {
    int n = model.size();
    double[][] t = new double[n][n + 1];
    for (int i = 0; i < n; i++) {
      Arrays.fill(t[i], Double.POSITIVE_INFINITY);
      StageCursor cursor = performance.cursor(model, batch, i, List.of(kind));
      for (int j = i + 1; j <= n; j++) {
        cursor.add();
        if (!cursor.fitsOn(kind)) {
          break; // memory only grows with the stage
        }
        t[i][j] = cursor.seconds(0);
      }
    }
    return t;
  }
}
