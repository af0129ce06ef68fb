package org.rampa.heuristics.importance;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A supplier that computes its value on the first {@link #get} and returns that value ever after,
 * safely across threads; a computation that throws is retried on the next call. It keeps a value
 * that is costly and not always needed (a forecast's demand menu, a cluster's whole-GPU capacity)
 * off the paths that never ask for it, without a library for it.
 */
final class Memoized<T> implements Supplier<T> {

  private Supplier<? extends T> compute;
  private volatile T value;

  private Memoized(Supplier<? extends T> compute) {
    this.compute = compute;
  }

  static <T> Memoized<T> of(Supplier<? extends T> compute) {
    return new Memoized<>(Objects.requireNonNull(compute, "compute"));
  }

  @Override
  public T get() {
    T v = value;
    if (v == null) {
      synchronized (this) {
        v = value;
        if (v == null) {
          v = Objects.requireNonNull(compute.get(), "memoized value");
          value = v;
          compute = null; // release what the computation captured
        }
      }
    }
    return v;
  }
}
