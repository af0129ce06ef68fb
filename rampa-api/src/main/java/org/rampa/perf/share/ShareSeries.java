package org.rampa.perf.share;

import java.util.List;
import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServingRuntime;

/**
 * Measured times of one model (or stage) at one batch size and process count on a range of shares
 * of one GPU type: the unit the measured and fitted tiers work on. {@code name} is the
 * {@link org.rampa.domain.Model#name()} it answers for ("resnet50", "llama-7b-prefill-512"),
 * {@code gpuTypes} the catalog types it was measured on, {@code kind} which placements it answers,
 * {@code runtime} the serving runtime that ran it: a series answers only for models of that runtime.
 * A series measured at one share only (ParvaGPU ran some large configurations on the 7g instance
 * alone) is kept: the measured tier answers it at exactly that share and nowhere else, and no law is
 * fitted to it.
 *
 * @param shares compute fractions, strictly increasing, in (0, 1]; at least one
 * @param seconds the time of one batch at each share
 */
public record ShareSeries(String name, List<String> gpuTypes, Kind kind, int processes, int batch, List<Double> shares, List<Double> seconds,
    ServingRuntime runtime) {

  /** Which placements a series measures: MIG instances (with MPS processes) or MPS shares. */
  public enum Kind {
    MIG,
    MPS
  }

  public ShareSeries {
    Invalid.requireNonBlank("shareSeries.name", name);
    Objects.requireNonNull(runtime, "shareSeries.runtime");
    gpuTypes = List.copyOf(gpuTypes);
    shares = List.copyOf(shares);
    seconds = List.copyOf(seconds);
    String p = "shareSeries[" + name + ", batch " + batch + "].";
    if (processes < 1 || batch < 1) {
      throw Invalid.value(p + "processes/batch", processes + "/" + batch, "must both be >= 1");
    }
    if (shares.size() != seconds.size() || shares.isEmpty()) {
      throw Invalid.value(p + "shares", shares.size() + " shares, " + seconds.size() + " times", "needs at least one share with one time each");
    }
    for (int i = 0; i < shares.size(); i++) {
      double s = shares.get(i);
      if (!(s > 0 && s <= 1) || (i > 0 && s <= shares.get(i - 1))) {
        throw Invalid.value(p + "shares[" + i + "]", s, "shares must lie in (0, 1] and strictly increase");
      }
      Invalid.requireFinitePositive(p + "seconds[" + i + "]", seconds.get(i));
    }
  }

  /** True when the series has at least two shares, so a law {@code A/s + C} can be fitted to it. */
  public boolean fittable() {
    return shares.size() >= 2;
  }

  public ShareLaw fit() {
    if (!fittable()) {
      throw Invalid.value("shareSeries[" + name + ", batch " + batch + "].shares", shares, "a law A/s + C needs at least two shares",
          "answer a one-share series with MeasuredShareTable, at its one share");
    }
    return ShareLaw.fit(shares, seconds);
  }
}
