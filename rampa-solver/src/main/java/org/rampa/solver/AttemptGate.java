package org.rampa.solver;

import java.time.Duration;
import java.util.function.Supplier;
import org.rampa.strategy.support.TimeBudget;

/**
 * Whether the cascade may start another solve: not when less time is left than its previous attempt
 * took. The network-only model is about the size of the relaxed one and the co-location model many
 * times larger, so the next could not be built, loaded and solved in that time, and starting it
 * would only carry the call past its limit (a solve's setup and freeing cost time the watchdog
 * cannot cut).
 */
final class AttemptGate {

  private final TimeBudget budget;
  private Duration lastAttempt = Duration.ZERO;

  AttemptGate(TimeBudget budget) {
    this.budget = budget;
  }

  /** True while at least as much time is left as the previous attempt took (any, before the first). */
  boolean allowsAnother() {
    return budget.remaining().compareTo(lastAttempt) >= 0;
  }

  /** How long the previous attempt took (zero before the first): what {@link #allowsAnother} compares the time left with. */
  Duration lastAttempt() {
    return lastAttempt;
  }

  /** Runs {@code attempt} and remembers how long it took on the budget's clock. */
  <T> T time(Supplier<T> attempt) {
    Duration start = budget.elapsed();
    T result = attempt.get();
    lastAttempt = budget.elapsed().minus(start);
    return result;
  }
}
