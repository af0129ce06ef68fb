package org.rampa.colocation;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.strategy.SolveStatus;

/**
 * What a co-location planner returns: a status, the plan when it found one, its objective value,
 * the proven bound on the optimum where the planner has one (a lower bound on GPUs, an upper bound
 * on scale or weighted throughput), and a reason a person can act on.
 */
public record ColocationResult(SolveStatus status, Optional<ColocationPlan> plan, OptionalDouble value, OptionalDouble bound, String reason) {

  public ColocationResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(bound, "bound");
    Objects.requireNonNull(reason, "reason");
    if (status.hasPlan() != plan.isPresent()) {
      throw new IllegalArgumentException("status " + status + " and plan presence " + plan.isPresent() + " disagree");
    }
  }

  /** Relative gap between the plan's value and the bound, when both exist. */
  public OptionalDouble gap() {
    if (value.isEmpty() || bound.isEmpty()) {
      return OptionalDouble.empty();
    }
    double v = value.getAsDouble();
    double b = bound.getAsDouble();
    return OptionalDouble.of(Math.abs(v - b) / Math.max(Math.abs(v), 1e-9));
  }

  public static ColocationResult noPlan(SolveStatus status, String reason) {
    return new ColocationResult(status, Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty(), reason);
  }
}
