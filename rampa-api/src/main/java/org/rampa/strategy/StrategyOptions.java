package org.rampa.strategy;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.Map;
import org.immutables.value.Value;
import org.rampa.domain.Invalid;
import org.rampa.perf.TransferMode;

/**
 * Settings every strategy understands, plus strategy-specific ones in {@link #extra()}. The time
 * limit lies in (0, {@link #MAX_TIME_LIMIT}]: solver backends count it in nanoseconds, and one
 * placement decision that may run for more than a day is a typo.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableStrategyOptions.class)
@JsonDeserialize(as = ImmutableStrategyOptions.class)
public abstract class StrategyOptions {

  /** The longest time limit accepted. */
  public static final Duration MAX_TIME_LIMIT = Duration.ofDays(1);


  /** How long one placement call may take, model building included (default 10 s). */
  @Value.Default
  public Duration timeLimit() {
    return Duration.ofSeconds(10);
  }

  /** Stop once the cost is proven within this fraction of the optimum. */
  @Value.Default
  public double relativeGap() {
    return 1e-6;
  }

  /** Seeds every random choice, so the same inputs give the same plan. */
  @Value.Default
  public long seed() {
    return 0;
  }

  /** How inter-stage transfers enter the period (default overlapped, as docs/SPEC.md section 3). */
  @Value.Default
  public TransferMode transfers() {
    return TransferMode.OVERLAPPED;
  }

  /** Strategy-specific settings, documented by each strategy. */
  public abstract Map<String, String> extra();

  @Value.Check
  protected void check() {
    Invalid.requirePositive("options.timeLimit", timeLimit());
    if (timeLimit().compareTo(MAX_TIME_LIMIT) > 0) {
      throw Invalid.value("options.timeLimit", timeLimit(), "must be at most " + MAX_TIME_LIMIT, "PT10S means 10 seconds");
    }
    if (!(relativeGap() >= 0 && relativeGap() < 1)) {
      throw Invalid.value("options.relativeGap", relativeGap(), "must lie in [0, 1)", "0.01 means 1 %");
    }
  }

  /** Every option at its default. */
  public static StrategyOptions defaults() {
    return ImmutableStrategyOptions.builder().build();
  }

  /** A builder starting from the defaults. */
  public static ImmutableStrategyOptions.Builder builder() {
    return ImmutableStrategyOptions.builder();
  }
}
