package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import org.immutables.value.Value;

/**
 * What one service holds on one GPU: a fraction of its compute and some of its memory. Exclusive
 * use is a share of 1; MPS percentages and MIG slices are smaller shares of the same ledger.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableHolding.class)
@JsonDeserialize(as = ImmutableHolding.class)
public abstract class Holding {

  public abstract String gpu();

  public abstract double share();

  public abstract long memoryBytes();

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("holding.gpu", gpu());
    if (!(share() > 0 && share() <= 1)) {
      throw Invalid.value("holding[" + gpu() + "].share", share(), "must lie in (0, 1]");
    }
    Invalid.requireNonNegative("holding[" + gpu() + "].memoryBytes", memoryBytes());
  }

  public static Holding of(String gpu, double share, long memoryBytes) {
    return ImmutableHolding.builder().gpu(gpu).share(share).memoryBytes(memoryBytes).build();
  }
}
