package org.rampa.domain;

import java.util.List;

/** An allocation that would over-commit a GPU, or reuse a service id; nothing was applied. */
public final class AllocationRefusedException extends IllegalStateException {
  private final List<String> conflicts;

  public AllocationRefusedException(String serviceId, List<String> conflicts) {
    super("allocation of service \"" + serviceId + "\" refused, nothing was applied: " + String.join("; ", conflicts));
    this.conflicts = List.copyOf(conflicts);
  }

  public List<String> conflicts() {
    return conflicts;
  }
}
