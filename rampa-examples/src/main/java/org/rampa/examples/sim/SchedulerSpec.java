package org.rampa.examples.sim;

import java.util.function.Function;
import org.rampa.domain.Cluster;

/** A named recipe for a fresh {@link Scheduler} per run (fresh so runs never share learnt state). */
public record SchedulerSpec(String name, Function<Cluster, Scheduler> factory) {

  public Scheduler create(Cluster cluster) {
    return factory.apply(cluster);
  }
}
