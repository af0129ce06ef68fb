package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import org.immutables.value.Value;

/**
 * Measured latencies of one layer on one GPU type, at increasing batch sizes.
 *
 * <p>Between measured batches the latency is interpolated linearly. Below the smallest measured
 * batch the smallest measurement is used (a smaller batch is never predicted slower than a larger
 * one, and never optimistically faster than anything measured); above the largest it is
 * extrapolated along the last segment, or proportionally to the batch when only one point exists.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableLatencyProfile.class)
@JsonDeserialize(as = ImmutableLatencyProfile.class)
public abstract class LatencyProfile {

  /** The GPU type these measurements were taken on. */
  public abstract String gpuType();

  public abstract List<LatencyPoint> points();

  /** Predicted latency in seconds at batch {@code b}. */
  public final double seconds(int b) {
    List<LatencyPoint> p = points();
    LatencyPoint first = p.get(0);
    if (b <= first.batch()) {
      return sec(first);
    }
    for (int i = 1; i < p.size(); i++) {
      LatencyPoint hi = p.get(i);
      if (b <= hi.batch()) {
        LatencyPoint lo = p.get(i - 1);
        double f = (double) (b - lo.batch()) / (hi.batch() - lo.batch());
        return sec(lo) + f * (sec(hi) - sec(lo));
      }
    }
    LatencyPoint last = p.get(p.size() - 1);
    if (p.size() == 1) {
      return sec(last) * b / last.batch();
    }
    LatencyPoint prev = p.get(p.size() - 2);
    double slope = (sec(last) - sec(prev)) / (last.batch() - prev.batch());
    return sec(last) + Math.max(0, slope) * (b - last.batch());
  }

  /** Measurements on {@code gpuType}, in strictly increasing batch order. */
  public static LatencyProfile of(String gpuType, LatencyPoint... points) {
    return ImmutableLatencyProfile.builder().gpuType(gpuType).addPoints(points).build();
  }

  private static double sec(LatencyPoint p) {
    return p.latency().toNanos() * 1e-9;
  }

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("latencyProfile.gpuType", gpuType());
    if (points().isEmpty()) {
      throw Invalid.value("latencyProfile[" + gpuType() + "].points", "[]", "needs at least one measurement");
    }
    for (int i = 1; i < points().size(); i++) {
      if (points().get(i).batch() <= points().get(i - 1).batch()) {
        throw Invalid.value(
            "latencyProfile[" + gpuType() + "].points[" + i + "].batch",
            points().get(i).batch(),
            "batches must be strictly increasing",
            "sort the measurements by batch size and drop duplicates");
      }
    }
  }
}
