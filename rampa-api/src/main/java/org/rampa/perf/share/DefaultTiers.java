package org.rampa.perf.share;

import java.util.List;
import java.util.OptionalDouble;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.Whole;

/**
 * The tiers {@link ShareTimeModel#defaults()} answers with, built on first use: the published
 * tables are parsed and fitted once, and not at all by code that never asks about a share.
 *
 * <p>A whole GPU the tables do not time but whose full MIG instance they do (ParvaGPU measured
 * PyTorch eager on MIG instances only) is timed as that instance, in that runtime's measurements,
 * before the analytic tier is asked: the whole GPU of a runtime is its own measurement, not
 * another calibration's (docs/SHARING-MODEL.md, "Serving runtimes").
 */
final class DefaultTiers {

  static final ShareTimeModel TIERS;

  static {
    MeasuredShareTable measured = MeasuredShareTable.published();
    ShareTimeModel tables = ShareTimeModel.firstOf(List.of(measured, FittedShareTimeModel.fit(measured.series())));
    AnalyticShareTimeModel analytic = AnalyticShareTimeModel.calibrated();
    TIERS = stage -> {
      OptionalDouble t = tables.seconds(stage);
      if (t.isEmpty() && stage.placement() instanceof Whole && stage.gpu().mig().isPresent()) {
        t = tables.seconds(new SharedStage(stage.model(), stage.from(), stage.to(), stage.batch(), stage.type(), stage.gpu(),
            fullInstance(stage.gpu().mig().get().profiles())));
      }
      return t.isPresent() ? t : analytic.seconds(stage);
    };
  }

  private DefaultTiers() {}

  /** The instance that spans the card (7g.80gb on an A100-80GB): the most SMs, then the most memory, at its first start. */
  private static MigSlice fullInstance(List<MigProfile> profiles) {
    MigProfile full = profiles.stream()
        .max(java.util.Comparator.comparingInt(MigProfile::smCount).thenComparingInt(MigProfile::memorySlices)).orElseThrow();
    return new MigSlice(full.name(), full.allowedStarts().get(0));
  }
}
