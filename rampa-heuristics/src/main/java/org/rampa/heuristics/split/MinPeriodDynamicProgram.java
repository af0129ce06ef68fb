package org.rampa.heuristics.split;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.rampa.split.PeriodSplitter;
import org.rampa.split.SplitProblem;
import org.rampa.split.SplitResult;
import org.rampa.split.SplitStage;

/**
 * The exact min-max dynamic programme: {@code best[j][i]} is the least period of layers
 * {@code [0, i)} on the first {@code j} devices, and
 * {@code best[j+1][i] = min_k max(best[j][k], load_j(k, i))} (or {@code best[j][i]} when device j may
 * stay unused). Loads are min-max composable because the period is a maximum over stages and cuts,
 * and every stage's load depends only on its own range and device.
 */
final class MinPeriodDynamicProgram implements PeriodSplitter {

  static final MinPeriodDynamicProgram INSTANCE = new MinPeriodDynamicProgram();

  private static final int SKIP = -1;
  private static final int NONE = -2;

  private MinPeriodDynamicProgram() {}

  @Override
  public SplitResult split(SplitProblem problem) {
    StageLoads loads = new StageLoads(problem.table(), problem.transfers());
    int layers = loads.layers();
    int devices = problem.devices().size();
    if (!problem.allowUnusedDevices() && devices > layers) {
      return SplitResult.infeasible(devices + " devices must each run a non-empty stage but the model has only "
          + layers + " layers; allow unused devices or pass fewer devices");
    }
    double[][] best = new double[devices + 1][layers + 1];
    int[][] choice = new int[devices + 1][layers + 1];
    for (double[] row : best) {
      Arrays.fill(row, Double.POSITIVE_INFINITY);
    }
    for (int[] row : choice) {
      Arrays.fill(row, NONE);
    }
    best[0][0] = 0;
    for (int j = 0; j < devices; j++) {
      double[] prefix = loads.prefixTimes(problem.devices().get(j));
      long cap = problem.memoryCaps().isEmpty() ? Long.MAX_VALUE : problem.memoryCaps().get(j);
      double[] from = best[j];
      double[] to = best[j + 1];
      int[] chosen = choice[j + 1];
      if (problem.allowUnusedDevices()) {
        for (int i = 0; i <= layers; i++) {
          if (from[i] < to[i]) {
            to[i] = from[i];
            chosen[i] = SKIP;
          }
        }
      }
      for (int i = 1; i <= layers; i++) {
        long peak = 0;
        for (int k = i - 1; k >= 0; k--) {
          peak = Math.max(peak, loads.peakMemory(k));
          if (loads.additiveMemory(k, i) + peak > cap) {
            break; // memory only grows as the stage extends further back
          }
          double compute = prefix[i] - prefix[k];
          if (compute >= to[i]) {
            break; // every load is at least its compute, which only grows as the stage extends back
          }
          if (from[k] == Double.POSITIVE_INFINITY) {
            continue;
          }
          double load = loads.load(k, i, compute);
          double candidate = Math.max(from[k], load);
          if (candidate < to[i]) {
            to[i] = candidate;
            chosen[i] = k;
          }
        }
      }
    }
    if (best[devices][layers] == Double.POSITIVE_INFINITY) {
      return SplitResult.infeasible(infeasibleReason(problem, loads));
    }
    List<SplitStage> stages = new ArrayList<>();
    int i = layers;
    for (int j = devices; j > 0; j--) {
      int k = choice[j][i];
      if (k == SKIP) {
        continue;
      }
      double[] prefix = loads.prefixTimes(problem.devices().get(j - 1));
      stages.add(new SplitStage(k, i, j - 1, loads.load(k, i, prefix[i] - prefix[k])));
      i = k;
    }
    Collections.reverse(stages);
    return SplitResult.of(best[devices][layers], stages);
  }

  private static String infeasibleReason(SplitProblem problem, StageLoads loads) {
    long largestCap = problem.memoryCaps().stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
    for (int l = 0; l < loads.layers(); l++) {
      long need = loads.additiveMemory(l, l + 1) + loads.peakMemory(l);
      if (need > largestCap) {
        return "layer " + l + " alone needs " + need + " B, more than the largest device memory cap (" + largestCap + " B)";
      }
    }
    return "no contiguous split of the " + loads.layers() + " layers onto these " + problem.devices().size()
        + " devices fits the memory caps " + problem.memoryCaps() + "; add devices or larger ones";
  }
}
