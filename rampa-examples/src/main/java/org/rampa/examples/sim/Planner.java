package org.rampa.examples.sim;

import java.time.Duration;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ServiceRequest;
import org.rampa.strategy.PlacementResult;

/**
 * A decision maker under test. One instance serves one simulation run, on one thread, so it may
 * learn from what it sees (a sliding-window forecast of recent arrivals, say).
 */
public interface Planner {

  PlacementResult plan(ServiceRequest request, ClusterState state);

  /** Called for every arrival before it is planned, admitted or not. */
  default void observe(ServiceRequest arrival, Duration at) {}
}
