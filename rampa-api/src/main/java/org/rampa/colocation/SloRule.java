package org.rampa.colocation;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.rampa.domain.Invalid;
import org.rampa.perf.SloPredicate;

/**
 * How much of a service's latency SLO one segment's batch may take: the rule sets the budget
 * ({@link #budgetSeconds}) and the latency it judges ({@link #latencySeconds}); whether that latency
 * meets the budget is the library's one SLO comparison, {@link SloPredicate#meetsLatency(double, double)}.
 * ParvaGPU's rule gives a segment 0.9 × SLO / 2: a request may wait for the batch in front of it
 * and then run its own, and 10 % is kept as margin.
 *
 * <p>Two readings of a rule ({@link Reading}): RAMPA's judges the batch time itself against
 * {@code latencyFraction × SLO}; ParvaGPU's literal one is what ParvaGPU's own code compares (its
 * {@code configurator.c}): the latency in whole milliseconds, as its tables' latency column holds
 * it, strictly below {@code latencyFraction × ⌊SLO⌋} with the SLO truncated to whole milliseconds
 * (it reads the SLO file with {@code atoi}). Both are fed to the same comparison: the literal
 * reading's latency is the batch time rounded to whole milliseconds, and its budget is the largest
 * whole number of milliseconds strictly below {@code latencyFraction × ⌊SLO⌋}, computed in exact
 * decimal arithmetic; whole milliseconds lie a thousandth apart, far beyond the comparison's
 * tolerance, so "at most that budget" is "strictly below" ParvaGPU's bound.
 *
 * @param latencyFraction the fraction of the SLO one batch's time may use, in (0, 1]
 * @param reading which latency and budget the comparison is fed
 */
public record SloRule(double latencyFraction, Reading reading) {

  /** Which latency a rule judges and against which budget. */
  public enum Reading {
    /** The batch time, against {@code latencyFraction × SLO} (the comparison's tolerance applies). */
    RAMPA("rampa"),
    /** ParvaGPU's code: whole milliseconds, strictly below {@code latencyFraction × ⌊SLO in ms⌋}. */
    PARVAGPU_LITERAL("parvagpu-literal");

    private final String label;

    Reading(String label) {
      this.label = label;
    }

    /** The name the CLI and JSON use: "rampa", "parvagpu-literal". */
    public String label() {
      return label;
    }
  }

  public SloRule {
    if (!(latencyFraction > 0 && latencyFraction <= 1)) {
      throw Invalid.value("sloRule.latencyFraction", latencyFraction, "must lie in (0, 1]", "use 0.45 for ParvaGPU's rule, 1 for the whole SLO");
    }
    if (reading == null) {
      throw Invalid.value("sloRule.reading", null, "must be given", "use Reading.RAMPA");
    }
  }

  /** A rule of RAMPA's reading. */
  public SloRule(double latencyFraction) {
    this(latencyFraction, Reading.RAMPA);
  }

  /** ParvaGPU's rule: a segment's latency ≤ 0.9 × SLO / 2. */
  public static SloRule parvaGpu() {
    return new SloRule(0.9 / 2);
  }

  /** ParvaGPU's rule as its code compares it: whole-millisecond latency strictly below 0.9 × ⌊SLO⌋ / 2 (SLO in whole ms). */
  public static SloRule parvaGpuLiteral() {
    return new SloRule(0.9 / 2, Reading.PARVAGPU_LITERAL);
  }

  /** A segment may use the whole SLO. */
  public static SloRule wholeSlo() {
    return new SloRule(1);
  }

  /**
   * The largest latency one batch of {@code service} may have under this rule, in seconds (before
   * the comparison's tolerance). A planner that caps a batch time with it never admits a time the
   * rule refuses; under the literal reading it may refuse a time that rounds down into the budget.
   */
  public double budgetSeconds(ColocationService service) {
    if (reading == Reading.RAMPA) {
      return service.slo().toNanos() * 1e-9 * latencyFraction;
    }
    long wholeMillis = service.slo().toMillis();
    // the largest integer L with L < f × ⌊SLO⌋: ⌈f × ⌊SLO⌋⌉ − 1, exactly (0.45 is the decimal 0.45 here)
    BigDecimal bound = BigDecimal.valueOf(latencyFraction).multiply(BigDecimal.valueOf(wholeMillis));
    // an SLO under 1 ms gives −1 ms: no latency meets it, as none is below 0
    long largest = bound.setScale(0, RoundingMode.CEILING).longValueExact() - 1;
    return largest * 1e-3;
  }

  /** The latency this rule judges for a batch taking {@code batchSeconds}: itself, or rounded to whole milliseconds. */
  public double latencySeconds(double batchSeconds) {
    return reading == Reading.RAMPA ? batchSeconds : Math.round(batchSeconds * 1e3) * 1e-3;
  }

  /** True when one batch taking {@code batchSeconds} meets {@code service}'s SLO under this rule. */
  public boolean admits(double batchSeconds, ColocationService service) {
    return SloPredicate.meetsLatency(latencySeconds(batchSeconds), budgetSeconds(service));
  }

  /** The rule in words, for reasons and violations: "0.45 × 418.5 ms", "0.45 × 6434 ms" or "whole ms &lt; 0.45 × 418 ms (parvagpu-literal)". */
  public String describe(ColocationService service) {
    if (reading == Reading.PARVAGPU_LITERAL) {
      return "whole ms < " + latencyFraction + " × " + service.slo().toMillis() + " ms (" + reading.label() + ")";
    }
    return latencyFraction + " × " + BigDecimal.valueOf(service.slo().toNanos(), 6).stripTrailingZeros().toPlainString() + " ms";
  }
}
