package org.rampa.solver.colocation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.colocation.ColocationService;

/**
 * The brute-force side of the co-location oracles: a GPU configuration is the vector of what it
 * serves per service; the optimum of each objective is found over every multiset of up to n such
 * vectors. Independent of the planner's model on purpose: it only adds up throughputs.
 */
final class ConfigurationVectors {

  private ConfigurationVectors() {}

  /** The vectors no other vector matches or beats in every entry. */
  static List<double[]> undominated(Collection<double[]> vectors) {
    List<double[]> all = new ArrayList<>(vectors);
    return all.stream().filter(a -> all.stream().noneMatch(b -> b != a && dominates(b, a))).toList();
  }

  private static boolean dominates(double[] a, double[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] < b[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Adds to {@code out} (keyed by content) every vector obtained by leaving each part empty or giving
   * it to one service; {@code perPart[j][i]} is what part j serves for service i, negative when it
   * cannot hold it.
   */
  static void assignEachPart(double[][] perPart, Map<String, double[]> out) {
    assign(perPart, 0, new double[perPart.length == 0 ? 0 : perPart[0].length], out);
  }

  private static void assign(double[][] perPart, int j, double[] acc, Map<String, double[]> out) {
    if (j == perPart.length) {
      out.putIfAbsent(Arrays.toString(acc), acc.clone());
      return;
    }
    assign(perPart, j + 1, acc, out); // part left empty
    for (int i = 0; i < acc.length; i++) {
      if (perPart[j][i] >= 0) {
        acc[i] += perPart[j][i];
        assign(perPart, j + 1, acc, out);
        acc[i] -= perPart[j][i];
      }
    }
  }

  /** Every multiset of 1 … {@code max} indices below {@code n}. */
  static List<List<Integer>> multisets(int n, int max) {
    List<List<Integer>> out = new ArrayList<>();
    grow(n, max, 0, new ArrayList<>(), out);
    return out;
  }

  private static void grow(int n, int max, int from, List<Integer> cur, List<List<Integer>> out) {
    if (!cur.isEmpty()) {
      out.add(List.copyOf(cur));
    }
    if (cur.size() == max) {
      return;
    }
    for (int i = from; i < n; i++) {
      cur.add(i);
      grow(n, max, i, cur, out);
      cur.remove(cur.size() - 1);
    }
  }

  /** The entry-wise sum of the chosen vectors. */
  static double[] sum(List<double[]> vectors, List<Integer> chosen, int length) {
    double[] sum = new double[length];
    for (int c : chosen) {
      for (int i = 0; i < length; i++) {
        sum[i] += vectors.get(c)[i];
      }
    }
    return sum;
  }

  /**
   * The optimum of each objective over every multiset of 1 … {@code gpus} configurations: the
   * largest common scale of the rates, the largest weighted throughput served (each service counted
   * up to its rate), and the fewest GPUs covering every rate (empty: none does).
   */
  record Optimum(double scale, double weighted, Optional<Integer> fewestGpus) {
    static Optimum of(List<double[]> vectors, List<ColocationService> services, int gpus) {
      double scale = 0;
      double weighted = 0;
      int fewest = Integer.MAX_VALUE;
      for (List<Integer> combo : multisets(vectors.size(), gpus)) {
        double[] sum = sum(vectors, combo, services.size());
        double z = Double.MAX_VALUE;
        double value = 0;
        boolean covers = true;
        for (int i = 0; i < sum.length; i++) {
          ColocationService s = services.get(i);
          z = Math.min(z, sum[i] / s.rate());
          value += s.weight() * Math.min(s.rate(), sum[i]);
          covers &= sum[i] >= s.rate() * (1 - 1e-6);
        }
        scale = Math.max(scale, z);
        weighted = Math.max(weighted, value);
        if (covers) {
          fewest = Math.min(fewest, combo.size());
        }
      }
      return new Optimum(scale, weighted, fewest == Integer.MAX_VALUE ? Optional.empty() : Optional.of(fewest));
    }
  }
}
