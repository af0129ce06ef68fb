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

  /** The first tier that answers: measured tables before fitted laws before the analytic default. */
  static ShareTimeModel firstOf(List<ShareTimeModel> tiers) {
    List<ShareTimeModel> copy = List.copyOf(tiers);
    return stage -> {
      for (ShareTimeModel tier : copy) {
        OptionalDouble t = tier.seconds(stage);
        if (t.isPresent()) {
          return t;
        }
      }
      return OptionalDouble.empty();
    };
  }
}
