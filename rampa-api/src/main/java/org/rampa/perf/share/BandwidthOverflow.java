package org.rampa.perf.share;

import java.util.List;
import org.rampa.domain.GpuType;

/**
 * When the stage and its contended co-runners together demand more DRAM bandwidth than the card
 * delivers, everyone slows by at least that ratio: α = max(1, Σ demand / effective bandwidth).
 */
public record BandwidthOverflow() implements InterferenceModel {

  @Override
  public double slowdown(GpuType type, CoRunner self, List<CoRunner> others) {
    if (self.placement().isolated()) {
      return 1;
    }
    double demand = self.dramBytesPerSecond();
    for (CoRunner o : InterferenceModel.contending(self, others)) {
      demand += o.dramBytesPerSecond();
    }
    return Math.max(1, demand / type.effectiveBandwidthBytesPerSecond());
  }
}
