package org.rampa.verify;

import java.util.List;

/**
 * A plan the {@link PlanVerifier} or the co-location verifier rejected; a strategy or co-location
 * planner that returns one has a bug.
 */
public final class PlanRejectedException extends IllegalStateException {
  private final List<Violation> violations;

  public PlanRejectedException(String serviceId, List<Violation> violations) {
    this(violations, "plan for service \"" + serviceId + "\"");
  }

  private PlanRejectedException(List<Violation> violations, String subject) {
    super(subject + " violates " + violations.size() + " rule(s): " + violations);
    this.violations = List.copyOf(violations);
  }

  /** A co-location plan that {@code source} (a planner's name, or what else made the plan) returned and the co-location verifier refuses. */
  public static PlanRejectedException colocation(String source, List<Violation> violations) {
    return new PlanRejectedException(violations, "co-location plan of " + source);
  }

  public List<Violation> violations() {
    return violations;
  }
}
