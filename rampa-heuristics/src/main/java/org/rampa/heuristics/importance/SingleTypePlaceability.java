package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Link;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.heuristics.importance.FreeCapacity.NodeBlock;
import org.rampa.heuristics.importance.FreeCapacity.TypeCapacity;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.verify.PlanVerifier;

/** See {@link Placeability#singleType}. */
final class SingleTypePlaceability implements Placeability {

  static final String STRATEGY_NAME = "placeability";

  private final SingleTypeLayouts layouts;
  private final PerformanceModel performance;
  private final PlanVerifier verifier;
  /** The free capacity of the state asked about last: callers ask many requests per state. */
  private volatile FreeCapacity lastCapacity;

  SingleTypePlaceability(SingleTypeLayouts layouts) {
    this.layouts = layouts;
    this.performance = layouts.performance();
    this.verifier = new PlanVerifier(performance);
  }

  /** A concrete candidate: GPUs picked, layout fixed, not yet verified. */
  private record Candidate(int gpus, boolean sameNode, List<StageAssignment> stages) {}

  @Override
  public Optional<Plan> plan(ServiceRequest request, ClusterState state) {
    return plan(request, state, capacityOf(state));
  }

  /**
   * For a whole free GPU, answers for the state' in which it is taken too without building state':
   * the plans avoid the GPU, so the verifier's verdict on {@code state} holds on state' as well.
   */
  @Override
  public Predicate<ServiceRequest> placeableWithout(ClusterState state, String gpuId) {
    if (!state.capacity().contains(gpuId)) {
      return Placeability.super.placeableWithout(state, gpuId);
    }
    FreeCapacity without = capacityOf(state).without(gpuId);
    return request -> plan(request, state, without).isPresent();
  }

  private Optional<Plan> plan(ServiceRequest request, ClusterState state, FreeCapacity capacity) {
    List<Candidate> candidates = new ArrayList<>();
    for (TypeCapacity type : capacity.types()) {
      if (type.free() == 0) {
        continue;
      }
      sameNodeCandidate(request, type).ifPresent(candidates::add);
      spreadCandidate(request, type).ifPresent(candidates::add);
    }
    candidates.sort(Comparator.comparingInt(Candidate::gpus).thenComparing(c -> !c.sameNode()));
    for (Candidate c : candidates) {
      Plan plan = performance.plan(request, c.stages(), state.cluster(), 0, STRATEGY_NAME);
      if (verifier.verify(request, plan, state).ok()) {
        return Optional.of(plan);
      }
    }
    return Optional.empty();
  }

  /**
   * Best fit: the node with the fewest free GPUs of this type that holds the layout for its link.
   * Layouts are asked for with the type's total as the cap (state-independent, so memoised once);
   * the fewest-GPU count does not depend on the cap as long as the cap is above it.
   */
  private Optional<Candidate> sameNodeCandidate(ServiceRequest request, TypeCapacity type) {
    Map<Link, Optional<StageLayout>> byLink = new HashMap<>(2);
    for (NodeBlock block : type.blocksBySize()) {
      Optional<StageLayout> layout = byLink.computeIfAbsent(
          block.node().intraLink(), link -> layouts.fewestGpus(request, type.type(), link, type.total()));
      if (layout.isPresent() && layout.get().gpus() <= block.freeGpus().size()) {
        StageLayout l = layout.get();
        return Optional.of(new Candidate(l.gpus(), true, l.assign(block.freeGpus().subList(0, l.gpus()))));
      }
    }
    return Optional.empty();
  }

  /** GPUs from several nodes, small free blocks first so that large blocks stay whole. */
  private Optional<Candidate> spreadCandidate(ServiceRequest request, TypeCapacity type) {
    if (type.blocksBySize().size() < 2) {
      return Optional.empty(); // one node: the same-node candidate covers it with a faster link
    }
    Optional<StageLayout> layout = layouts.fewestGpus(request, type.type(), type.worstCutLink(), type.total());
    if (layout.isEmpty() || layout.get().gpus() > type.free()) {
      return Optional.empty();
    }
    int need = layout.get().gpus();
    List<String> gpus = new ArrayList<>(need);
    for (NodeBlock block : type.blocksBySize()) {
      for (String g : block.freeGpus()) {
        if (gpus.size() < need) {
          gpus.add(g);
        }
      }
    }
    return Optional.of(new Candidate(need, false, layout.get().assign(gpus)));
  }

  private FreeCapacity capacityOf(ClusterState state) {
    FreeCapacity last = lastCapacity;
    if (last != null && last.state() == state) {
      return last;
    }
    FreeCapacity fresh = FreeCapacity.of(state);
    lastCapacity = fresh;
    return fresh;
  }
}
