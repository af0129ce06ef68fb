package org.rampa.perf.share;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The time of one batch through a stage on its placement, before interference (docs/SHARING.md section
 * 2). A model answers only what it knows about: a measured table answers the models, GPU types and
 * shares it measured, the analytic model answers everything.
 */
public interface ShareTimeModel {

  /** Seconds for one batch of {@code stage}, or empty when this model has nothing to say about it. */
  OptionalDouble seconds(SharedStage stage);

  /**
   * docs/SHARING.md section 2's tiers on the tables shipped with RAMPA: ParvaGPU's and MuxServe's
   * measurements, the {@code A/s + C} law fitted to each of their series, then the calibrated
   * analytic model, which answers every stage.
   */
  static ShareTimeModel defaults() {
    return DefaultTiers.TIERS;
  }

  /**
   * Which tier's error an answer for {@code stage} carries, so a planning margin can follow it
   * ({@link TierMargins}). A model that does not say (a user's lambda) is taken as the least
   * accurate tier, the analytic one.
   */
  default ShareTier tier(SharedStage stage) {
    return ShareTier.ANALYTIC;
  }

  /** The margins this model's answers already include: none for a nominal model. */
  default TierMargins margins() {
    return TierMargins.none();
  }

  /** This model's answers without any margin. */
  default ShareTimeModel nominal() {
    return this;
  }

  /**
   * This model's nominal answers, each times {@code 1 + margins.of(tier)} for the tier that
   * answered: the one place a planning margin enters (planners and the verifier read the times
   * they judge from the same model).
   */
  default ShareTimeModel withMargins(TierMargins margins) {
    return margins.isNone() ? nominal() : new MarginedTimeModel(nominal(), margins);
  }

  /** The first tier that answers: measured tables before fitted laws before the analytic default. */
  static ShareTimeModel firstOf(List<ShareTimeModel> tiers) {
    List<ShareTimeModel> copy = List.copyOf(tiers);
    return new ShareTimeModel() {
      @Override
      public OptionalDouble seconds(SharedStage stage) {
        for (ShareTimeModel tier : copy) {
          OptionalDouble t = tier.seconds(stage);
          if (t.isPresent()) {
            return t;
          }
        }
        return OptionalDouble.empty();
      }

      @Override
      public ShareTier tier(SharedStage stage) {
        for (ShareTimeModel tier : copy) {
          if (tier.seconds(stage).isPresent()) {
            return tier.tier(stage);
          }
        }
        return ShareTier.ANALYTIC;
      }
    };
  }
}
