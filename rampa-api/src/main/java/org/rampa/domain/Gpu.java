package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import org.immutables.value.Value;

/** One physical GPU: its id, the name of its {@link GpuType} and the id of its {@link Node}. */
@Value.Immutable
@JsonSerialize(as = ImmutableGpu.class)
@JsonDeserialize(as = ImmutableGpu.class)
public abstract class Gpu {

  public abstract String id();

  public abstract String type();

  public abstract String node();

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("gpu.id", id());
    Invalid.requireNonBlank("gpu[" + id() + "].type", type());
    Invalid.requireNonBlank("gpu[" + id() + "].node", node());
  }

  public static Gpu of(String id, String type, String node) {
    return ImmutableGpu.builder().id(id).type(type).node(node).build();
  }
}
