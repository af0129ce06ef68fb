package org.rampa.perf.share;

import org.rampa.domain.Invalid;
import org.rampa.domain.share.Placement;

/**
 * One stage sharing a GPU, as interference models see it: which service it belongs to, its
 * placement, its compute fraction {@code share}, its L2 and DRAM utilisations in [0, 1] (of the
 * part of the GPU it holds) and the DRAM bandwidth it demands.
 */
public record CoRunner(String service, Placement placement, double share, double l2Utilisation, double dramUtilisation, double dramBytesPerSecond) {

  public CoRunner {
    Invalid.requireNonBlank("coRunner.service", service);
    java.util.Objects.requireNonNull(placement, "placement");
    String p = "coRunner[" + service + "].";
    if (!(share > 0 && share <= 1)) {
      throw Invalid.value(p + "share", share, "must lie in (0, 1]");
    }
    requireUtilisation(p + "l2Utilisation", l2Utilisation);
    requireUtilisation(p + "dramUtilisation", dramUtilisation);
    Invalid.requireFiniteNonNegative(p + "dramBytesPerSecond", dramBytesPerSecond);
  }

  /**
   * A co-runner whose utilisations default to the roofline's memory-bound fraction of its stage
   * (docs/SHARING.md section 3) and whose DRAM demand is the stage's bytes per batch over its time.
   */
  public static CoRunner of(String service, SharedStage stage, double stageSeconds) {
    Invalid.requireFinitePositive("coRunner[" + service + "].stageSeconds", stageSeconds);
    double u = AnalyticShareTimeModel.memoryBoundFraction(stage.model(), stage.from(), stage.to(), stage.type(), stage.batch());
    double bytes = AnalyticShareTimeModel.dramBytesPerBatch(stage.model(), stage.from(), stage.to(), stage.batch());
    return new CoRunner(service, stage.placement(), stage.computeFraction(), u, u, bytes / stageSeconds);
  }

  private static void requireUtilisation(String field, double u) {
    if (!(u >= 0 && u <= 1)) {
      throw Invalid.value(field, u, "must lie in [0, 1]", "pass a fraction, not a percentage");
    }
  }
}
