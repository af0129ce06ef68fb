package org.rampa.verify;

import java.util.List;

/** A plan the {@link PlanVerifier} rejected; a strategy that returns one has a bug. */
public final class PlanRejectedException extends IllegalStateException {
  private final List<Violation> violations;

  public PlanRejectedException(String serviceId, List<Violation> violations) {
    super("plan for service \"" + serviceId + "\" violates " + violations.size() + " rule(s): " + violations);
    this.violations = List.copyOf(violations);
  }

  public List<Violation> violations() {
    return violations;
  }
}
