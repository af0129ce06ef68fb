package org.rampa.examples.sim;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.rampa.strategy.SolveStatus;

/**
 * What one scheduler did with one arrival trace.
 *
 * @param scheduler the scheduler's name ("performance-first", "rampa-greedy/capability")
 * @param seed the seed of the trace (and of the scheduler's own randomness)
 * @param violations plans the verifier rejected or the commit refused (must be 0; such plans are not admitted)
 * @param gpuHoursByType GPU-hours held per GPU type (shares weighted) until the last arrival
 * @param utilisationByType mean fraction of each type's GPUs held over the run
 * @param meanFreeGpusPerNode at arrivals, the mean number of free GPUs on nodes that have any
 * @param decisionNanos every planning call's wall time
 * @param rejectionReasons why arrivals were rejected, by reason, with counts
 * @param freeGpusAtRejection mean free GPUs per type at the moments arrivals were rejected
 * @param capacity what the run did with parts of GPUs and how fragmented it left the cluster
 */
public record RunResult(
    String scheduler,
    double offeredLoad,
    long seed,
    int arrivals,
    int admitted,
    int violations,
    Map<String, Double> gpuHoursByType,
    Map<String, Double> utilisationByType,
    double meanFreeGpusPerNode,
    long[] decisionNanos,
    Map<SolveStatus, Integer> statuses,
    Map<String, Integer> admittedByClass,
    Map<String, Integer> arrivalsByClass,
    Map<String, Integer> rejectionReasons,
    Map<String, Double> freeGpusAtRejection,
    double wallSeconds,
    CapacityUse capacity) {

  /**
   * Sharing and fragmentation over one run.
   *
   * @param sharing whether the scheduler could place services on parts of GPUs
   * @param sharedPlans admitted plans holding at least one GPU in part (an MPS share, a MIG slice)
   * @param audited whether every admission was audited (always when sharing, and in experiment E4)
   * @param auditFindings the services found missing their SLO when an admission was verified again
   *     after its commit, incumbents sharing its GPUs included, each with its first violation
   *     ({@link AdmissionAudit}; must be empty)
   * @param meanFreeGpuEquivalents at arrivals, the mean free capacity in GPU-equivalents (whole free
   *     GPUs, MPS compute left, unheld MIG instances)
   * @param meanStrandedGpuEquivalents at arrivals, the mean part of it no class of the workload could
   *     use ({@link StrandedCapacity})
   * @param moves moves applied to admit arrivals the planner refused as the cluster stood (issue 25), and to defragment
   * @param admittedWithMoves arrivals admitted only after moves
   * @param moveKinds the moves applied by kind ({@link org.rampa.moves.Move#kind()}: migrate, recut, mode)
   * @param refusals refused arrivals by {@link RefusalBreakdown#classify} ("class|demand|smallest piece|moves to room"),
   *     when the run measured capacity (experiment E4); empty otherwise
   * @param defragMoves of {@code moves}, those made to defragment in quiet periods ({@link Scheduler#defragBudget()})
   * @param placementChanges of {@code moves}, the migrations that changed their replica's placement kind or size
   */
  public record CapacityUse(boolean sharing, int sharedPlans, boolean audited, List<String> auditFindings, double meanFreeGpuEquivalents,
      double meanStrandedGpuEquivalents, int moves, int admittedWithMoves, Map<String, Integer> moveKinds, Map<String, Integer> refusals,
      int defragMoves, int placementChanges) {

    public CapacityUse {
      auditFindings = List.copyOf(auditFindings);
      moveKinds = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(moveKinds));
      refusals = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(refusals));
    }
  }

  public double admissionRatio() {
    return arrivals == 0 ? 0 : (double) admitted / arrivals;
  }

  public double decisionMillis(double quantile) {
    return quantileMillis(decisionNanos, quantile);
  }

  /** The {@code quantile} of {@code nanos} (nearest rank), in milliseconds; 0 when there are none. */
  public static double quantileMillis(long[] nanos, double quantile) {
    if (nanos.length == 0) {
      return 0;
    }
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int i = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
    return sorted[i] / 1e6;
  }
}
