package org.rampa.heuristics.importance;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Invalid;
import org.rampa.domain.Node;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;

/**
 * Topology / fragmentation: what taking a GPU does to the large same-type blocks on one node's
 * fast link that big models need.
 *
 * <p>A node's <em>block</em> of type t is the set of its whole free GPUs of type t. Valuing a
 * block of size b at b² (convex: one block of 4 is worth more than two of 2), taking one GPU from
 * it loses b² − (b−1)² = 2b − 1. Normalised by the largest possible loss, 2B − 1 with B the most
 * GPUs of one type on any node of the cluster:
 *
 * <pre>cost(g) = (2b − 1) / (2B − 1)</pre>
 *
 * where b is the size of g's block counting g itself (a held GPU is counted as if it were taken
 * from its node's block). Dimensionless, in (0, 1]; strictly increasing in b, so the GPU of a
 * fully free node costs more than a GPU of a node of the same size some of whose GPUs are held.
 */
final class FragmentationImportance implements ImportanceModel {

  @Override
  public String name() {
    return "fragmentation";
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    Cluster cluster = state.cluster();
    int largest = 1;
    Map<String, Double> costs = new HashMap<>();
    Map<String, Integer> freeOfType = new HashMap<>();
    Map<String, Integer> ofType = new HashMap<>();
    Capacity capacity = state.capacity();
    for (Node n : cluster.nodes()) {
      List<Gpu> gpus = cluster.gpusOn(n.id());
      freeOfType.clear();
      ofType.clear();
      for (Gpu g : gpus) {
        ofType.merge(g.type(), 1, Integer::sum);
        if (capacity.contains(g.id())) {
          freeOfType.merge(g.type(), 1, Integer::sum);
        }
      }
      for (int count : ofType.values()) {
        largest = Math.max(largest, count);
      }
      for (Gpu g : gpus) {
        int b = freeOfType.getOrDefault(g.type(), 0) + (capacity.contains(g.id()) ? 0 : 1);
        costs.put(g.id(), 2.0 * b - 1); // normalised below, once the largest block is known
      }
    }
    double norm = 2.0 * largest - 1;
    costs.replaceAll((gpu, loss) -> loss / norm);
    return gpuId -> {
      Double cost = costs.get(gpuId);
      if (cost == null) {
        throw Invalid.value("gpuId", gpuId, "no such GPU in the cluster");
      }
      return cost;
    };
  }
}
