package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import org.immutables.value.Value;

/** A communication link (NVLink, PCIe, Infinity Fabric, the network): bandwidth and latency. */
@Value.Immutable
@JsonSerialize(as = ImmutableLink.class)
@JsonDeserialize(as = ImmutableLink.class)
public abstract class Link {

  public abstract String name();

  /** Unidirectional bandwidth available to one transfer, in bytes per second. */
  public abstract double bandwidthBytesPerSecond();

  public abstract Duration latency();

  /** Time to ship {@code bytes} over this link: latency plus bytes over bandwidth. */
  public final double transferSeconds(double bytes) {
    return latency().toNanos() * 1e-9 + bytes / bandwidthBytesPerSecond();
  }

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("link.name", name());
    if (!Double.isFinite(bandwidthBytesPerSecond()) || bandwidthBytesPerSecond() <= 0) {
      throw Invalid.value(
          "link[" + name() + "].bandwidthBytesPerSecond",
          bandwidthBytesPerSecond(),
          "must be a finite number > 0",
          "a missing link should be modelled as a slow network link, not zero bandwidth");
    }
    Invalid.requireStepTime("link[" + name() + "].latency", latency());
  }

  public static Link of(String name, double bandwidthBytesPerSecond, Duration latency) {
    return ImmutableLink.builder()
        .name(name)
        .bandwidthBytesPerSecond(bandwidthBytesPerSecond)
        .latency(latency)
        .build();
  }
}
