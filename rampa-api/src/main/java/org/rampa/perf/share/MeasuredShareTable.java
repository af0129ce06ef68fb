package org.rampa.perf.share;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Tier 1: measured times per model, GPU type, share, batch and process count. At a measured share
 * it answers the measurement; between two measured shares it passes the law {@code A/s + C}
 * through the two neighbouring points (never a straight line in {@code s}, never proportional);
 * outside the measured shares or batches it answers nothing, and the next tier decides. A series
 * measured at one share answers at exactly that share: there is nothing to interpolate between,
 * and no other share is extrapolated.
 */
public final class MeasuredShareTable implements ShareTimeModel {

  /** Shares closer than this are the same measured share (SM fractions are ratios of integers). */
  private static final double SAME_SHARE = 1e-9;

  private final SeriesIndex index;

  private MeasuredShareTable(List<ShareSeries> series) {
    this.index = new SeriesIndex(series);
  }

  public static MeasuredShareTable of(List<ShareSeries> series) {
    return new MeasuredShareTable(series);
  }

  /** ParvaGPU's MIG profiles and MuxServe's MPS table (A100-80GB), as shipped with RAMPA. */
  public static MeasuredShareTable published() {
    List<ShareSeries> all = new ArrayList<>(PublishedShareTables.parvaGpu());
    all.addAll(PublishedShareTables.muxServe());
    return of(all);
  }

  /** The A100-80GB MIG profile of one of ParvaGPU's measured instance sizes, given as its share (compute fraction). */
  public static String parvaGpuProfile(double share) {
    return PublishedShareTables.parvaGpuProfile(share);
  }

  public List<ShareSeries> series() {
    return index.series();
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    return index.lookup(stage, MeasuredShareTable::atShare);
  }

  @Override
  public ShareTier tier(SharedStage stage) {
    return ShareTier.MEASURED;
  }

  private static OptionalDouble atShare(ShareSeries series, double share) {
    List<Double> s = series.shares();
    List<Double> t = series.seconds();
    for (int i = 0; i < s.size(); i++) {
      if (Math.abs(s.get(i) - share) < SAME_SHARE) {
        return OptionalDouble.of(t.get(i));
      }
      if (i > 0 && s.get(i - 1) < share && share < s.get(i)) {
        return OptionalDouble.of(ShareLaw.fit(s.subList(i - 1, i + 1), t.subList(i - 1, i + 1)).seconds(share));
      }
    }
    return OptionalDouble.empty();
  }
}
