package org.rampa.solver.moves;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;

/**
 * The states a search over moves has expanded, up to their version, each with the moves and prices
 * it was reached at. A state reached again with no fewer moves and no less price is dominated: every
 * sequence from it is open from the earlier visit within the budget, no dearer, and leads to the
 * same states. Shared by {@link ExactMover} and {@link ExactDefragmenter}.
 */
final class ExpandedStates {

  private static final double EPS = 1e-9;

  /** A state up to its version: who holds what, and each GPU's MIG layout as a set. */
  private record Key(Map<String, List<Holding>> holdings, Map<String, Set<MigSlice>> layouts) {
    static Key of(ClusterState s) {
      Map<String, List<Holding>> holdings = new TreeMap<>();
      for (Allocation a : s.allocations().values()) {
        holdings.put(a.serviceId(), a.holdings());
      }
      Map<String, Set<MigSlice>> layouts = new TreeMap<>();
      s.migLayouts().forEach((g, l) -> layouts.put(g, new HashSet<>(l)));
      return new Key(holdings, layouts);
    }
  }

  private final Map<Key, List<double[]>> seen = new HashMap<>();

  /** Records {@code state} at {@code moves} and {@code price}; false (recording nothing) when an earlier visit dominates it. */
  boolean first(ClusterState state, int moves, double price) {
    List<double[]> at = seen.computeIfAbsent(Key.of(state), k -> new ArrayList<>());
    if (at.stream().anyMatch(d -> d[0] <= moves && d[1] <= price + EPS)) {
      return false;
    }
    at.add(new double[] {moves, price});
    return true;
  }
}
