package org.rampa.heuristics.split;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.TensorTransfer;

/**
 * Constant-time stage loads of a {@link LayerCostTable}: prefix sums of layer times per device kind,
 * prefix sums of additive memory, and (for serial per-tensor transfers) the communication load of
 * every range {@code [a, b)}.
 */
final class StageLoads {

  private final LayerCostTable table;
  private final TransferMode transfers;
  private final Map<String, double[]> prefixTimes = new HashMap<>();
  private final long[] prefixMemory;
  private final long[] peakMemory;
  private final double[] cuts;
  /** comm[a][b - a - 1]: time stage [a, b) spends sending and receiving tensors (serial, per tensor). */
  private final double[][] tensorComm;

  StageLoads(LayerCostTable table, TransferMode transfers) {
    this.table = table;
    this.transfers = transfers;
    int n = table.layers();
    prefixMemory = new long[n + 1];
    peakMemory = new long[n];
    for (int l = 0; l < n; l++) {
      prefixMemory[l + 1] = prefixMemory[l] + table.layerMemoryBytes().get(l);
      peakMemory[l] = table.layerPeakMemoryBytes().get(l);
    }
    cuts = new double[n + 1];
    for (int c = 0; c <= n; c++) {
      cuts[c] = table.cutTimes().get(c);
    }
    tensorComm = transfers == TransferMode.SERIAL && !table.tensors().isEmpty() ? tensorComm(table.tensors(), n) : null;
  }

  int layers() {
    return table.layers();
  }

  double[] prefixTimes(String kind) {
    return prefixTimes.computeIfAbsent(kind, k -> {
      List<Double> times = table.timesOf(k);
      double[] p = new double[times.size() + 1];
      for (int l = 0; l < times.size(); l++) {
        p[l + 1] = p[l] + times.get(l);
      }
      return p;
    });
  }

  long additiveMemory(int from, int to) {
    return prefixMemory[to] - prefixMemory[from];
  }

  long peakMemory(int layer) {
    return peakMemory[layer];
  }

  double cut(int c) {
    return cuts[c];
  }

  /** The load of stage [from, to) with compute time {@code compute}: what it adds to the period. */
  double load(int from, int to, double compute) {
    switch (transfers) {
      case NONE:
        return compute;
      case OVERLAPPED:
        return Math.max(compute, cuts[from]);
      case SERIAL:
        if (tensorComm != null) {
          return compute + tensorComm[from][to - from - 1];
        }
        return compute + cuts[from] + cuts[to];
      default:
        throw new IllegalStateException("unknown transfer mode " + transfers);
    }
  }

  /**
   * For every start a, the per-tensor communication of [a, b) for all b: a tensor produced inside
   * and read after b is sent once; a tensor produced before a and read inside is received once.
   */
  private static double[][] tensorComm(List<TensorTransfer> tensors, int n) {
    double[][] comm = new double[n][];
    int[][] sortedConsumers = new int[tensors.size()][];
    for (int t = 0; t < tensors.size(); t++) {
      sortedConsumers[t] = tensors.get(t).consumers().stream().mapToInt(Integer::intValue).sorted().toArray();
    }
    for (int a = 0; a < n; a++) {
      double[] diff = new double[n + 2];
      for (int t = 0; t < tensors.size(); t++) {
        TensorTransfer tensor = tensors.get(t);
        int p = tensor.producer();
        int[] consumers = sortedConsumers[t];
        int last = consumers[consumers.length - 1];
        if (p >= a) {
          // sent when the stage ends after p and before the last consumer: b in [p + 1, last]
          diff[p + 1] += tensor.cost();
          diff[last + 1] -= tensor.cost();
        } else {
          int idx = Arrays.binarySearch(consumers, a);
          int first = idx >= 0 ? consumers[idx] : (-idx - 1 < consumers.length ? consumers[-idx - 1] : -1);
          if (first >= 0) {
            // received once the stage reaches its first consumer at or after a: b >= first + 1
            diff[first + 1] += tensor.cost();
          }
        }
      }
      double[] row = new double[n - a];
      double running = 0;
      for (int b = 1; b <= n; b++) {
        running += diff[b];
        if (b > a) {
          row[b - a - 1] = Math.max(0, running);
        }
      }
      comm[a] = row;
    }
    return comm;
  }
}
