package org.rampa.perf.share;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Tier 2: one law {@code t(s) = A/s + C} per series (stage or model, GPU type, batch, processes),
 * fitted by least squares over all its shares. Unlike the measured tier it answers any share in
 * (0, 1] of a series it knows, extrapolating along the law (a 1g slice from 2g…7g measurements, a
 * 20 % MPS share from 30…100 %); between batches it interpolates linearly. A law fitted to noisy,
 * nearly flat points can slope the wrong way ({@code A < 0}); its answers are never below the fastest time
 * measured in the series, so extrapolating it cannot predict a stage faster than ever observed.
 * A series measured at one share only has no law (one point fixes neither A nor C): this tier
 * leaves it out, so it never extrapolates one; the measured tier answers it at its one share.
 */
public final class FittedShareTimeModel implements ShareTimeModel {

  private final SeriesIndex index;
  private final Map<ShareSeries, ShareLaw> laws = new IdentityHashMap<>();

  private FittedShareTimeModel(List<ShareSeries> series) {
    this.index = new SeriesIndex(series.stream().filter(ShareSeries::fittable).toList());
    for (ShareSeries s : index.series()) {
      laws.put(s, s.fit());
    }
  }

  public static FittedShareTimeModel fit(List<ShareSeries> series) {
    return new FittedShareTimeModel(series);
  }

  /** The law fitted to {@code series}, which must be one of this model's. */
  public ShareLaw law(ShareSeries series) {
    ShareLaw law = laws.get(series);
    if (law == null) {
      throw new IllegalArgumentException("series " + series.name() + " at batch " + series.batch() + " is not one this model was fitted on");
    }
    return law;
  }

  @Override
  public ShareTier tier(SharedStage stage) {
    return ShareTier.FITTED;
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    return index.lookup(stage, (series, share) -> OptionalDouble.of(
        Math.max(laws.get(series).seconds(share), series.seconds().stream().mapToDouble(Double::doubleValue).min().orElseThrow())));
  }
}
