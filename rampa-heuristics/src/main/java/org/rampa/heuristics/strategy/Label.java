package org.rampa.heuristics.strategy;

/**
 * One partial path of the label-setting search ("dp"): layers {@code [0, boundary)} covered by
 * {@code stages} stages, the GPUs taken from every pool, the node of the last stage (or
 * {@link #SPREAD}), cost, latency so far, the last stage's busy time still pending under serial
 * transfers, and how it got here ({@code parent}, {@code from}, {@code take}: pool, count pairs).
 */
final class Label {

/** {@link #prevNode} of the root label: no stage yet. */
static final int START = -2;
/** {@link #prevNode} of a label whose last stage spreads over several nodes (or ends the model). */
static final int SPREAD = -1;

  final int boundary;
  final int[] used;
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
  /** The shape of the last stage's units (an index of {@link SlotPools#shapes}); -1 at the root. */
  int shape = -1;

  Label(int boundary, int[] used, int prevNode, int stages, double cost, double latency, double pendingBusy,
      double priority, Label parent, int from, int[] take) {
    this.boundary = boundary;
    this.used = used;
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

  boolean dominates(Label o) {
    if (cost > o.cost || latency > o.latency || stages > o.stages || pendingBusy > o.pendingBusy) {
      return false;
    }
    for (int p = 0; p < used.length; p++) {
      if (used[p] > o.used[p]) {
        return false;
      }
    }
    return true;
  }
}
