package org.rampa.strategy.support;

import java.util.function.IntBinaryOperator;

/**
 * The indices {@code 0..n-1} in the order of a stable sort by a comparator of indices, taken one at
 * a time from a binary heap ordered by the comparator and then by index (so indices the comparator
 * finds equal come in increasing order, as a stable sort leaves them: the two orders are the same
 * strict order). Building the heap is linear and each index taken costs O(log n), so a caller that
 * needs the first few of hundreds (a slot menu's top-k of a shape, a mover's first target GPU that
 * takes a replica) sorts no more than those.
 */
public final class LazyOrder {

  private final IntBinaryOperator comparator;
  private final int[] heap;
  private int size;

  /** The indices {@code 0..n-1} by {@code comparator} (negative, zero or positive, as {@link java.util.Comparator#compare}). */
  public LazyOrder(int n, IntBinaryOperator comparator) {
    this.comparator = comparator;
    this.heap = new int[n];
    this.size = n;
    for (int i = 0; i < n; i++) {
      heap[i] = i;
    }
    for (int k = n / 2 - 1; k >= 0; k--) {
      down(k);
    }
  }

  /** The next index in order, or -1 when none is left. */
  public int next() {
    if (size == 0) {
      return -1;
    }
    int top = heap[0];
    heap[0] = heap[--size];
    down(0);
    return top;
  }

  private boolean before(int a, int b) {
    int c = comparator.applyAsInt(a, b);
    return c != 0 ? c < 0 : a < b;
  }

  private void down(int k) {
    while (true) {
      int l = 2 * k + 1;
      if (l >= size) {
        return;
      }
      int m = l + 1 < size && before(heap[l + 1], heap[l]) ? l + 1 : l;
      if (!before(heap[m], heap[k])) {
        return;
      }
      int t = heap[m];
      heap[m] = heap[k];
      heap[k] = t;
      k = m;
    }
  }
}
