package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import org.immutables.value.Value;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * What one service holds on one GPU: a placement on it (the whole GPU, an MPS share, a MIG slice
 * ...) and the memory it uses there.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableHolding.class)
@JsonDeserialize(as = ImmutableHolding.class)
public abstract class Holding {

  public abstract String gpu();

  @Value.Default
  public Placement placement() {
    return new Whole();
  }

  public abstract long memoryBytes();

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("holding.gpu", gpu());
    Invalid.requireNonNegative("holding[" + gpu() + "].memoryBytes", memoryBytes());
  }

  public static Holding of(String gpu, Placement placement, long memoryBytes) {
    return ImmutableHolding.builder().gpu(gpu).placement(placement).memoryBytes(memoryBytes).build();
  }

  /** The whole GPU. */
  public static Holding whole(String gpu, long memoryBytes) {
    return of(gpu, new Whole(), memoryBytes);
  }
}
