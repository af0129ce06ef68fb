package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * The labels of the label-setting search kept per (boundary, group of look-alike nodes of the last
 * stage's node, or "spread"): a new label is refused when a live label of its bucket dominates
 * it, and it kills the labels it dominates (marked dead, so the queue skips them).
 *
 * <p><b>Dominance.</b> Label A dominates B when it is no worse in cost, latency, stages and
 * pending busy time, and every completion of B that could beat the incumbent can be copied onto
 * A's GPUs at no more cost. Two ways to see the GPUs' side:
 * <ul>
 *   <li>the same last node and no more GPUs taken from any pool (B's completions run as they are);
 *   <li>interchangeable nodes: nodes of one group are alike, and a node nobody touched offers at
 *       least what a touched one has left (its cheapest GPUs first). So B's completion moves onto
 *       A's untouched nodes when, in every group, A left at least as many nodes untouched as such
 *       a completion can use: no more than the nodes B did not use up, and no more than the
 *       incumbent's room ({@code incumbent - B's cost}) buys GPUs of the group. B's last node maps
 *       to A's, which must have at least as much left, pool for pool.
 * </ul>
 * The second is what lets the search on thousands of GPUs compare paths that took alike GPUs on
 * different nodes; with few nodes it rarely applies, and the first decides as it always did.
 */
final class DominanceStore {

  private final SlotPools pools;
  private final DoubleSupplier upperBound;
  private final boolean acrossNodes;
  private final Map<Long, List<Label>> buckets = new HashMap<>();
  private long dominated;

  /** With {@code acrossNodes} false, only the first way (same last node, no more GPUs from any pool). */
  DominanceStore(SlotPools pools, DoubleSupplier upperBound, boolean acrossNodes) {
    this.pools = pools;
    this.upperBound = upperBound;
    this.acrossNodes = acrossNodes;
  }

  /** True when {@code next} is kept; false when a label already kept is at least as good. */
  boolean admit(Label next) {
    int prev = next.prevNode < 0 ? next.prevNode : pools.groupOf[next.prevNode];
    // dense keys (Long's hash of boundary << 32 | group was boundary ^ group: thousands of groups collided into tree bins)
    long key = (long) next.boundary * (pools.nodeGroups.size() + 2) + prev + 2;
    List<Label> bucket = buckets.computeIfAbsent(key, k -> new ArrayList<>());
    for (Label other : bucket) {
      if (!other.dead && dominates(other, next)) {
        dominated++;
        return false;
      }
    }
    bucket.removeIf(other -> {
      if (dominates(next, other)) {
        other.dead = true;
        dominated++;
        return true;
      }
      return false;
    });
    bucket.add(next);
    return true;
  }

  /** Labels refused or killed by dominance so far. */
  long dominated() {
    return dominated;
  }

  /** A dominates B (same boundary, last nodes in one group or both spread). */
  private boolean dominates(Label a, Label b) {
    if (a.cost > b.cost || a.latency > b.latency || a.stages > b.stages || a.pendingBusy > b.pendingBusy) {
      return false;
    }
    if (a.prevNode == b.prevNode && takesNoMore(a, b)) {
      return true;
    }
    return acrossNodes && movesOntoUntouched(a, b);
  }

  /** No more GPUs taken from any pool. */
  private static boolean takesNoMore(Label a, Label b) {
    int k = 0;
    for (int i = 0; i < a.pools.length; i++) {
      while (k < b.pools.length && b.pools[k] < a.pools[i]) {
        k++;
      }
      if (k == b.pools.length || b.pools[k] != a.pools[i] || b.counts[k] < a.counts[i]) {
        return false;
      }
    }
    return true;
  }

  private boolean movesOntoUntouched(Label a, Label b) {
    if (a.prevNode >= 0) {
      int[] ca = pools.canonicalPools[a.prevNode];
      int[] cb = pools.canonicalPools[b.prevNode];
      for (int i = 0; i < ca.length; i++) {
        if (a.used(ca[i]) > b.used(cb[i])) {
          return false;
        }
      }
    }
    Summary sa = summary(a);
    Summary sb = summary(b);
    double room = upperBound.getAsDouble() - b.cost;
    for (int k = 0; k < sa.groups.length; k++) {
      int g = sa.groups[k];
      int size = pools.nodeGroups.get(g).length;
      int at = Arrays.binarySearch(sb.groups, g);
      long usable = size - (at >= 0 ? sb.full[at] : 0);
      double cheapest = pools.cheapestGpuOfGroup[g];
      if (cheapest > 0 && room < Double.POSITIVE_INFINITY) {
        usable = Math.min(usable, (long) Math.floor(room / cheapest + 1e-9));
      }
      if (size - sa.touched[k] < usable) {
        return false;
      }
    }
    return true;
  }

  /** Per group a label touched (ascending): how many of its nodes it touched and how many it used up. */
  record Summary(int[] groups, int[] touched, int[] full) {}

  private Summary summary(Label label) {
    if (label.summary == null) {
      label.summary = summarize(label);
    }
    return label.summary;
  }

  private Summary summarize(Label label) {
    // per touched node: its group and whether it is used up, packed to sort by group
    long[] packed = new long[label.pools.length];
    int count = 0;
    int lastNode = -1;
    for (int k = 0; k < label.pools.length; k++) {
      int n = pools.pools.get(label.pools[k]).node;
      if (n == lastNode || containsNode(packed, count, n)) {
        continue;
      }
      lastNode = n;
      boolean full = true;
      for (SlotPools.Pool p : pools.poolsOfNode.get(n)) {
        full &= label.used(p.index) >= p.size();
      }
      packed[count++] = ((long) pools.groupOf[n] << 33) | ((long) n << 1) | (full ? 1 : 0);
    }
    Arrays.sort(packed, 0, count);
    int[] groups = new int[count];
    int[] touched = new int[count];
    int[] full = new int[count];
    int g = -1;
    for (int k = 0; k < count; k++) {
      int group = (int) (packed[k] >>> 33);
      if (g < 0 || groups[g] != group) {
        groups[++g] = group;
      }
      touched[g]++;
      full[g] += (int) (packed[k] & 1);
    }
    int size = g + 1;
    return new Summary(Arrays.copyOf(groups, size), Arrays.copyOf(touched, size), Arrays.copyOf(full, size));
  }

  private static boolean containsNode(long[] packed, int count, int node) {
    for (int k = 0; k < count; k++) {
      if ((int) ((packed[k] >>> 1) & 0xffffffffL) == node) {
        return true;
      }
    }
    return false;
  }
}
