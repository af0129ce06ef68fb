package org.rampa.importance;

import java.util.List;
import java.util.OptionalDouble;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * The importance of every GPU at one moment: the cost of holding the whole GPU. Holding a part of
 * it costs its share equivalent times as much (docs/SHARING.md section 4); a model that forecasts
 * demand may add the fragmentation of legal placements ({@link ShareCost}) through
 * {@link #of(ClusterState, String, Placement)}. Costs are finite and never negative.
 */
@FunctionalInterface
public interface GpuCosts {

  /** Cost of holding all of GPU {@code gpuId}. */
  double of(String gpuId);

  /**
   * {@link #of(String)} of {@code gpu}, a GPU of the evaluated cluster. Models whose costs depend on
   * the type alone answer without looking the GPU up by id, which is most of a large cluster's
   * per-decision cost of reading every free GPU's price.
   */
  default double ofGpu(Gpu gpu) {
    return of(gpu.id());
  }

  /**
   * The cost of every GPU of type {@code type}, when this model prices a GPU by its type alone (so
   * it equals {@link #of(String)} of each of them); empty when GPUs of one type may cost differently
   * (the default). A strategy that knows it treats the free GPUs of a type as classes of
   * interchangeable GPUs instead of pricing each of thousands.
   */
  default OptionalDouble ofType(String type) {
    return OptionalDouble.empty();
  }

  /**
   * The cost of holding {@code placement} of GPU {@code gpuId} in {@code state}, the state these
   * costs were evaluated on: the GPU's cost times the placement's share equivalent, so exactly
   * {@link #of(String)} for the whole GPU.
   */
  default double of(ClusterState state, String gpuId, Placement placement) {
    return of(gpuId) * placement.shareEquivalent(state.partitioning(gpuId));
  }

  /**
   * These costs for a decision whose menu offers the MPS levels {@code mpsLevels}
   * ({@code SharingOptions.mpsLevels()}), so that a cost that prices the room a holding strands
   * ({@link ShareCost}) judges it against the levels the planner may take. {@code SharedSlotMenu}
   * applies it, so every strategy prices shares with the decision's levels. Costs that do not look at
   * the menu (the default) are these costs unchanged.
   */
  default GpuCosts forMpsLevels(List<Double> mpsLevels) {
    return this;
  }

  /**
   * The cost of {@code plan}'s holdings, taken in {@code state} (the state the plan was planned on):
   * each stage replica's {@link #of(ClusterState, String, Placement)}, the price every strategy's
   * menu charges ({@code SharedSlotMenu}), so a plan's {@link Plan#cost()} can be checked against it
   * (for a decision with other than the default MPS levels, on {@link #forMpsLevels} of its levels).
   */
  default double of(Plan plan, ClusterState state) {
    double cost = 0;
    for (Stage s : plan.stages()) {
      for (String gpu : s.gpus()) {
        cost += s.placement() instanceof Whole ? of(gpu) : of(state, gpu, s.placement());
      }
    }
    return cost;
  }
}
