package org.rampa.perf.share;

import java.util.OptionalDouble;

/**
 * A nominal time model whose every answer is inflated by the margin of the tier that gave it, for
 * the stage's runtime and placement ({@link ShareTimeModel#withMargins}, {@link TierMargins#of(ShareTier, SharedStage)}).
 */
final class MarginedTimeModel implements ShareTimeModel {

  private final ShareTimeModel nominal;
  private final TierMargins margins;

  MarginedTimeModel(ShareTimeModel nominal, TierMargins margins) {
    this.nominal = nominal;
    this.margins = margins;
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    OptionalDouble t = nominal.seconds(stage);
    return t.isPresent() ? OptionalDouble.of(t.getAsDouble() * (1 + margins.of(nominal.tier(stage), stage))) : t;
  }

  @Override
  public ShareTier tier(SharedStage stage) {
    return nominal.tier(stage);
  }

  @Override
  public TierMargins margins() {
    return margins;
  }

  @Override
  public ShareTimeModel nominal() {
    return nominal;
  }
}
