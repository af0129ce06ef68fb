package org.rampa.perf.share;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;

/**
 * Another model's slowdown with its excess over 1 scaled: {@code α = 1 + scale × factor(self) ×
 * (α_base − 1)}, where {@code factor} is per service (1 for services not listed). It describes a
 * "truth" that differs from the model a plan was made with (a robustness replay draws the factors,
 * and {@code scale = 2} is "twice the interference"), or a per-service correction of a calibrated
 * model. Isolated placements keep α = 1, since the base model gives them 1.
 *
 * @param base the model whose slowdown is scaled
 * @param factors per service id, the multiplier of α − 1 (finite, ≥ 0)
 * @param scale a multiplier of α − 1 common to every service (finite, ≥ 0)
 */
public record ScaledInterference(InterferenceModel base, Map<String, Double> factors, double scale) implements InterferenceModel {

  public ScaledInterference {
    Objects.requireNonNull(base, "scaledInterference.base");
    factors = Map.copyOf(factors);
    factors.forEach((service, f) -> Invalid.requireFiniteNonNegative("scaledInterference.factors[" + service + "]", f));
    Invalid.requireFiniteNonNegative("scaledInterference.scale", scale);
  }

  @Override
  public double slowdown(GpuType type, CoRunner self, List<CoRunner> others) {
    double excess = base.slowdown(type, self, others) - 1;
    return 1 + scale * factors.getOrDefault(self.service(), 1.0) * excess;
  }
}
