package org.rampa.importance;

import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.domain.share.Placement;

/**
 * The importance of every GPU at one moment: the cost of holding the whole GPU. Holding a part of
 * it costs its share equivalent times as much (SHARING.md section 4); a model that forecasts
 * demand may add the fragmentation of legal placements ({@link ShareCost}) through
 * {@link #of(ClusterState, String, Placement)}. Costs are finite and never negative.
 */
@FunctionalInterface
public interface GpuCosts {

  /** Cost of holding all of GPU {@code gpuId}. */
  double of(String gpuId);

  /**
   * The cost of holding {@code placement} of GPU {@code gpuId} in {@code state}, the state these
   * costs were evaluated on: the GPU's cost times the placement's share equivalent, so exactly
   * {@link #of(String)} for the whole GPU.
   */
  default double of(ClusterState state, String gpuId, Placement placement) {
    return of(gpuId) * placement.shareEquivalent(state.partitioning(gpuId));
  }

  /**
   * The cost of {@code plan}'s holdings on {@code cluster}: each GPU's cost times the share
   * equivalent of the stage's placement on it (1 for a whole GPU).
   */
  default double of(Plan plan, Cluster cluster) {
    double cost = 0;
    for (Stage s : plan.stages()) {
      for (String gpu : s.gpus()) {
        cost += of(gpu) * s.placement().shareEquivalent(SharingCatalog.standard().partitioningFor(cluster.typeOf(gpu)));
      }
    }
    return cost;
  }
}
