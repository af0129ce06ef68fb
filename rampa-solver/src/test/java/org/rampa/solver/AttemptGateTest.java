package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.support.TimeBudget;

/** A later phase of the cascade does not start a solve it has no time to finish; on a clock moved by hand. */
class AttemptGateTest {

  private final AtomicLong nanos = new AtomicLong();
  private final LongSupplier clock = nanos::get;

  private void advance(long millis) {
    nanos.addAndGet(Duration.ofMillis(millis).toNanos());
  }

  @Test
  void aPhaseStartsOnlyWithAsMuchTimeLeftAsThePreviousAttemptTook() {
    AttemptGate gate = new AttemptGate(TimeBudget.start(clock, Duration.ofMillis(100)));
    advance(20); // checks and the relaxed model
    assertThat(gate.allowsAnother()).isTrue();
    gate.time(() -> {
      advance(40);
      return null;
    });
    // 40 ms left, the relaxation took 40: the network-only model, of its size, may just fit
    assertThat(gate.allowsAnother()).isTrue();
    advance(5);
    // 35 ms left: it could not
    assertThat(gate.allowsAnother()).isFalse();
  }

  @Test
  void theFirstAttemptNeedsOnlyTimeLeft() {
    AttemptGate gate = new AttemptGate(TimeBudget.start(clock, Duration.ofMillis(100)));
    advance(99);
    assertThat(gate.allowsAnother()).isTrue();
    advance(2);
    assertThat(gate.allowsAnother()).isFalse();
  }
}
