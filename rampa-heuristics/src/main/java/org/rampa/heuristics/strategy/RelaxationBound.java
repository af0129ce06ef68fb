package org.rampa.heuristics.strategy;

import java.util.Arrays;
import java.util.List;
import org.rampa.perf.StageCursor;

/**
 * The label-setting search's admissible bound on the cost still to come, solved once per decision
 * by a small dynamic programme over (stages left, boundary) on a relaxation of the problem, over every shape of the slot menu.
 */
final class RelaxationBound {

  private final int layers;
  private final int maxStages;
  private final double[][] relaxed;

  /**
   * @param prefixTime per shape, the time alone of layers {@code [0, l)} on a whole GPU of the
   *     shape's type; null for a share, whose stages are then counted as one replica at least
   */
  RelaxationBound(PlacementContext c, SlotPools pools, double[][] prefixTime, double maxBusy, int maxStages) {
    this.layers = c.model.size();
    this.maxStages = maxStages;
    int shapes = pools.shapes.size();
    double[] cheapestOfShape = new double[shapes];
    int[] freeOfShape = new int[shapes];
    Arrays.fill(cheapestOfShape, Double.POSITIVE_INFINITY);
    for (int s = 0; s < shapes; s++) {
      for (SlotPools.Pool p : pools.poolsOfShape.get(s)) {
        cheapestOfShape[s] = Math.min(cheapestOfShape[s], p.cost(s, 0, 1));
        freeOfShape[s] += p.size();
      }
    }
    this.relaxed = relaxedCosts(c, pools, prefixTime, maxBusy, maxStages, cheapestOfShape, freeOfShape);
  }

  /**
   * Admissible estimate of the cost still to come from {@code boundary} after {@code stagesUsed}
   * stages: the least cost of covering the remaining layers with the remaining stages when every
   * GPU of a shape cost as little as the cheapest one offering it, capacities and nodes did not
   * matter, and transfers and latency were free; a stage of layers S on whole GPUs of type t needs
   * ceil(T_S / max busy) GPUs (each holding all of S), on a share at least one (α ≥ 1 and a
   * share's time alone are not bounded here by the whole GPU's).
   */
  double costToGo(int boundary, int stagesUsed) {
    if (boundary == layers) {
      return 0;
    }
    int left = maxStages - stagesUsed;
    return left <= 0 ? Double.POSITIVE_INFINITY : relaxed[left][boundary];
  }

  /** relaxed[s][j]: the relaxation of {@link #costToGo} with at most s stages from boundary j. */
  private static double[][] relaxedCosts(PlacementContext c, SlotPools pools, double[][] prefixTime, double maxBusy,
      int maxStages, double[] cheapestOfShape, int[] freeOfShape) {
    int layers = c.model.size();
    int batch = c.batch;
    int shapes = pools.shapes.size();
    // the cheapest single stage [j, k) over all types, or infinity
    double[][] stage = new double[layers + 1][layers + 1];
    for (int j = 0; j < layers; j++) {
      StageCursor stageFromJ = c.performance.cursor(c.model, batch, j, List.of());
      Arrays.fill(stage[j], Double.POSITIVE_INFINITY);
      for (int k = j + 1; k <= layers; k++) {
        long memory = stageFromJ.add().memoryBytes();
        for (int s = 0; s < shapes; s++) {
          if (memory > pools.maxCapOfShape[s]) {
            continue;
          }
          double r = prefixTime[s] == null ? 1 : Math.max(1, Math.ceil((prefixTime[s][k] - prefixTime[s][j]) / maxBusy - 1e-9));
          if (r <= freeOfShape[s]) {
            stage[j][k] = Math.min(stage[j][k], r * cheapestOfShape[s]);
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
