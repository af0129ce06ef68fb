package org.rampa.examples.sim;

import java.util.function.Function;
import org.rampa.domain.Cluster;

/**
 * A named recipe for a fresh {@link Scheduler} per run (fresh so runs never share learnt state).
 *
 * @param sharing whether the scheduler may place services on parts of GPUs (MPS shares, MIG
 *     slices) next to other services; the simulator then admits its plans through the
 *     interference guard, which keeps each service's request so later admissions re-time it
 */
public record SchedulerSpec(String name, Function<Cluster, Scheduler> factory, boolean sharing) {

  /** A scheduler that holds whole GPUs only. */
  public SchedulerSpec(String name, Function<Cluster, Scheduler> factory) {
    this(name, factory, false);
  }

  public Scheduler create(Cluster cluster) {
    return factory.apply(cluster);
  }
}
