package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/** Everything one admitted service holds in the cluster. */
@Value.Immutable
@JsonSerialize(as = ImmutableAllocation.class)
@JsonDeserialize(as = ImmutableAllocation.class)
public abstract class Allocation {

  public abstract String serviceId();

  public abstract List<Holding> holdings();

  /**
   * The admitted request, when the allocation came from {@link #of(ServiceRequest, Plan)}: with
   * {@link #plan()}, what lets the ledger re-time the service when co-runners join its GPUs.
   */
  public abstract Optional<ServiceRequest> request();

  /** The admitted plan, present exactly when {@link #request()} is. */
  public abstract Optional<Plan> plan();

  @Value.Check
  protected void check() {
    if (request().isPresent() != plan().isPresent()) {
      throw Invalid.value("allocation[" + serviceId() + "].request", request().isPresent() ? "present" : "absent",
          "request and plan come together", "give both, or neither");
    }
    request().ifPresent(r -> {
      if (!r.id().equals(serviceId()) || !plan().get().serviceId().equals(serviceId())) {
        throw Invalid.value("allocation[" + serviceId() + "].request.id", r.id(), "request, plan and allocation must name one service");
      }
      if (!holdings().equals(holdingsOf(plan().get()))) {
        throw Invalid.value("allocation[" + serviceId() + "].holdings", holdings(), "must be what its plan asks for");
      }
    });
  }

  /** {@code serviceId} holding {@code holdings}. */
  public static Allocation of(String serviceId, List<Holding> holdings) {
    return ImmutableAllocation.builder().serviceId(serviceId).holdings(holdings).build();
  }

  /** The holdings a plan asks for: each stage's placement and memory on each of its GPUs. */
  public static Allocation of(Plan plan) {
    return of(plan.serviceId(), holdingsOf(plan));
  }

  /** The holdings {@code plan} asks for, with the request and plan kept for re-timing the service. */
  public static Allocation of(ServiceRequest request, Plan plan) {
    return ImmutableAllocation.builder().serviceId(plan.serviceId()).holdings(holdingsOf(plan)).request(request).plan(plan).build();
  }

  private static List<Holding> holdingsOf(Plan plan) {
    List<Holding> holdings = new ArrayList<>();
    for (Stage s : plan.stages()) {
      for (String gpu : s.gpus()) {
        holdings.add(Holding.of(gpu, s.placement(), s.memoryBytes()));
      }
    }
    return holdings;
  }
}
