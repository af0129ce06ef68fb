package org.rampa.perf.share;

import java.util.List;

/**
 * The tiers {@link ShareTimeModel#defaults()} answers with, built on first use: the published
 * tables are parsed and fitted once, and not at all by code that never asks about a share.
 */
final class DefaultTiers {

  static final ShareTimeModel TIERS;

  static {
    MeasuredShareTable measured = MeasuredShareTable.published();
    TIERS = ShareTimeModel.firstOf(List.of(measured, FittedShareTimeModel.fit(measured.series()), AnalyticShareTimeModel.calibrated()));
  }

  private DefaultTiers() {}
}
