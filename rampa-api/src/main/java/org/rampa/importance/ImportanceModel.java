package org.rampa.importance;

import org.rampa.domain.ClusterState;

/**
 * How important each GPU is for future services, given who holds what now. RAMPA places each
 * service on the SLO-feasible plan of least total importance.
 *
 * <p>Implementations evaluate once per decision ({@link #evaluate}) so that expensive models
 * (sampling a forecast, say) pay their cost once, not once per candidate GPU.
 */
public interface ImportanceModel {

  /** Short name for reports ("static", "scarcity", ...). */
  String name();

  /** The importance of every GPU of {@code state}'s cluster, in that state. */
  GpuCosts evaluate(ClusterState state);
}
