package org.rampa.heuristics.moves;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.Node;
import org.rampa.domain.share.MigSlice;

/**
 * The part of a state around a few GPUs, as a state of its own: those GPUs, closed under "a service
 * holding one of them holds these too", and every GPU nobody holds, with every service on them and
 * their MIG layouts. Every
 * GPU in it carries exactly its holdings in the full state (no service holding one of them is left
 * out, by the closure), so a plan placed there on its GPUs is checked against the same co-runners,
 * memory, modes and layouts as in the full state. It leaves out every other GPU: a probe placed
 * here sees only plans that use nothing but these GPUs (a plan combining one of them with a partly
 * held GPU elsewhere is missed).
 *
 * <p>Why: on a full 1000-GPU cluster one placement that refuses costs ~15 ms (it tries every
 * candidate GPU set); after a refused placement only the GPUs a move changed gain room, so the
 * mover probes those (and what the closure adds) on a few-GPU state and places on the full state
 * only once a probe finds a plan.
 */
final class Neighbourhood {

  private Neighbourhood() {}

  /** The state around {@code gpus} (ids of {@code state}'s cluster), or {@code state} itself when the closure is most of the cluster. */
  static ClusterState around(ClusterState state, Collection<String> gpus) {
    Cluster c = state.cluster();
    Set<String> closed = new HashSet<>();
    Map<String, Allocation> services = new LinkedHashMap<>();
    boolean spanning = false;
    Deque<String> todo = new ArrayDeque<>(gpus);
    while (!todo.isEmpty()) {
      String g = todo.pop();
      if (!closed.add(g)) {
        continue;
      }
      for (String id : state.servicesOn(g)) {
        Allocation a = state.allocations().get(id);
        if (services.putIfAbsent(id, a) == null) {
          for (Holding h : a.holdings()) {
            spanning |= !h.gpu().equals(g);
            todo.push(h.gpu());
          }
        }
      }
    }
    // GPUs nobody holds join, alone (no service to close over): a plan of several stages or replicas
    // may combine a GPU a move freed with free GPUs elsewhere
    for (Gpu g : state.gpusNobodyHolds()) {
      closed.add(g.id());
    }
    // placing on a sub-state saves work only when it is a small part of the cluster
    if (2 * closed.size() > c.gpus().size()) {
      return state;
    }
    // kept in cluster order: marked by position, not looked up by id for every GPU of the cluster
    boolean[] in = new boolean[c.gpus().size()];
    for (String id : closed) {
      int i = c.indexOf(id);
      if (i >= 0) {
        in[i] = true;
      }
    }
    List<Gpu> kept = new ArrayList<>();
    Set<String> nodeIds = new HashSet<>();
    for (int i = 0; i < in.length; i++) {
      if (in[i]) {
        Gpu g = c.gpus().get(i);
        kept.add(g);
        nodeIds.add(g.node());
      }
    }
    List<Node> nodes = c.nodes().stream().filter(n -> nodeIds.contains(n.id())).toList();
    Cluster sub = Cluster.builder().gpuTypes(c.gpuTypes()).nodes(nodes).gpus(kept).network(c.network()).build();
    Map<String, List<MigSlice>> layouts = new LinkedHashMap<>();
    for (Gpu g : kept) {
      if (!state.migLayout(g.id()).isEmpty()) {
        layouts.put(g.id(), state.migLayout(g.id()));
      }
    }
    // each GPU's holdings in ledger order, as the full state lists them (co-runner order can matter
    // to a placer): the services of one GPU were found in that order, so only services spanning
    // several GPUs need the ledger's own order
    Map<String, Allocation> ordered = services;
    if (spanning) {
      ordered = new LinkedHashMap<>();
      for (Map.Entry<String, Allocation> e : state.allocations().entrySet()) {
        if (services.containsKey(e.getKey())) {
          ordered.put(e.getKey(), e.getValue());
        }
      }
    }
    return ImmutableClusterState.builder().cluster(sub).allocations(ordered).migLayouts(layouts).mpsOvercommit(state.mpsOvercommit())
        .version(state.version()).build();
  }
}
