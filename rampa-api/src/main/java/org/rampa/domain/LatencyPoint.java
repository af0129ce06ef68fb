package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import org.immutables.value.Value;

/** One measured latency of a layer at one batch size on one GPU type. */
@Value.Immutable
@JsonSerialize(as = ImmutableLatencyPoint.class)
@JsonDeserialize(as = ImmutableLatencyPoint.class)
public abstract class LatencyPoint {

  public abstract int batch();

  public abstract Duration latency();

  @Value.Check
  protected void check() {
    if (batch() < 1) {
      throw Invalid.value("latencyPoint.batch", batch(), "must be >= 1");
    }
    Invalid.requireStepTime("latencyPoint.latency", latency());
  }

  public static LatencyPoint of(int batch, Duration latency) {
    return ImmutableLatencyPoint.builder().batch(batch).latency(latency).build();
  }
}
