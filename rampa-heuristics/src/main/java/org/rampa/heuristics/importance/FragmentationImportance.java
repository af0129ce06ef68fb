package org.rampa.heuristics.importance;

import java.util.HashMap;
import java.util.Map;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
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
    Map<String, Integer> freeBlock = new HashMap<>();
    Map<String, Integer> sizeOfGroup = new HashMap<>();
    for (Gpu g : cluster.gpus()) {
      String group = g.node() + '\u0000' + g.type();
      sizeOfGroup.merge(group, 1, Integer::sum);
      if (state.isFree(g.id())) {
        freeBlock.merge(group, 1, Integer::sum);
      }
    }
    int largest = sizeOfGroup.values().stream().mapToInt(Integer::intValue).max().orElse(1);
    double norm = 2.0 * largest - 1;
    return gpuId -> {
      Gpu g = cluster.gpu(gpuId);
      int b = freeBlock.getOrDefault(g.node() + '\u0000' + g.type(), 0) + (state.isFree(gpuId) ? 0 : 1);
      return (2.0 * b - 1) / norm;
    };
  }
}
