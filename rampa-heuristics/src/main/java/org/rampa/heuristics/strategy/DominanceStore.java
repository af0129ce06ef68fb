package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The labels of the label-setting search kept per (boundary, node of the last stage): a new label
 * is refused when a live label of its bucket dominates it, and it kills the labels it dominates
 * (marked dead, so the queue skips them). Labels with different last-stage nodes are never
 * compared: the next transfer's link depends on that node.
 */
final class DominanceStore {

  private final Map<Long, List<Label>> buckets = new HashMap<>();
  private long dominated;

  /** True when {@code next} is kept; false when a label already kept is at least as good. */
  boolean admit(Label next) {
    long key = ((long) next.boundary << 32) | (next.prevNode & 0xffffffffL);
    List<Label> bucket = buckets.computeIfAbsent(key, k -> new ArrayList<>());
    for (Label other : bucket) {
      if (!other.dead && other.dominates(next)) {
        dominated++;
        return false;
      }
    }
    bucket.removeIf(other -> {
      if (next.dominates(other)) {
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
}
