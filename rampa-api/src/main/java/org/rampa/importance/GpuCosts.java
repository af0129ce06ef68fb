package org.rampa.importance;

import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;

/**
 * The importance of every GPU at one moment: the cost of holding the whole GPU. Holding a share
 * {@code s} of it costs {@code s} times as much. Costs are finite and never negative.
 */
@FunctionalInterface
public interface GpuCosts {

  /** Cost of holding all of GPU {@code gpuId}. */
  double of(String gpuId);

  /** Cost of one holding: its share of its GPU's cost. */
  default double of(Holding holding) {
    return of(holding.gpu()) * holding.share();
  }

  /** cost(plan) = Σ over allocated units of importance × share (SPEC section 4). */
  default double of(Plan plan) {
    double cost = 0;
    for (Stage s : plan.stages()) {
      for (String gpu : s.gpus()) {
        cost += of(gpu) * s.share();
      }
    }
    return cost;
  }
}
