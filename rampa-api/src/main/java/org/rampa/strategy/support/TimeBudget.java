package org.rampa.strategy.support;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.Strategies;

/**
 * The time one placement call may take, started when the call begins and read from the problem's
 * {@link PlacementProblem#ticker()}, so that the limit covers the whole call (checks, model
 * building, warm start, solving) and tests can drive it with a fake ticker. Strategies read the
 * time here, never {@code System.nanoTime()}.
 *
 * @since 0.1.0
 */
public final class TimeBudget {

  private final LongSupplier ticker;
  private final long startNanos;
  private final long limitNanos;

  private TimeBudget(LongSupplier ticker, Duration limit) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.limitNanos = limit.toNanos();
    this.startNanos = ticker.getAsLong();
  }

  /** A budget of {@code problem}'s time limit, starting now on its ticker. */
  public static TimeBudget start(PlacementProblem problem) {
    return new TimeBudget(problem.ticker(), problem.options().timeLimit());
  }

  /** A budget of {@code limit}, starting now on {@code ticker}, a nanosecond clock like {@link System#nanoTime()}. */
  public static TimeBudget start(LongSupplier ticker, Duration limit) {
    return new TimeBudget(ticker, Objects.requireNonNull(limit, "limit"));
  }

  /** Time since the budget started. */
  public Duration elapsed() {
    return Duration.ofNanos(ticker.getAsLong() - startNanos);
  }

  /** Time left; zero or negative once the limit is reached. */
  public Duration remaining() {
    return Duration.ofNanos(limitNanos - (ticker.getAsLong() - startNanos));
  }

  /** True once the limit is reached. */
  public boolean expired() {
    return ticker.getAsLong() - startNanos >= limitNanos;
  }

  /** The whole limit. */
  public Duration limit() {
    return Duration.ofNanos(limitNanos);
  }
}
