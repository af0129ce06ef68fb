package org.rampa.heuristics.importance;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;

/**
 * Whether a service could still be admitted in a cluster state: the oracle behind
 * {@link ImportanceModels#marginalAcceptanceLoss}.
 *
 * <p>Contract: {@link #plan} returns only plans that {@code PlanVerifier} accepts for the request
 * on that state. Answers must not depend on GPU or node ids, only on what is free where (types,
 * links, free shares and memory): the marginal-loss model evaluates one representative GPU per
 * class of interchangeable GPUs and relies on that. Implementations must be thread-safe.
 */
public interface Placeability {

  /** A verified plan for {@code request} on {@code state}'s free resources, or empty. */
  Optional<Plan> plan(ServiceRequest request, ClusterState state);

  /** True exactly when {@link #plan} finds a plan. */
  default boolean canPlace(ServiceRequest request, ClusterState state) {
    return plan(request, state).isPresent();
  }

  /**
   * Answers {@link #canPlace} on the state in which everything still free on {@code gpuId} is
   * held as well, for many requests. By default that state is built once, with the holding under
   * a service id {@code state} does not use; an oracle that can answer without building it (the
   * costly part) overrides this.
   */
  default Predicate<ServiceRequest> placeableWithout(ClusterState state, String gpuId) {
    if (!state.capacity().contains(gpuId)) {
      // the oracle plans whole GPUs (sharing off): the rest of a partly held GPU is no use to it
      return request -> canPlace(request, state);
    }
    String probe = "rampa-importance-probe";
    for (int i = 1; state.holds(probe); i++) {
      probe = "rampa-importance-probe-" + i;
    }
    ClusterState without = state.allocate(Allocation.of(probe, List.of(Holding.whole(gpuId, state.freeMemoryBytes(gpuId)))));
    return request -> canPlace(request, without);
  }

  /**
   * The default oracle: a plan of whole free GPUs of one type, either all on one node (its own
   * link between stages) or spread over nodes (the slowest of the network and those nodes' links
   * assumed at every cut), with the fewest GPUs the performance model allows, each candidate
   * checked by {@code PlanVerifier} before it is returned. Sound; not complete (it never mixes GPU
   * types in one plan or uses shares of partly held GPUs).
   */
  static Placeability singleType(PerformanceModel performance) {
    return new SingleTypePlaceability(new SingleTypeLayouts(Objects.requireNonNull(performance, "performance")));
  }
}
