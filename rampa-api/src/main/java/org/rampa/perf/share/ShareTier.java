package org.rampa.perf.share;

/**
 * Which of docs/SHARING.md section 2's tiers answered a stage's time: each has its own error,
 * measured from the published tables ({@link org.rampa.catalog.TierErrors}), so each gets its own planning margin
 * ({@link TierMargins}).
 */
public enum ShareTier {
  /** A measured table: the measurement itself, or the two-point law between two measured shares. */
  MEASURED,
  /** The law {@code A/s + C} fitted to a measured series, away from its measured shares. */
  FITTED,
  /** The calibrated roofline with a per-layer floor: answers every stage, the least accurate tier. */
  ANALYTIC;

  /** The name JSON and the command line use. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
