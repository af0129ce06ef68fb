package org.rampa.testing;

import java.util.function.LongConsumer;

/**
 * Runs a property over many seeds. A failure reports its seed; rerun one seed with
 * {@code -Drampa.seed=N} to reproduce it.
 */
public final class Property {
  private Property() {}

  public static void forSeeds(String property, int trials, LongConsumer check) {
    String fixed = System.getProperty("rampa.seed");
    if (fixed != null) {
      run(property, Long.parseLong(fixed), check);
      return;
    }
    long base = Long.getLong("rampa.baseSeed", 20261130L);
    for (int i = 0; i < trials; i++) {
      run(property, base + i, check);
    }
  }

  private static void run(String property, long seed, LongConsumer check) {
    try {
      check.accept(seed);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(property + " failed for seed " + seed + " (rerun with -Drampa.seed=" + seed + "): " + e.getMessage(), e);
    }
  }
}
