package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.testing.Property;

/** The lazy order against its definition, a stable sort of the indices, on seeded arrays with many ties (and none, one, two elements). */
class LazyOrderTest {

  @Test
  void takesTheIndicesInTheOrderOfAStableSort() {
    Property.forSeeds("LazyOrder = stable sort of indices", 200, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      int n = seed < 3 ? (int) seed : r.nextInt(300);
      double[] key = new double[n];
      for (int i = 0; i < n; i++) {
        key[i] = r.nextInt(1 + r.nextInt(20)) / 4.0; // few distinct keys: many ties
      }
      List<Integer> sorted = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        sorted.add(i);
      }
      sorted.sort(Comparator.comparingDouble(i -> key[i]));
      LazyOrder order = new LazyOrder(n, (a, b) -> Double.compare(key[a], key[b]));
      List<Integer> taken = new ArrayList<>();
      for (int i = order.next(); i >= 0; i = order.next()) {
        taken.add(i);
      }
      assertThat(taken).isEqualTo(sorted);
      assertThat(order.next()).isEqualTo(-1);
    });
  }
}
