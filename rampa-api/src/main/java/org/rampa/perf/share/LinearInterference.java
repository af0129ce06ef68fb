package org.rampa.perf.share;

import java.util.List;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;

/**
 * α = 1 + γ · (contended co-runners). iGniter measured +4.9 % … +12.6 % per co-runner on V100
 * pairs, so γ = 0.05 is the default; about 0.10 suits memory-bound pairs.
 */
public record LinearInterference(double gamma) implements InterferenceModel {

  /** γ per contended co-runner (iGniter, V100): a default, not a measurement of any one pair. */
  public static final double DEFAULT_GAMMA = 0.05;

  public LinearInterference {
    Invalid.requireFiniteNonNegative("linearInterference.gamma", gamma);
  }

  @Override
  public double slowdown(GpuType type, CoRunner self, List<CoRunner> others) {
    return 1 + gamma * InterferenceModel.contending(self, others).size();
  }
}
