package org.rampa.examples.sim;

import org.rampa.Rampa;
import org.rampa.domain.ServiceRequest;

/**
 * A scheduler under test, as a real one would use the library: a configured {@link Rampa.Placer}
 * (strategy, importance, options) that the simulator points at the current state for each arrival.
 * One instance serves one simulation run, on one thread, so it may learn from what it sees (a
 * sliding-window forecast of recent arrivals, read by its importance model, say).
 */
public interface Scheduler {

  /** The placer configuration; the simulator sets its state before every decision. */
  Rampa.Placer placer();

  /**
   * How many moves (issue 25: migrations, re-cuts, mode changes) the simulator may make to admit an
   * arrival the planner refuses as the cluster stands; 0, the default, never moves anything.
   */
  default int moveBudget() {
    return 0;
  }

  /**
   * How many moves the simulator may make in each quiet period (after departures, before the next
   * arrival is planned) to defragment the cluster for the workload's forecast demand
   * ({@code GreedyDefragmenter}); 0, the default, never defragments.
   */
  default int defragBudget() {
    return 0;
  }

  /** How the cluster is defragmented when {@link #defragBudget()} is positive; {@link DefragPolicy#DEFAULT} unless told. */
  default DefragPolicy defragPolicy() {
    return DefragPolicy.DEFAULT;
  }

  /** Called for every arrival before it is planned, admitted or not. */
  default void observe(ServiceRequest arrival) {}
}
