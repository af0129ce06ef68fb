package org.rampa.heuristics.strategy;

import java.util.Arrays;
import java.util.List;
import org.rampa.perf.StageCursor;

/**
 * The label-setting search's admissible bound on the cost still to come, solved once per decision
 * by a small dynamic programme over (stages left, boundary) on a relaxation of the problem.
 */
final class RelaxationBound {

  private final int layers;
  private final int maxStages;
  private final double[][] relaxed;

  RelaxationBound(PlacementContext c, GpuPools pools, double[][] prefixTime, double maxBusy, int maxStages) {
    this.layers = c.model.size();
    this.maxStages = maxStages;
    int types = pools.types.size();
    double[] cheapestOfType = new double[types];
    int[] freeOfType = new int[types];
    Arrays.fill(cheapestOfType, Double.POSITIVE_INFINITY);
    for (GpuPools.Pool p : pools.pools) {
      cheapestOfType[p.type] = Math.min(cheapestOfType[p.type], p.gpus.get(0).cost());
      freeOfType[p.type] += p.size();
    }
    this.relaxed = relaxedCosts(c, pools, prefixTime, maxBusy, maxStages, cheapestOfType, freeOfType);
  }

  /**
   * Admissible estimate of the cost still to come from {@code boundary} after {@code stagesUsed}
   * stages: the least cost of covering the remaining layers with the remaining stages when every
   * GPU of a type cost as little as the cheapest free one, capacities and nodes did not matter, and
   * transfers and latency were free; a stage of layers S on type t needs ceil(T_S / max busy) GPUs
   * (each holding all of S).
   */
  double costToGo(int boundary, int stagesUsed) {
    if (boundary == layers) {
      return 0;
    }
    int left = maxStages - stagesUsed;
    return left <= 0 ? Double.POSITIVE_INFINITY : relaxed[left][boundary];
  }

  /** relaxed[s][j]: the relaxation of {@link #costToGo} with at most s stages from boundary j. */
  private static double[][] relaxedCosts(PlacementContext c, GpuPools pools, double[][] prefixTime, double maxBusy,
      int maxStages, double[] cheapestOfType, int[] freeOfType) {
    int layers = c.model.size();
    int batch = c.batch;
    int types = pools.types.size();
    // the cheapest single stage [j, k) over all types, or infinity
    double[][] stage = new double[layers + 1][layers + 1];
    for (int j = 0; j < layers; j++) {
      StageCursor stageFromJ = c.performance.cursor(c.model, batch, j, List.of());
      Arrays.fill(stage[j], Double.POSITIVE_INFINITY);
      for (int k = j + 1; k <= layers; k++) {
        long memory = stageFromJ.add().memoryBytes();
        for (int t = 0; t < types; t++) {
          if (memory > pools.types.get(t).memoryBytes()) {
            continue;
          }
          double r = Math.max(1, Math.ceil((prefixTime[t][k] - prefixTime[t][j]) / maxBusy - 1e-9));
          if (r <= freeOfType[t]) {
            stage[j][k] = Math.min(stage[j][k], r * cheapestOfType[t]);
          }
        }
      }
    }
    double[][] relaxed = new double[maxStages + 1][layers + 1];
    for (int st = 0; st <= maxStages; st++) {
      Arrays.fill(relaxed[st], Double.POSITIVE_INFINITY);
      relaxed[st][layers] = 0;
      if (st == 0) {
        continue;
      }
      for (int j = layers - 1; j >= 0; j--) {
        double best = Double.POSITIVE_INFINITY;
        for (int k = j + 1; k <= layers; k++) {
          double v = stage[j][k] + relaxed[st - 1][k];
          if (v < best) {
            best = v;
          }
        }
        relaxed[st][j] = best;
      }
    }
    return relaxed;
  }
}
