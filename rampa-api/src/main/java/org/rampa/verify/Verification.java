package org.rampa.verify;

import java.util.List;
import java.util.Optional;
import org.rampa.perf.PlanEstimate;

/**
 * The verifier's verdict: every violation found, and the independently recomputed estimate (absent
 * when the plan is too malformed to evaluate).
 */
public record Verification(List<Violation> violations, Optional<PlanEstimate> recomputed) {

  public Verification {
    violations = List.copyOf(violations);
  }

  public boolean ok() {
    return violations.isEmpty();
  }

  /** Throws {@link PlanRejectedException} listing every violation unless the plan is valid. */
  public void orThrow(String serviceId) {
    if (!ok()) {
      throw new PlanRejectedException(serviceId, violations);
    }
  }
}
