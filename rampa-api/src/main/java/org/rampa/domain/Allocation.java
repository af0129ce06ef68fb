package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.List;
import org.immutables.value.Value;

/** Everything one admitted service holds in the cluster. */
@Value.Immutable
@JsonSerialize(as = ImmutableAllocation.class)
@JsonDeserialize(as = ImmutableAllocation.class)
public abstract class Allocation {

  public abstract String serviceId();

  public abstract List<Holding> holdings();

  /** {@code serviceId} holding {@code holdings}. */
  public static Allocation of(String serviceId, List<Holding> holdings) {
    return ImmutableAllocation.builder().serviceId(serviceId).holdings(holdings).build();
  }

  /** The holdings a plan asks for: each stage's placement and memory on each of its GPUs. */
  public static Allocation of(Plan plan) {
    List<Holding> holdings = new ArrayList<>();
    for (Stage s : plan.stages()) {
      for (String gpu : s.gpus()) {
        holdings.add(Holding.of(gpu, s.placement(), s.memoryBytes()));
      }
    }
    return of(plan.serviceId(), holdings);
  }
}
