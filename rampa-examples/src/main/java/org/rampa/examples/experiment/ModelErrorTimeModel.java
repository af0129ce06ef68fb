package org.rampa.examples.experiment;

import java.util.Map;
import java.util.OptionalDouble;
import org.rampa.examples.experiment.PerturbedShareTimeModel.Series;
import org.rampa.perf.share.ShareTier;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;
import org.rampa.perf.share.TierMargins;
import org.rampa.catalog.TierErrors;

/**
 * A "truth" drawn from a nominal model's own error distribution: each series (a model on one
 * placement kind) has one level u in [0, 1), and every stage of it takes its nominal time times the
 * u-quantile of the measured {@code truth / predicted} ratios of the tier that answers the stage,
 * for the stage's serving runtime ({@link TierErrors#ratios}). One level per series, not per stage:
 * a series' error is a calibration error, the same on every GPU that runs it. A series without a
 * level, and a time no error sample speaks for ({@link TierMargins#covers}: the analytic tier's
 * whole-GPU reference time), keeps its nominal time.
 */
public final class ModelErrorTimeModel implements ShareTimeModel {

  private final ShareTimeModel nominal;
  private final Map<Series, Double> levels;

  public ModelErrorTimeModel(ShareTimeModel nominal, Map<Series, Double> levels) {
    this.nominal = nominal;
    this.levels = Map.copyOf(levels);
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    OptionalDouble t = nominal.seconds(stage);
    Double u = levels.get(Series.of(stage));
    ShareTier tier = nominal.tier(stage);
    if (t.isEmpty() || u == null || !TierMargins.covers(tier, stage)) {
      return t;
    }
    return OptionalDouble.of(t.getAsDouble() * TierErrors.quantile(TierErrors.ratios(tier, stage.model().runtime()), u));
  }

  @Override
  public ShareTier tier(SharedStage stage) {
    return nominal.tier(stage);
  }
}
