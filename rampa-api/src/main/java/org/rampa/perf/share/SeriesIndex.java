package org.rampa.perf.share;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * Finds the series that answer a stage (same model name, serving runtime, GPU type, placement kind
 * and process count) and interpolates linearly in batch between the two measured batches around the stage's,
 * as {@link org.rampa.domain.LatencyProfile} does for whole GPUs. Outside the measured batches it
 * answers nothing: the next tier does.
 */
final class SeriesIndex {

  /** The series of one model in one runtime on one placement kind and process count. */
  private record Key(ShareSeries.Kind kind, int processes, String name, ServingRuntime runtime) {}

  private final List<ShareSeries> series;
  /** Each key's series in ascending batch (stable, so ties keep the tables' order): a lookup is a map hit, not a scan. */
  private final Map<Key, List<ShareSeries>> byKey;

  SeriesIndex(List<ShareSeries> series) {
    this.series = List.copyOf(series);
    this.byKey = this.series.stream()
        .sorted(Comparator.comparingInt(ShareSeries::batch))
        .collect(Collectors.groupingBy(s -> new Key(s.kind(), s.processes(), s.name(), s.runtime()), Collectors.toUnmodifiableList()));
  }

  List<ShareSeries> series() {
    return series;
  }

  OptionalDouble lookup(SharedStage stage, BiFunction<ShareSeries, Double, OptionalDouble> atShare) {
    if (!stage.coversWholeModel()) {
      return OptionalDouble.empty();
    }
    Placement p = stage.placement();
    if (p instanceof MigSliceMps m) {
      return lookup(stage, ShareSeries.Kind.MIG, m.processes(), stage.computeFraction(), atShare);
    }
    if (p instanceof MigSlice) {
      return lookup(stage, ShareSeries.Kind.MIG, 1, stage.computeFraction(), atShare);
    }
    if (p instanceof MpsShare || p instanceof Whole) {
      return lookup(stage, ShareSeries.Kind.MPS, 1, stage.computeFraction(), atShare);
    }
    return OptionalDouble.empty();
  }

  private OptionalDouble lookup(SharedStage stage, ShareSeries.Kind kind, int processes, double share,
      BiFunction<ShareSeries, Double, OptionalDouble> atShare) {
    List<ShareSeries> matching = byKey.getOrDefault(new Key(kind, processes, stage.model().name(), stage.model().runtime()), List.of()).stream()
        .filter(s -> s.gpuTypes().contains(stage.type().name()))
        .toList();
    int b = stage.batch();
    for (int i = 0; i < matching.size(); i++) {
      ShareSeries hi = matching.get(i);
      if (hi.batch() == b) {
        return atShare.apply(hi, share);
      }
      if (hi.batch() > b) {
        if (i == 0) {
          return OptionalDouble.empty();
        }
        ShareSeries lo = matching.get(i - 1);
        OptionalDouble tLo = atShare.apply(lo, share);
        OptionalDouble tHi = atShare.apply(hi, share);
        if (tLo.isEmpty() || tHi.isEmpty()) {
          return OptionalDouble.empty();
        }
        double f = (double) (b - lo.batch()) / (hi.batch() - lo.batch());
        return OptionalDouble.of(tLo.getAsDouble() + f * (tHi.getAsDouble() - tLo.getAsDouble()));
      }
    }
    return OptionalDouble.empty();
  }
}
