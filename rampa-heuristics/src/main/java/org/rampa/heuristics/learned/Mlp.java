package org.rampa.heuristics.learned;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.rampa.domain.Invalid;

/**
 * A small fully connected network on plain arrays: tanh hidden layers and one linear output (a
 * score). All parameters live in one flat array (per layer: the weights row by row, then the
 * biases), so Adam, the gradient check and the JSON document each see a single vector.
 */
public final class Mlp {
  /** Wider layers buy nothing for a per-candidate score and make the shipped document large. */
  static final int MAX_WIDTH = 256;

  private final int[] sizes;
  final double[] parameters;

  private Mlp(int[] sizes, double[] parameters) {
    this.sizes = sizes;
    this.parameters = parameters;
  }

  /** Glorot-uniform weights and zero biases, from the seed's stream only. */
  public static Mlp initialised(int inputs, int[] hidden, SplittableRandom random) {
    int[] sizes = sizes(inputs, hidden);
    double[] parameters = new double[parameterCount(sizes)];
    int offset = 0;
    for (int l = 0; l + 1 < sizes.length; l++) {
      int in = sizes[l];
      int out = sizes[l + 1];
      double limit = Math.sqrt(6.0 / (in + out));
      for (int k = 0; k < in * out; k++) {
        parameters[offset + k] = random.nextDouble(-limit, limit);
      }
      offset += in * out + out;
    }
    return new Mlp(sizes, parameters);
  }

  /** A network with the given parameters (read from a document): the count must match the shape. */
  public static Mlp of(int inputs, int[] hidden, double[] parameters) {
    int[] sizes = sizes(inputs, hidden);
    if (parameters.length != parameterCount(sizes)) {
      throw Invalid.value("parameters.length", parameters.length,
          "must be " + parameterCount(sizes) + " for " + inputs + " inputs and hidden layers " + Arrays.toString(hidden));
    }
    for (int i = 0; i < parameters.length; i++) {
      if (!Double.isFinite(parameters[i])) {
        throw Invalid.value("parameters[" + i + "]", parameters[i], "must be finite");
      }
    }
    return new Mlp(sizes, parameters.clone());
  }

  private static int[] sizes(int inputs, int[] hidden) {
    requireWidth("inputs", inputs);
    int[] sizes = new int[hidden.length + 2];
    sizes[0] = inputs;
    for (int i = 0; i < hidden.length; i++) {
      requireWidth("hidden[" + i + "]", hidden[i]);
      sizes[i + 1] = hidden[i];
    }
    sizes[sizes.length - 1] = 1;
    return sizes;
  }

  private static void requireWidth(String field, int width) {
    if (width < 1 || width > MAX_WIDTH) {
      throw Invalid.value(field, width, "must be in [1, " + MAX_WIDTH + "]");
    }
  }

  private static int parameterCount(int[] sizes) {
    int count = 0;
    for (int l = 0; l + 1 < sizes.length; l++) {
      count += sizes[l] * sizes[l + 1] + sizes[l + 1];
    }
    return count;
  }

  public int inputs() {
    return sizes[0];
  }

  public int[] hidden() {
    return Arrays.copyOfRange(sizes, 1, sizes.length - 1);
  }

  public int parameterCount() {
    return parameters.length;
  }

  public double[] parameters() {
    return parameters.clone();
  }

  Mlp copy() {
    return new Mlp(sizes, parameters.clone());
  }

  /** The score of one input vector. */
  public double score(double[] input) {
    return forward(input)[sizes.length - 1][0];
  }

  /** Every layer's output, the input first: what {@link #backward} needs. */
  double[][] forward(double[] input) {
    if (input.length != sizes[0]) {
      throw Invalid.value("features.length", input.length, "must be " + sizes[0] + ", the network's input width");
    }
    double[][] activations = new double[sizes.length][];
    activations[0] = input;
    int offset = 0;
    for (int l = 0; l + 1 < sizes.length; l++) {
      int in = sizes[l];
      int out = sizes[l + 1];
      double[] x = activations[l];
      double[] y = new double[out];
      int biases = offset + in * out;
      boolean last = l + 2 == sizes.length;
      for (int o = 0; o < out; o++) {
        double sum = parameters[biases + o];
        int row = offset + o * in;
        for (int i = 0; i < in; i++) {
          sum += parameters[row + i] * x[i];
        }
        y[o] = last ? sum : Math.tanh(sum);
      }
      activations[l + 1] = y;
      offset = biases + out;
    }
    return activations;
  }

  /** Adds d(loss)/d(parameters) to {@code gradient}, given d(loss)/d(score) for one forward pass. */
  void backward(double[][] activations, double scoreGradient, double[] gradient) {
    double[] delta = {scoreGradient};
    int end = parameters.length;
    for (int l = sizes.length - 2; l >= 0; l--) {
      int in = sizes[l];
      int out = sizes[l + 1];
      int offset = end - in * out - out;
      int biases = offset + in * out;
      double[] x = activations[l];
      double[] previous = new double[in];
      for (int o = 0; o < out; o++) {
        double d = delta[o];
        if (d == 0) {
          continue;
        }
        gradient[biases + o] += d;
        int row = offset + o * in;
        for (int i = 0; i < in; i++) {
          gradient[row + i] += d * x[i];
          previous[i] += d * parameters[row + i];
        }
      }
      if (l > 0) {
        // through tanh: d/dz tanh(z) = 1 - tanh(z)^2, and x holds tanh(z)
        for (int i = 0; i < in; i++) {
          previous[i] *= 1 - x[i] * x[i];
        }
      }
      delta = previous;
      end = offset;
    }
  }
}
