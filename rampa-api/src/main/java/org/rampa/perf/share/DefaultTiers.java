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
    TIERS = new ShareTimeModel() {
      @Override
      public OptionalDouble seconds(SharedStage stage) {
        SharedStage asked = tablesStage(tables, stage);
        return asked != null ? tables.seconds(asked) : analytic.seconds(stage);
      }

      // the tier that answered: a planning margin follows the measured and fitted tiers' own errors, not the analytic one's
      @Override
      public ShareTier tier(SharedStage stage) {
        SharedStage asked = tablesStage(tables, stage);
        return asked != null ? tables.tier(asked) : ShareTier.ANALYTIC;
      }
    };
  }

  private DefaultTiers() {}

  /** The stage the tables answer for {@code stage}: itself, a whole MIG GPU's full instance, or null when they have nothing. */
  private static SharedStage tablesStage(ShareTimeModel tables, SharedStage stage) {
    if (tables.seconds(stage).isPresent()) {
      return stage;
    }
    if (stage.placement() instanceof Whole && stage.gpu().mig().isPresent()) {
      SharedStage full = new SharedStage(stage.model(), stage.from(), stage.to(), stage.batch(), stage.type(), stage.gpu(),
          fullInstance(stage.gpu().mig().get().profiles()));
      return tables.seconds(full).isPresent() ? full : null;
    }
    return null;
  }

  /** The instance that spans the card (7g.80gb on an A100-80GB): the most SMs, then the most memory, at its first start. */
  private static MigSlice fullInstance(List<MigProfile> profiles) {
    MigProfile full = profiles.stream()
        .max(java.util.Comparator.comparingInt(MigProfile::smCount).thenComparingInt(MigProfile::memorySlices)).orElseThrow();
    return new MigSlice(full.name(), full.allowedStarts().get(0));
  }
}
