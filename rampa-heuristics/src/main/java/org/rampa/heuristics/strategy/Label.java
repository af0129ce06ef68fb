package org.rampa.heuristics.strategy;

import java.util.Arrays;

/**
 * One partial path of the label-setting search ("dp"): layers {@code [0, boundary)} covered by
 * {@code stages} stages, the GPUs taken from the pools it touched, the node of the last stage (or
 * {@link #SPREAD}), cost, latency so far, the last stage's busy time still pending under serial
 * transfers, and how it got here ({@code parent}, {@code from}, {@code take}: pool, count pairs).
 *
 * <p>The GPUs taken are kept sparse ({@code pools} ascending, {@code counts} beside): a path
 * touches a handful of pools, a 10 000-GPU cluster has thousands, and every label is created,
 * stored and compared by them.
 */
final class Label {

/** {@link #prevNode} of the root label: no stage yet. */
static final int START = -2;
/** {@link #prevNode} of a label whose last stage spreads over several nodes (or ends the model). */
static final int SPREAD = -1;

  private static final int[] NONE = new int[0];

  final int boundary;
  /** The pools GPUs were taken from, ascending. */
  final int[] pools;
  /** GPUs taken from {@code pools[k]}. */
  final int[] counts;
  final int prevNode;
  final int stages;
  final double cost;
  final double latency;
  final double pendingBusy;
  final double priority;
  final Label parent;
  final int from;
  final int[] take;
  boolean dead;
  /** The dominance store's per-group summary of the GPUs taken, computed when first compared. */
  DominanceStore.Summary summary;
  /** The shape of the last stage's units (an index of {@link SlotPools#shapes}); -1 at the root. */
  int shape = -1;

  private Label(int boundary, int[] pools, int[] counts, int prevNode, int stages, double cost, double latency, double pendingBusy,
      double priority, Label parent, int from, int[] take) {
    this.boundary = boundary;
    this.pools = pools;
    this.counts = counts;
    this.prevNode = prevNode;
    this.stages = stages;
    this.cost = cost;
    this.latency = latency;
    this.pendingBusy = pendingBusy;
    this.priority = priority;
    this.parent = parent;
    this.from = from;
    this.take = take;
  }

  /** The empty path. */
  static Label root(double priority) {
    return new Label(0, NONE, NONE, START, 0, 0, 0, 0, priority, null, 0, NONE);
  }

  /** This path followed by one stage: layers {@code [boundary, to)} on {@code take} (pool, count pairs). */
  Label extend(int to, int prevNode, double cost, double latency, double pendingBusy, double priority, int[] take) {
    int[] p = pools.clone();
    int[] c = counts.clone();
    int n = p.length;
    for (int k = 0; k < take.length; k += 2) {
      int at = Arrays.binarySearch(p, 0, n, take[k]);
      if (at >= 0) {
        c[at] += take[k + 1];
        continue;
      }
      int ins = -at - 1;
      if (n == p.length) {
        p = Arrays.copyOf(p, Math.max(4, 2 * n));
        c = Arrays.copyOf(c, p.length);
      }
      System.arraycopy(p, ins, p, ins + 1, n - ins);
      System.arraycopy(c, ins, c, ins + 1, n - ins);
      p[ins] = take[k];
      c[ins] = take[k + 1];
      n++;
    }
    if (n < p.length) {
      p = Arrays.copyOf(p, n);
      c = Arrays.copyOf(c, n);
    }
    return new Label(to, p, c, prevNode, stages + 1, cost, latency, pendingBusy, priority, this, boundary, take);
  }

  /** GPUs taken from {@code pool}. */
  int used(int pool) {
    int at = Arrays.binarySearch(pools, pool);
    return at >= 0 ? counts[at] : 0;
  }
}
