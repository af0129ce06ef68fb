package org.rampa.heuristics.split;

import org.rampa.split.PeriodSplitter;

/** Factories of {@link PeriodSplitter}s. */
public final class PeriodSplitters {
  private PeriodSplitters() {}

  /**
   * The exact dynamic programme over (devices used, layers covered): O(devices × layers²) time,
   * O(devices × layers) memory (plus layers² for per-tensor serial transfers).
   */
  public static PeriodSplitter exact() {
    return MinPeriodDynamicProgram.INSTANCE;
  }
}
