package org.rampa.heuristics.importance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Node;

/**
 * Whole free GPUs of a state, grouped for placement: per GPU type, the nodes that have some
 * (ordered by how many they have free, fewest first, so best-fit is the first that is big enough),
 * and the most pessimistic link a plan spread over that type's nodes can meet. Built in one pass
 * over the GPUs.
 */
final class FreeCapacity {

  /** Free GPUs of one type on one node. */
  record NodeBlock(Node node, List<String> freeGpus) {}

  /** Everything about one GPU type. */
  record TypeCapacity(GpuType type, List<NodeBlock> blocksBySize, int free, int total, Link worstCutLink) {}

  private final ClusterState state;
  private final List<TypeCapacity> types;

  private FreeCapacity(ClusterState state, List<TypeCapacity> types) {
    this.state = state;
    this.types = types;
  }

  ClusterState state() {
    return state;
  }

  List<TypeCapacity> types() {
    return types;
  }

  static FreeCapacity of(ClusterState state) {
    Cluster cluster = state.cluster();
    Map<String, Map<String, List<String>>> freeByTypeAndNode = new LinkedHashMap<>();
    Map<String, Integer> totals = new LinkedHashMap<>();
    Map<String, List<Link>> linksByType = new LinkedHashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      freeByTypeAndNode.put(t.name(), new LinkedHashMap<>());
      totals.put(t.name(), 0);
      linksByType.put(t.name(), new ArrayList<>(List.of(cluster.network())));
    }
    String lastNode = null;
    String lastType = null;
    Capacity capacity = state.capacity();
    for (Gpu g : cluster.gpus()) {
      totals.merge(g.type(), 1, Integer::sum);
      if (!g.node().equals(lastNode) || !g.type().equals(lastType)) {
        Link intra = cluster.node(g.node()).intraLink();
        List<Link> links = linksByType.get(g.type());
        if (!links.contains(intra)) {
          links.add(intra);
        }
        lastNode = g.node();
        lastType = g.type();
      }
      if (capacity.contains(g.id())) {
        freeByTypeAndNode.get(g.type()).computeIfAbsent(g.node(), n -> new ArrayList<>()).add(g.id());
      }
    }
    List<TypeCapacity> types = new ArrayList<>();
    for (GpuType t : cluster.gpuTypes()) {
      List<NodeBlock> blocks = new ArrayList<>();
      int free = 0;
      for (Map.Entry<String, List<String>> e : freeByTypeAndNode.get(t.name()).entrySet()) {
        blocks.add(new NodeBlock(cluster.node(e.getKey()), List.copyOf(e.getValue())));
        free += e.getValue().size();
      }
      blocks.sort(Comparator.comparingInt(b -> b.freeGpus().size())); // stable: cluster order among equals
      types.add(new TypeCapacity(t, List.copyOf(blocks), free, totals.get(t.name()), slowest(linksByType.get(t.name()))));
    }
    return new FreeCapacity(state, List.copyOf(types));
  }

  /** The same capacity with whole free GPU {@code gpuId} taken (its state() stays the original). */
  FreeCapacity without(String gpuId) {
    String type = state.cluster().gpu(gpuId).type();
    String node = state.cluster().gpu(gpuId).node();
    List<TypeCapacity> changed = new ArrayList<>(types.size());
    for (TypeCapacity t : types) {
      if (!t.type().name().equals(type)) {
        changed.add(t);
        continue;
      }
      List<NodeBlock> blocks = new ArrayList<>(t.blocksBySize().size());
      boolean found = false;
      for (NodeBlock b : t.blocksBySize()) {
        if (b.node().id().equals(node) && b.freeGpus().contains(gpuId)) {
          found = true;
          List<String> rest = new ArrayList<>(b.freeGpus());
          rest.remove(gpuId);
          if (!rest.isEmpty()) {
            blocks.add(new NodeBlock(b.node(), List.copyOf(rest)));
          }
        } else {
          blocks.add(b);
        }
      }
      if (!found) {
        throw new IllegalArgumentException("GPU " + gpuId + " is not whole and free in this state");
      }
      blocks.sort(Comparator.comparingInt(b -> b.freeGpus().size()));
      changed.add(new TypeCapacity(t.type(), List.copyOf(blocks), t.free() - 1, t.total(), t.worstCutLink()));
    }
    return new FreeCapacity(state, List.copyOf(changed));
  }

  /** A link no faster than any of {@code links}: least bandwidth, most latency. */
  static Link slowest(List<Link> links) {
    if (links.size() == 1) {
      return links.get(0);
    }
    double bandwidth = Double.POSITIVE_INFINITY;
    Duration latency = Duration.ZERO;
    for (Link l : links) {
      bandwidth = Math.min(bandwidth, l.bandwidthBytesPerSecond());
      latency = latency.compareTo(l.latency()) >= 0 ? latency : l.latency();
    }
    for (Link l : links) {
      if (l.bandwidthBytesPerSecond() == bandwidth && l.latency().equals(latency)) {
        return l;
      }
    }
    return Link.of("slowest-of-" + links.size(), bandwidth, latency);
  }
}
