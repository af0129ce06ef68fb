package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class IntervalTest {

  @Test
  void studentIntervalOfThreeValues() {
    Interval i = Interval.of(new double[] {1, 2, 3});
    assertThat(i.mean()).isEqualTo(2.0);
    // sd 1, t(0.975, 2) = 4.303
    assertThat(i.halfWidth()).isEqualTo(4.303 / Math.sqrt(3), Offset.offset(1e-9));
    assertThat(i.n()).isEqualTo(3);
  }

  @Test
  void oneValueIsItsOwnIntervalAndNoValueIsAnError() {
    assertThat(Interval.of(new double[] {7})).isEqualTo(new Interval(7, 7, 7, 1));
    assertThatThrownBy(() -> Interval.of(new double[0])).hasMessageContaining("values");
  }

  @Test
  void quantilesBeyondTheTableMatchPublishedValues() {
    // published t(0.975) quantiles: 40 -> 2.021, 60 -> 2.000, 120 -> 1.980
    assertThat(Interval.t975(40)).isEqualTo(2.021, Offset.offset(1e-3));
    assertThat(Interval.t975(60)).isEqualTo(2.000, Offset.offset(1e-3));
    assertThat(Interval.t975(120)).isEqualTo(1.980, Offset.offset(1e-3));
    assertThat(Interval.t975(30)).isEqualTo(2.042);
  }
}
