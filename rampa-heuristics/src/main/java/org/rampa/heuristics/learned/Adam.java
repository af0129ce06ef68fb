package org.rampa.heuristics.learned;

/** Adam (Kingma & Ba) with the usual β₁ = 0.9, β₂ = 0.999, ε = 1e-8 and bias correction. */
final class Adam {
  private static final double BETA1 = 0.9;
  private static final double BETA2 = 0.999;
  private static final double EPSILON = 1e-8;

  private final double learningRate;
  private final double[] m;
  private final double[] v;
  private int steps;

  Adam(int size, double learningRate) {
    this.learningRate = learningRate;
    this.m = new double[size];
    this.v = new double[size];
  }

  /** One descent step on {@code parameters} along {@code gradient} (of a loss to minimise). */
  void step(double[] parameters, double[] gradient) {
    steps++;
    double c1 = 1 - Math.pow(BETA1, steps);
    double c2 = 1 - Math.pow(BETA2, steps);
    for (int i = 0; i < parameters.length; i++) {
      m[i] = BETA1 * m[i] + (1 - BETA1) * gradient[i];
      v[i] = BETA2 * v[i] + (1 - BETA2) * gradient[i] * gradient[i];
      parameters[i] -= learningRate * (m[i] / c1) / (Math.sqrt(v[i] / c2) + EPSILON);
    }
  }
}
