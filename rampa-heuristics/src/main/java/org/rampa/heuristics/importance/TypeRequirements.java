package org.rampa.heuristics.importance;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Link;
import org.rampa.domain.ServiceRequest;
import org.rampa.heuristics.importance.FreeCapacity.NodeBlock;
import org.rampa.heuristics.importance.FreeCapacity.TypeCapacity;

/**
 * How many GPUs of each type one service needs on its own in an empty cluster: the fewest GPUs of
 * a single-type layout on one node (that node's link at every cut) or spread over the type's nodes
 * (the slowest link at every cut). Types that cannot serve the request are absent. State-independent.
 */
final class TypeRequirements {
  private TypeRequirements() {}

  /** GPU type name → fewest GPUs of that type that serve {@code request}, for types that can. */
  static Map<String, Integer> of(ServiceRequest request, Cluster cluster, FreeCapacity whole, SingleTypeLayouts layouts) {
    Map<String, Integer> need = new LinkedHashMap<>();
    for (TypeCapacity type : whole.types()) {
      int best = Integer.MAX_VALUE;
      Map<Link, Integer> largestBlock = new HashMap<>();
      for (NodeBlock block : type.blocksBySize()) {
        largestBlock.merge(block.node().intraLink(), block.freeGpus().size(), Math::max);
      }
      for (Map.Entry<Link, Integer> e : largestBlock.entrySet()) {
        Optional<StageLayout> l = layouts.fewestGpus(request, type.type(), e.getKey(), type.total());
        if (l.isPresent() && l.get().gpus() <= e.getValue()) {
          best = Math.min(best, l.get().gpus());
        }
      }
      if (type.blocksBySize().size() >= 2) {
        Optional<StageLayout> l = layouts.fewestGpus(request, type.type(), type.worstCutLink(), type.total());
        if (l.isPresent()) {
          best = Math.min(best, l.get().gpus());
        }
      }
      if (best != Integer.MAX_VALUE) {
        need.put(type.type().name(), best);
      }
    }
    return need;
  }

  /** The whole cluster as free capacity: every GPU free. */
  static FreeCapacity whole(Cluster cluster) {
    return FreeCapacity.of(ClusterState.empty(cluster));
  }
}
