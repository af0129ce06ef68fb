package org.rampa.perf;

import org.rampa.domain.Slo;

/**
 * The one SLO comparison of the library: the plan verifier, every strategy's search and final
 * check, and every infeasibility proof decide "does this meet the SLO" here, so a plan that meets
 * the SLO with equality is feasible everywhere or nowhere (it is feasible).
 *
 * <p>A placement meets {@code slo} when its throughput is at least {@code λ·(1 − ε)} and its
 * latency (batching wait included) at most {@code D_max·(1 + ε)}, with the one relative tolerance
 * {@code ε = }{@value #RELATIVE_TOLERANCE}. Why a tolerance at all: the same plan's latency is a sum
 * of layer and transfer times, and strategies add them up in different orders (prefix sums, labels,
 * solver rows), which moves the last few bits; a latency bound that equals such a sum in exact
 * arithmetic would otherwise be met by one strategy and missed by another. Why this size: it is a
 * millionth — a microsecond on a one-second bound, far below any performance model's accuracy —
 * and large enough that the exact planner's solvers, whose own feasibility tolerances are a
 * thousand times finer (SCIP's {@code numerics/feastol}, CP-SAT's integer scaling), can keep their
 * rows inside it without losing a plan that meets the SLO with equality.
 *
 * <p>Searches that bound a stage's busy time use {@link #meetsPeriod}, which is the throughput
 * comparison for one stage in the very arithmetic {@link PerformanceModel#estimate} uses
 * ({@code throughput = b / max load}), so it admits a stage exactly when a plan with that stage as
 * its slowest one passes {@link #meetsThroughput}. Searches that add up latency compare with
 * {@link #latencyBudgetSeconds}.
 *
 * <p>Co-location judges the same two comparisons on its own numbers: a demand in requests/s
 * ({@link #meetsRate}) and a latency budget that its SLO rule derives from the service's SLO
 * ({@link #meetsLatency(double, double)}, ParvaGPU's {@code 0.9 × SLO / 2} for instance).
 */
public final class SloPredicate {

  /** The relative tolerance of both comparisons. */
  public static final double RELATIVE_TOLERANCE = 1e-6;

  private SloPredicate() {}

  /** True when {@code throughput} (requests/s) meets the SLO's required throughput. */
  public static boolean meetsThroughput(double throughput, Slo slo) {
    return meetsRate(throughput, slo.requiredThroughput());
  }

  /** True when {@code throughput} (requests/s) meets a demand of {@code requiredThroughput} requests/s. */
  public static boolean meetsRate(double throughput, double requiredThroughput) {
    return throughput >= leastThroughput(requiredThroughput);
  }

  /** The smallest throughput {@link #meetsRate} admits for a demand of {@code requiredThroughput} requests/s. */
  public static double leastThroughput(double requiredThroughput) {
    return requiredThroughput * (1 - RELATIVE_TOLERANCE);
  }

  /**
   * True when a stage busy {@code loadSeconds} per batch (or a transfer taking that long, when
   * transfers overlap compute) allows the required throughput: exactly {@link #meetsThroughput} of
   * {@code batch / load}, as the performance model computes it.
   */
  public static boolean meetsPeriod(double loadSeconds, Slo slo) {
    return loadSeconds <= 0 || meetsThroughput(slo.batchSize() / loadSeconds, slo);
  }

  /** True when {@code latencySeconds}, batching wait included, meets the SLO's latency bound. */
  public static boolean meetsLatency(double latencySeconds, Slo slo) {
    return latencySeconds <= latencyLimitSeconds(slo);
  }

  /** True when {@code latencySeconds} meets a latency bound of {@code boundSeconds}. */
  public static boolean meetsLatency(double latencySeconds, double boundSeconds) {
    return latencySeconds <= latencyLimitSeconds(boundSeconds);
  }

  /** True when {@code estimate} meets both halves of the SLO (memory is checked elsewhere). */
  public static boolean meets(PlanEstimate estimate, Slo slo) {
    return meetsThroughput(estimate.throughput(), slo) && meetsLatency(estimate.latencySeconds(), slo);
  }

  /** The largest latency, batching wait included, that {@link #meetsLatency} admits. */
  public static double latencyLimitSeconds(Slo slo) {
    return latencyLimitSeconds(slo.latencyBoundSeconds());
  }

  /** The largest latency {@link #meetsLatency(double, double)} admits under a bound of {@code boundSeconds}. */
  public static double latencyLimitSeconds(double boundSeconds) {
    return boundSeconds * (1 + RELATIVE_TOLERANCE);
  }

  /**
   * The largest sum of stage compute and transfer times (the latency without the batching wait)
   * that {@link #meetsLatency} admits: the budget searches add their latency up against.
   */
  public static double latencyBudgetSeconds(Slo slo) {
    return latencyLimitSeconds(slo) - slo.batchingWaitSeconds();
  }

  /**
   * The largest busy time per batch that {@link #meetsPeriod} admits, for lower bounds on replica
   * counts ({@code ceil(T / maxLoad)} replicas at least); decisions use {@link #meetsPeriod}.
   */
  public static double maxLoadSeconds(Slo slo) {
    return slo.batchSize() / leastThroughput(slo.requiredThroughput());
  }
}
