package org.rampa.heuristics.learned;

import org.rampa.domain.Invalid;

/**
 * REINFORCE's settings: Adam's step size and the weight of the entropy bonus (which keeps the
 * policy exploring until the advantage signal is clear).
 */
public record ReinforceOptions(double learningRate, double entropyBonus) {
  public ReinforceOptions {
    if (!Double.isFinite(learningRate) || learningRate <= 0 || learningRate > 1) {
      throw Invalid.value("learningRate", learningRate, "must be in (0, 1]", "0.003");
    }
    if (!Double.isFinite(entropyBonus) || entropyBonus < 0 || entropyBonus > 1) {
      throw Invalid.value("entropyBonus", entropyBonus, "must be in [0, 1]", "0.01");
    }
  }

  public static ReinforceOptions defaults() {
    return new ReinforceOptions(0.003, 0.01);
  }
}
