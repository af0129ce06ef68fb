package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A service to place: its model, its SLO and the most pipeline stages it may be cut into.
 *
 * @since 0.1.0
 */
@Value.Immutable
@JsonSerialize(as = ImmutableServiceRequest.class)
@JsonDeserialize(as = ImmutableServiceRequest.class)
public abstract class ServiceRequest {

  public abstract String id();

  public abstract Model model();

  public abstract Slo slo();

  /** The largest {@link #maxStages()} accepted: searches size their tables by it, and no pipeline is that deep. */
  public static final int MAX_STAGES = 1024;

  /** K_max: the most pipeline stages a plan may use, in [1, {@link #MAX_STAGES}]. */
  @Value.Default
  public int maxStages() {
    return 8;
  }

  /** Arrival time relative to the start of a simulation or trace. */
  public abstract Optional<Duration> arrivalTime();

  public abstract Optional<Duration> expectedLifetime();

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("request.id", id());
    if (maxStages() < 1 || maxStages() > MAX_STAGES) {
      throw Invalid.value("request[" + id() + "].maxStages", maxStages(), "must lie in [1, " + MAX_STAGES + "]");
    }
    arrivalTime().ifPresent(t -> Invalid.requireNonNegative("request[" + id() + "].arrivalTime", t));
    expectedLifetime().ifPresent(t -> Invalid.requirePositive("request[" + id() + "].expectedLifetime", t));
  }

  public static ImmutableServiceRequest.Builder builder() {
    return ImmutableServiceRequest.builder();
  }
}
