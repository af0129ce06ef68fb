package org.rampa.perf;

import org.rampa.domain.Slo;

/**
 * The cheap SLO comparison searches use inside their loops (the verifier checks the plan they
 * return once, outside). It keeps the heuristics' current margin: a relative {@value #MARGIN} on
 * the safe side of both bounds, so that rounding a prediction to whole nanoseconds never turns an
 * accepted candidate into one the verifier rejects. Issue 15's single SLO predicate, shared with
 * the verifier and with its one documented tolerance, takes the place of this class; the method
 * names are the same so callers need not change.
 */
public final class SloPredicate {

  /** Relative margin kept inside both bounds. */
  public static final double MARGIN = 1e-9;

  private SloPredicate() {}

  /** True when {@code throughput} (requests/s) meets the SLO's required throughput. */
  public static boolean meetsThroughput(double throughput, Slo slo) {
    return !(throughput < slo.requiredThroughput() * (1 + MARGIN));
  }

  /** True when {@code latencySeconds}, batching wait included, meets the SLO's latency bound. */
  public static boolean meetsLatency(double latencySeconds, Slo slo) {
    return !(latencySeconds > slo.latencyBoundSeconds() * (1 - MARGIN));
  }
}
