package org.rampa.colocation;

import org.rampa.domain.Invalid;
import org.rampa.perf.SloPredicate;

/**
 * How much of a service's latency SLO one segment's batch may take: the rule only sets the budget
 * ({@link #budgetSeconds}); whether a batch time meets it is the library's one SLO comparison,
 * {@link SloPredicate#meetsLatency(double, double)}. ParvaGPU's rule gives a segment 0.9 × SLO / 2:
 * a request may wait for the batch in front of it and then run its own, and 10 % is kept as margin.
 *
 * @param latencyFraction the fraction of the SLO one batch's time may use, in (0, 1]
 */
public record SloRule(double latencyFraction) {

  public SloRule {
    if (!(latencyFraction > 0 && latencyFraction <= 1)) {
      throw Invalid.value("sloRule.latencyFraction", latencyFraction, "must lie in (0, 1]", "use 0.45 for ParvaGPU's rule, 1 for the whole SLO");
    }
  }

  /** ParvaGPU's rule: a segment's latency ≤ 0.9 × SLO / 2. */
  public static SloRule parvaGpu() {
    return new SloRule(0.9 / 2);
  }

  /** A segment may use the whole SLO. */
  public static SloRule wholeSlo() {
    return new SloRule(1);
  }

  /** The time one batch of {@code service} may take under this rule, in seconds (before the comparison's tolerance). */
  public double budgetSeconds(ColocationService service) {
    return service.slo().toNanos() * 1e-9 * latencyFraction;
  }

  /** True when one batch taking {@code batchSeconds} meets {@code service}'s SLO under this rule. */
  public boolean admits(double batchSeconds, ColocationService service) {
    return SloPredicate.meetsLatency(batchSeconds, budgetSeconds(service));
  }
}
