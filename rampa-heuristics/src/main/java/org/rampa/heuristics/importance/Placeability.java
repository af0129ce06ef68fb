package org.rampa.heuristics.importance;

import java.util.Objects;
import java.util.Optional;
import org.rampa.domain.ClusterState;
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
