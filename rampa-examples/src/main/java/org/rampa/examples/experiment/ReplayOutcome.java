package org.rampa.examples.experiment;

import java.util.List;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.verify.Violation;

/**
 * A plan replayed under a truth ({@link ColocationReplay}).
 *
 * @param segments the plan's segments
 * @param lateSegments segments whose batch time (with interference) breaks the SLO rule
 * @param services the services of the demand mix
 * @param underservedServices services whose throughput (every segment counted) is below rate × the claimed scale
 * @param demand Σ rate × the claimed scale over the services (requests/s)
 * @param servedInTime Σ over services of min(demand, the throughput of its segments that meet the SLO rule)
 * @param worstSloUse the largest batch time over what the SLO rule allows, over all segments (above 1: late)
 * @param violations every rule {@link ColocationVerifier} finds broken under the truth
 */
public record ReplayOutcome(
    int segments, int lateSegments, int services, int underservedServices, double demand, double servedInTime, double worstSloUse,
    List<Violation> violations) {

  public ReplayOutcome {
    violations = List.copyOf(violations);
  }

  /** True when the plan still passes every rule under the truth. */
  public boolean holds() {
    return violations.isEmpty();
  }

  /** The fraction of the claimed demand served by segments that meet their SLO; 1 when nothing is claimed. */
  public double servedFraction() {
    return demand > 0 ? servedInTime / demand : 1;
  }
}
