package org.rampa.examples.sim;

import java.util.function.Function;
import org.rampa.domain.Cluster;

/** A named recipe for a fresh {@link Planner} per run (fresh so runs never share learnt state). */
public record PlannerSpec(String name, Function<Cluster, Planner> factory) {

  public Planner create(Cluster cluster) {
    return factory.apply(cluster);
  }
}
