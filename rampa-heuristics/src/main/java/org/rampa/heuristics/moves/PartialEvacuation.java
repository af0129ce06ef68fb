package org.rampa.heuristics.moves;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveSpace;

/**
 * The openings of partial evacuation: ways to make room on one partly held GPU by moving one or two
 * of its tenants off it (and, on a MIG GPU, re-cutting its free part after), without emptying it.
 * The full evacuation of {@link GreedyMover} only considers GPUs it can empty within the budget; on
 * a crowded cluster (MPS GPUs with many tenants, MIG GPUs with a tenant per instance) none is, while
 * one migration off such a GPU often frees the piece a refused newcomer needs (E4's refusal
 * breakdown, docs/vastpipe-e4.md).
 *
 * <p>Each opening has a <em>room</em>, comparable among openings of one GPU type and kind (its
 * {@link Opening#key}): on a GPU without a MIG layout the compute share left free once the tenants
 * are gone (1 when none is left); on a MIG GPU the memory slices of the largest instance nobody
 * holds then (after the re-cut, if any). The mover finds, per key, the least room at which the
 * newcomer fits by a few probes (assuming more room never hurts), and moves only where the room
 * reaches it, smallest excess first: the tenants whose departure frees about the room the newcomer
 * needs, not more.
 */
final class PartialEvacuation {

  private PartialEvacuation() {}

  /**
   * Move {@code moved} (replicas on {@code gpu}) off {@code gpu}, then re-cut it to {@code recutTo}
   * unless that is empty; {@code room} as above, {@code movedShare} the compute the moved replicas
   * take on {@code gpu} (less is easier to place elsewhere), {@code position} the GPU's place in the
   * cluster.
   */
  record Opening(String gpu, String key, List<GreedyMover.Replica> moved, List<MigSlice> recutTo, double room, int moves, double price,
      double movedShare, int position) {

    /** The services moved, in order. */
    List<String> services() {
      return moved.stream().map(GreedyMover.Replica::service).distinct().toList();
    }
  }

  /**
   * Every opening of {@code s} within {@code budget} moves that adds room to its GPU: for each partly
   * held GPU, each tenant admitted with its request and each pair of them (when the budget allows),
   * all their replicas on it moved; on a MIG GPU also with one re-cut after, to the maximal layout
   * keeping the instances still held that offers the largest free instance (when it is larger than
   * without the re-cut). In cluster order, then tenant order.
   */
  static List<Opening> openings(ClusterState s, int budget, MoveCosts costs) {
    List<Opening> out = new ArrayList<>();
    List<Gpu> gpus = s.cluster().gpus();
    for (int i = 0; i < gpus.size(); i++) {
      String g = gpus.get(i).id();
      List<Holding> on = s.holdingsOn(g);
      if (on.isEmpty()) {
        continue;
      }
      Map<String, List<GreedyMover.Replica>> byService = new LinkedHashMap<>();
      for (GreedyMover.Replica r : GreedyMover.replicas(s, g)) {
        byService.computeIfAbsent(r.service(), k -> new ArrayList<>()).add(r);
      }
      List<String> movable = s.servicesOn(g).stream()
          .filter(id -> s.allocations().get(id).request().isPresent() && byService.containsKey(id)).toList();
      for (int a = 0; a < movable.size(); a++) {
        add(s, g, i, List.of(movable.get(a)), byService, budget, costs, out);
        for (int b = a + 1; budget >= 2 && b < movable.size(); b++) {
          add(s, g, i, List.of(movable.get(a), movable.get(b)), byService, budget, costs, out);
        }
      }
    }
    return out;
  }

  private static void add(ClusterState s, String g, int position, List<String> gone, Map<String, List<GreedyMover.Replica>> byService, int budget,
      MoveCosts costs, List<Opening> out) {
    List<GreedyMover.Replica> moved = new ArrayList<>();
    gone.forEach(id -> moved.addAll(byService.get(id)));
    if (moved.size() > budget) {
      return;
    }
    List<Holding> left = new ArrayList<>();
    double movedShare = 0;
    for (String id : s.servicesOn(g)) {
      for (Holding h : s.allocations().get(id).holdings()) {
        if (!h.gpu().equals(g)) {
          continue;
        }
        if (gone.contains(id)) {
          movedShare += s.computeFraction(h);
        } else {
          left.add(h);
        }
      }
    }
    String type = s.cluster().gpu(g).type();
    double price = moved.size() * costs.migration();
    List<MigSlice> layout = s.migLayout(g);
    if (layout.isEmpty()) {
      double held = left.stream().mapToDouble(s::computeFraction).sum();
      out.add(new Opening(g, type, List.copyOf(moved), List.of(), Math.max(0, 1 - held), moved.size(), price, movedShare, position));
      return;
    }
    MigGeometry geometry = s.partitioning(g).requireMig();
    List<MigSlice> kept = left.stream().map(h -> MigLayout.instanceOf(h.placement())).distinct().toList();
    Set<MigSlice> keptSet = Set.copyOf(kept);
    Set<MigSlice> heldNow = Set.copyOf(s.holdingsOn(g).stream().map(h -> MigLayout.instanceOf(h.placement())).toList());
    int now = GreedyMover.largestFree(geometry, layout, heldNow);
    int freed = GreedyMover.largestFree(geometry, layout, keptSet);
    String key = type + " mig";
    if (freed > now) {
      out.add(new Opening(g, key, List.copyOf(moved), List.of(), freed, moved.size(), price, movedShare, position));
    }
    if (moved.size() < budget) {
      List<MigSlice> best = List.of();
      int most = freed;
      for (List<MigSlice> to : MoveSpace.maximalLayouts(geometry, kept)) {
        int f = GreedyMover.largestFree(geometry, to, keptSet);
        if (f > most) {
          most = f;
          best = to;
        }
      }
      if (!best.isEmpty()) {
        out.add(new Opening(g, key, List.copyOf(moved), best, most, moved.size() + 1, price + costs.recut(), movedShare, position));
      }
    }
  }

  /**
   * The openings grouped by key, each group's distinct rooms in increasing order, each with its
   * representative: the cheapest opening of that room (then the first in cluster order). Groups in
   * the order their first opening appears.
   */
  static Map<String, List<Opening>> representatives(List<Opening> openings) {
    Map<String, TreeMap<Long, Opening>> byKey = new LinkedHashMap<>();
    Comparator<Opening> cheaper = Comparator.comparingDouble(Opening::price).thenComparingInt(Opening::position);
    for (Opening o : openings) {
      // rooms equal up to rounding are one room: shares like 1/3 summed in different orders
      byKey.computeIfAbsent(o.key(), k -> new TreeMap<>()).merge(Math.round(o.room() * 1e6), o, (x, y) -> cheaper.compare(y, x) < 0 ? y : x);
    }
    Map<String, List<Opening>> out = new LinkedHashMap<>();
    byKey.forEach((k, rooms) -> out.put(k, List.copyOf(rooms.values())));
    return out;
  }
}
