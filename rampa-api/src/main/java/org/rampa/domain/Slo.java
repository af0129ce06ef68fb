package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import org.immutables.value.Value;

/** A service-level objective: sustained throughput, end-to-end latency bound, batch size. */
@Value.Immutable
@JsonSerialize(as = ImmutableSlo.class)
@JsonDeserialize(as = ImmutableSlo.class)
public abstract class Slo {

  /** Requests (samples) per second the service must sustain. */
  public abstract double requiredThroughput();

  /** Bound on one request's end-to-end latency. */
  public abstract Duration latencyBound();

  /** The loosest latency bound accepted: it is compared in nanoseconds, and a day-long bound is a typo. */
  public static final Duration MAX_LATENCY_BOUND = Duration.ofDays(1);

  @Value.Default
  public int batchSize() {
    return 1;
  }

  @Value.Default
  public BatchingWait batchingWait() {
    return BatchingWait.NONE;
  }

  /** The wait the batching policy adds to every request's latency, in seconds. */
  public final double batchingWaitSeconds() {
    return batchingWait() == BatchingWait.FILL_AT_REQUIRED_RATE
        ? (batchSize() - 1) / requiredThroughput()
        : 0;
  }

  public final double latencyBoundSeconds() {
    return latencyBound().toNanos() * 1e-9;
  }

  @Value.Check
  protected void check() {
    if (!Double.isFinite(requiredThroughput()) || requiredThroughput() <= 0) {
      throw Invalid.value("slo.requiredThroughput", requiredThroughput(), "must be a finite number of requests/s > 0");
    }
    if (latencyBound().isNegative() || latencyBound().isZero()) {
      throw Invalid.value(
          "slo.latencyBound", latencyBound(), "must be a positive duration",
          "you meant Duration.ofMillis(...) rather than a value in seconds rounded to zero");
    }
    if (latencyBound().compareTo(MAX_LATENCY_BOUND) > 0) {
      throw Invalid.value("slo.latencyBound", latencyBound(), "must be at most " + MAX_LATENCY_BOUND,
          "an inference service answers within seconds; PT0.5S is half a second");
    }
    if (batchSize() < 1) {
      throw Invalid.value("slo.batchSize", batchSize(), "must be >= 1", "use 1 for unbatched serving");
    }
  }

  public static ImmutableSlo.Builder builder() {
    return ImmutableSlo.builder();
  }

  public static Slo of(double requiredThroughput, Duration latencyBound, int batchSize) {
    return ImmutableSlo.builder()
        .requiredThroughput(requiredThroughput)
        .latencyBound(latencyBound)
        .batchSize(batchSize)
        .build();
  }
}
