package org.rampa.heuristics.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.testing.Property;

class MlpTest {

  @Test
  void backwardMatchesCentralFiniteDifferencesOfTheScore() {
    Property.forSeeds("d score / d weights = finite differences", 5, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      Mlp mlp = Mlp.initialised(5, new int[] {7, 4}, random);
      double[] x = random.doubles(5, -2, 2).toArray();
      double[] gradient = new double[mlp.parameterCount()];
      mlp.backward(mlp.forward(x), 1.0, gradient);
      double h = 1e-6;
      for (int i = 0; i < mlp.parameterCount(); i++) {
        double saved = mlp.parameters[i];
        mlp.parameters[i] = saved + h;
        double up = mlp.score(x);
        mlp.parameters[i] = saved - h;
        double down = mlp.score(x);
        mlp.parameters[i] = saved;
        assertThat(gradient[i]).as("parameter %d", i).isCloseTo((up - down) / (2 * h), org.assertj.core.data.Offset.offset(1e-7));
      }
    });
  }

  @Test
  void theShapeFixesTheParameterCount() {
    Mlp mlp = Mlp.initialised(3, new int[] {4}, new SplittableRandom(1));
    assertThat(mlp.parameterCount()).isEqualTo(3 * 4 + 4 + 4 + 1);
    assertThat(Mlp.of(3, new int[] {4}, mlp.parameters()).score(new double[] {1, 2, 3})).isEqualTo(mlp.score(new double[] {1, 2, 3}));
    assertThatThrownBy(() -> Mlp.of(3, new int[] {4}, new double[20]))
        .hasMessage("parameters.length = 20: must be 21 for 3 inputs and hidden layers [4]");
    assertThatThrownBy(() -> Mlp.of(3, new int[] {0}, new double[0])).hasMessage("hidden[0] = 0: must be in [1, 256]");
    double[] bad = mlp.parameters();
    bad[5] = Double.NaN;
    assertThatThrownBy(() -> Mlp.of(3, new int[] {4}, bad)).hasMessage("parameters[5] = NaN: must be finite");
    assertThatThrownBy(() -> mlp.score(new double[2])).hasMessage("features.length = 2: must be 3, the network's input width");
  }
}
