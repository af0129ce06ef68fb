package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;


class TimeBudgetTest {

  @Test
  void readsElapsedAndRemainingTimeFromItsTicker() {
    AtomicLong now = new AtomicLong(5_000);
    LongSupplier ticker = now::get;
    TimeBudget budget = TimeBudget.start(ticker, Duration.ofMillis(10));
    assertThat(budget.elapsed()).isZero();
    assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(10));
    assertThat(budget.expired()).isFalse();
    now.addAndGet(9_999_999);
    assertThat(budget.expired()).isFalse();
    assertThat(budget.remaining()).isEqualTo(Duration.ofNanos(1));
    now.incrementAndGet();
    assertThat(budget.expired()).isTrue();
    now.addAndGet(3_000_000);
    assertThat(budget.elapsed()).isEqualTo(Duration.ofMillis(13));
    assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(-3));
    assertThat(budget.limit()).isEqualTo(Duration.ofMillis(10));
  }
}
