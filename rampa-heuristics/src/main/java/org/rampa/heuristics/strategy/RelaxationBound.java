package org.rampa.heuristics.strategy;

import java.util.Arrays;
import java.util.List;
import org.rampa.perf.StageCursor;

/**
 * The label-setting search's admissible bound on the cost still to come, solved once per decision
 * by small dynamic programmes over (stages left, boundary) on a relaxation of the problem, over
 * every shape of the slot menu.
 *
 * <p><b>The relaxation.</b> Every unit of a shape costs as little as the cheapest one offering it,
 * capacities, nodes and transfers do not matter; a stage of layers S on whole GPUs of type t needs
 * ceil(T_S / max busy) GPUs (each holding all of S), on a share at least one (α ≥ 1 and a share's
 * time alone are not bounded here by the whole GPU's).
 *
 * <p><b>Latency (Lagrangian).</b> The plain relaxation ignores the latency bound, which is what
 * makes a large model expensive: fast GPUs cost more. For any μ ≥ 0, a completion whose latency
 * fits the label's slack {@code B - L} costs at least {@code h_μ - μ (B - L)}, where {@code h_μ}
 * is the relaxation's least cost plus μ times the completion's time alone on whole GPUs (a lower
 * bound on its latency: transfers and α only add; shares count 0). The bound is the largest of
 * the plain relaxation and these, over a fixed grid of μ; with it the search proves optimality
 * where the plain bound left a wide gap to the incumbent (a 70B model on thousands of GPUs).
 */
final class RelaxationBound {

  /** Multipliers of the grid, relative to the cost per second of latency of the plain relaxation's root. */
  private static final double[] MU_SCALES = {1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8, 16, 32, 64, 128};

  private final int layers;
  /** The request's K_max. */
  private final int requestMaxStages;
  /** The tables' stage rows: K_max, at most the layer count. */
  private final int maxStages;
  private final double latencyBudget;
  /** μ per table; {@code mu[0] = 0}, the plain relaxation. */
  private final double[] mu;
  /** relaxed[m][s][j]: least relaxed cost plus mu[m] times time alone, with at most s stages from boundary j. */
  private final double[][][] relaxed;

  /**
   * @param prefixTime per shape, the time alone of layers {@code [0, l)} on a whole GPU of the
   *     shape's type; null for a share
   * @param latencyBound whether to add the Lagrangian latency bounds (off: the plain relaxation only)
   */
  RelaxationBound(PlacementContext c, SlotPools pools, double[][] prefixTime, double maxBusy, int maxStages, double latencyBudget,
      boolean latencyBound) {
    this.layers = c.model.size();
    this.requestMaxStages = maxStages;
    // a stage holds one layer at least: more stages than layers add nothing (and K_max may be 1024)
    this.maxStages = Math.min(maxStages, layers);
    this.latencyBudget = latencyBudget;
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
    // per stage [j, k) and shape: the relaxed cost and the time alone (0 on a share), or infinite cost
    double[][][] stageCost = new double[shapes][layers + 1][layers + 1];
    double[][][] stageTime = new double[shapes][layers + 1][layers + 1];
    for (int j = 0; j < layers; j++) {
      StageCursor stageFromJ = c.performance.cursor(c.model, c.batch, j, List.of());
      for (int s = 0; s < shapes; s++) {
        Arrays.fill(stageCost[s][j], Double.POSITIVE_INFINITY);
      }
      for (int k = j + 1; k <= layers; k++) {
        long memory = stageFromJ.add().memoryBytes();
        for (int s = 0; s < shapes; s++) {
          if (memory > pools.maxCapOfShape[s]) {
            continue;
          }
          double time = prefixTime[s] == null ? 0 : prefixTime[s][k] - prefixTime[s][j];
          double r = prefixTime[s] == null ? 1 : Math.max(1, Math.ceil(time / maxBusy - 1e-9));
          if (r <= freeOfShape[s]) {
            stageCost[s][j][k] = r * cheapestOfShape[s];
            stageTime[s][j][k] = time;
          }
        }
      }
    }
    double[][] plain = relaxedCosts(stageCost, stageTime, 0);
    double root = plain[this.maxStages][0];
    if (!latencyBound || !(root > 0) || root == Double.POSITIVE_INFINITY || !(latencyBudget > 0)
        || latencyBudget == Double.POSITIVE_INFINITY) {
      this.mu = new double[] {0};
      this.relaxed = new double[][][] {plain};
      return;
    }
    this.mu = new double[MU_SCALES.length + 1];
    this.relaxed = new double[mu.length][][];
    relaxed[0] = plain;
    for (int m = 1; m < mu.length; m++) {
      mu[m] = MU_SCALES[m - 1] * root / latencyBudget;
      relaxed[m] = relaxedCosts(stageCost, stageTime, mu[m]);
    }
  }

  /**
   * Admissible estimate of the cost still to come from {@code boundary} after {@code stagesUsed}
   * stages for a path whose latency so far is at least {@code latency}: the largest of the plain
   * bound and the Lagrangian ones at that slack.
   */
  double costToGo(int boundary, int stagesUsed, double latency) {
    if (boundary == layers) {
      return 0;
    }
    int left = stagesLeft(stagesUsed);
    if (left <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    double best = relaxed[0][left][boundary];
    double slack = Math.max(0, latencyBudget - latency);
    for (int m = 1; m < mu.length; m++) {
      double v = relaxed[m][left][boundary] - mu[m] * slack;
      // the sums' rounding must never lift the bound over a plan's true cost
      v -= 1e-9 * Math.abs(v);
      if (v > best) {
        best = v;
      }
    }
    return best;
  }

  private int stagesLeft(int stagesUsed) {
    return Math.min(maxStages, requestMaxStages - stagesUsed);
  }

  /** t[s][j]: least over at most s stages from boundary j of relaxed cost plus {@code mu} times time alone. */
  private double[][] relaxedCosts(double[][][] stageCost, double[][][] stageTime, double mu) {
    int shapes = stageCost.length;
    double[][] stage = new double[layers + 1][layers + 1];
    for (int j = 0; j < layers; j++) {
      Arrays.fill(stage[j], Double.POSITIVE_INFINITY);
      for (int k = j + 1; k <= layers; k++) {
        for (int s = 0; s < shapes; s++) {
          double v = stageCost[s][j][k] + mu * stageTime[s][j][k];
          if (v < stage[j][k]) {
            stage[j][k] = v;
          }
        }
      }
    }
    double[][] t = new double[maxStages + 1][layers + 1];
    for (int st = 0; st <= maxStages; st++) {
      Arrays.fill(t[st], Double.POSITIVE_INFINITY);
      t[st][layers] = 0;
      if (st == 0) {
        continue;
      }
      for (int j = layers - 1; j >= 0; j--) {
        double best = Double.POSITIVE_INFINITY;
        for (int k = j + 1; k <= layers; k++) {
          double v = stage[j][k] + t[st - 1][k];
          if (v < best) {
            best = v;
          }
        }
        t[st][j] = best;
      }
    }
    return t;
  }
}
