package org.rampa.importance;

import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;

/**
 * The importance of every GPU at one moment: the cost of holding the whole GPU. Holding a part of
 * it costs its share equivalent times as much (SHARING.md section 4; fragmentation of legal
 * placements is not charged yet). Costs are finite and never negative.
 */
@FunctionalInterface
public interface GpuCosts {

  /** Cost of holding all of GPU {@code gpuId}. */
  double of(String gpuId);

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
