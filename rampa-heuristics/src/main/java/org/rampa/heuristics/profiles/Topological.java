package org.rampa.heuristics.profiles;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.rampa.domain.Invalid;

/**
 * Kahn's topological sort with a deterministic tie-break: among the ready nodes, the one first in
 * {@code order} comes first. The importers break ties by the profile's own node numbering, which
 * follows the order in which the framework created the operators, so a chain keeps its order and
 * parallel branches are laid out one after the other as the framework traced them.
 */
final class Topological {
  private Topological() {}

  /** Nodes 0..n-1, edges as {from, to}; returns the nodes in topological order. */
  static int[] sort(int n, List<int[]> edges, Comparator<Integer> order, String what) {
    List<List<Integer>> out = new ArrayList<>();
    int[] indegree = new int[n];
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>());
    }
    for (int[] e : edges) {
      out.get(e[0]).add(e[1]);
      indegree[e[1]]++;
    }
    PriorityQueue<Integer> ready = new PriorityQueue<>(order);
    for (int i = 0; i < n; i++) {
      if (indegree[i] == 0) {
        ready.add(i);
      }
    }
    int[] sorted = new int[n];
    int k = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      sorted[k++] = v;
      for (int w : out.get(v)) {
        if (--indegree[w] == 0) {
          ready.add(w);
        }
      }
    }
    if (k != n) {
      throw Invalid.value(what + ".edges", "(a cycle)", "the layer graph has a cycle through " + (n - k) + " nodes",
          "the file is not a DAG profile; check for a backward node wired to its forward node");
    }
    return sorted;
  }

  /** Ordering by the trailing number of an id ("node12" -> 12), then by the id itself. */
  static Comparator<String> byNumberedId() {
    return Comparator.comparingLong((String id) -> trailingNumber(id)).thenComparing(Comparator.naturalOrder());
  }

  private static long trailingNumber(String id) {
    int i = id.length();
    while (i > 0 && Character.isDigit(id.charAt(i - 1))) {
      i--;
    }
    return i == id.length() ? Long.MAX_VALUE : Long.parseLong(id.substring(i));
  }

  static <K> Comparator<Integer> indexOrder(List<K> keys, Comparator<K> order) {
    return (a, b) -> order.compare(keys.get(a), keys.get(b));
  }

  static <K> Map<K, Integer> inverse(List<K> keys) {
    Map<K, Integer> m = new java.util.HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      m.put(keys.get(i), i);
    }
    return m;
  }
}
