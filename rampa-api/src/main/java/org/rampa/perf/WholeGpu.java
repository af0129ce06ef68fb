package org.rampa.perf;

import java.util.Objects;
import org.rampa.domain.GpuType;

/** A whole GPU of one type: all its compute and all its memory. */
public record WholeGpu(GpuType type) implements DeviceKind {

  public WholeGpu {
    Objects.requireNonNull(type, "type");
  }

  @Override
  public long memoryBytes() {
    return type.memoryBytes();
  }

  @Override
  public String name() {
    return type.name();
  }
}
