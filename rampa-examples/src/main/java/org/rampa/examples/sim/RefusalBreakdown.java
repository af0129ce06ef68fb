package org.rampa.examples.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;

/**
 * Why an arrival was refused, in terms a mover could act on (issue 25): what the class needs alone
 * on one GPU ({@link StrandedCapacity#needs}: several GPUs, a whole GPU, or a part of one) and the
 * fewest moves after which some GPU of the state would have that room by the same alone-test: 0
 * (room is free now: the planner refused for what the test ignores, co-runners' interference on
 * the newcomer or the incumbents, the MPS contexts' memory), 1, 2, or more. Moves are counted as the
 * movers count them: a migration per service moved off the GPU, one re-cut of a MIG GPU's free
 * instances, one mode change to take a MIG GPU out of MIG mode once it is empty. Where the moved
 * services would go, and whether they would keep their SLOs there, is asked only of a single move:
 * "1-relocatable" when some tenant whose move alone makes the room has room on another GPU itself
 * (by the same alone-test, with no move), "1-stuck" when none has. Otherwise the count is a lower
 * bound on what a mover needs.
 */
public final class RefusalBreakdown {

  /** Moves counted up to this; more is reported as "&gt;2". */
  static final int MAX_COUNTED = 2;

  private final StrandedCapacity test;

  public RefusalBreakdown(StrandedCapacity test) {
    this.test = test;
  }

  /**
   * One refused arrival of class {@code template} on {@code state}: "class|demand|smallest piece|moves to room";
   * {@code classOf} gives the class of each service holding GPUs (null when unknown: it is taken as having no room elsewhere).
   */
  public String classify(ClusterState state, ServiceRequest template, java.util.function.Function<String, ServiceRequest> classOf) {
    Map<String, StrandedCapacity.ClassNeed> needs = test.needs(template);
    if (needs.isEmpty()) {
      return String.join("|", template.id(), "multi-gpu", "-", "-");
    }
    double smallest = needs.values().stream().mapToDouble(StrandedCapacity.ClassNeed::smallestPiece).min().orElseThrow();
    int fewest = MAX_COUNTED + 1;
    for (Gpu g : state.cluster().gpus()) {
      StrandedCapacity.ClassNeed need = needs.get(g.type());
      if (need != null) {
        fewest = Math.min(fewest, movesToRoom(state, g.id(), need));
      }
    }
    String moves = fewest > MAX_COUNTED ? ">" + MAX_COUNTED
        : fewest == 1 ? (relocatable(state, needs, classOf) ? "1-relocatable" : "1-stuck") : Integer.toString(fewest);
    return String.join("|", template.id(), smallest >= 1 - 1e-9 ? "whole-gpu" : "part-gpu", String.format(Locale.ROOT, "%.3f", smallest),
        moves);
  }

  /** True when some tenant whose move alone gives a GPU room for {@code needs} has room, with no move, on another GPU. */
  private boolean relocatable(ClusterState state, Map<String, StrandedCapacity.ClassNeed> needs,
      java.util.function.Function<String, ServiceRequest> classOf) {
    for (Gpu g : state.cluster().gpus()) {
      StrandedCapacity.ClassNeed need = needs.get(g.type());
      if (need == null) {
        continue;
      }
      for (String tenant : state.servicesOn(g.id())) {
        ServiceRequest c = classOf.apply(tenant);
        if (c == null || movesToRoom(state, g.id(), need, java.util.Set.of(tenant)) != 0) {
          continue;
        }
        Map<String, StrandedCapacity.ClassNeed> its = test.needs(c);
        for (Gpu other : state.cluster().gpus()) {
          StrandedCapacity.ClassNeed n = its.get(other.type());
          if (n != null && !other.id().equals(g.id()) && movesToRoom(state, other.id(), n) == 0) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The fewest moves (at most {@link #MAX_COUNTED} + 1) after which {@code gpu} has room for {@code need}. */
  static int movesToRoom(ClusterState state, String gpu, StrandedCapacity.ClassNeed need) {
    return movesToRoom(state, gpu, need, java.util.Set.of());
  }

  /** As {@link #movesToRoom(ClusterState, String, StrandedCapacity.ClassNeed)}, the services {@code gone} moved off already. */
  private static int movesToRoom(ClusterState state, String gpu, StrandedCapacity.ClassNeed need, java.util.Set<String> gone) {
    Map<String, List<Holding>> byService = new LinkedHashMap<>();
    for (String id : state.servicesOn(gpu)) {
      if (!gone.contains(id)) {
        byService.put(id, state.allocations().get(id).holdings().stream().filter(h -> h.gpu().equals(gpu)).toList());
      }
    }
    List<Holding> on = byService.values().stream().flatMap(List::stream).toList();
    List<MigSlice> layout = state.migLayout(gpu);
    GpuPartitioning p = state.partitioning(gpu);
    // emptied, the GPU serves the class whole (the type serves it); out of MIG mode costs one more
    int best = byService.size() + (layout.isEmpty() ? 0 : 1);
    if (layout.isEmpty()) {
      if (!on.isEmpty() && !Double.isNaN(need.mpsLevel()) && on.stream().noneMatch(h -> h.placement() instanceof org.rampa.domain.share.Whole)) {
        best = Math.min(best, mpsMoves(state, p, byService, need));
      }
      return Math.min(best, MAX_COUNTED + 1);
    }
    if (need.migProfiles().isEmpty()) {
      return Math.min(best, MAX_COUNTED + 1);
    }
    // k tenants moved off: a serving instance among the unheld ones is room after k moves; a re-cut of them after k + 1
    List<String> tenants = new ArrayList<>(byService.keySet());
    for (int k = 0; k < Math.min(best, MAX_COUNTED + 1) && k <= tenants.size(); k++) {
      best = Math.min(best, fewestAfter(p, layout, byService, tenants, k, 0, new ArrayList<>(), need));
    }
    return Math.min(best, MAX_COUNTED + 1);
  }

  /**
   * The fewest moves, over the ways to move {@code k} more of {@code tenants} (from {@code from} on) off besides
   * {@code gone}: k when an unheld instance then serves, k + 1 when a re-cut of the unheld slices makes one that does,
   * else more than the budget counted.
   */
  private static int fewestAfter(GpuPartitioning p, List<MigSlice> layout, Map<String, List<Holding>> byService, List<String> tenants,
      int k, int from, List<String> gone, StrandedCapacity.ClassNeed need) {
    if (k == 0) {
      List<MigSlice> held = new ArrayList<>();
      byService.forEach((id, hs) -> {
        if (!gone.contains(id)) {
          for (Holding h : hs) {
            if (h.placement() instanceof MigSlice m) {
              held.add(m);
            } else if (h.placement() instanceof MigSliceMps m) {
              held.add(m.slice());
            }
          }
        }
      });
      if (layout.stream().anyMatch(s -> !held.contains(s) && need.migProfiles().contains(s.profile()))) {
        return gone.size();
      }
      MigLayout kept = MigLayout.of(p.requireMig(), held.stream().distinct().toList());
      for (String name : need.migProfiles()) {
        MigProfile profile = p.requireMig().profile(name);
        for (int start : profile.allowedStarts()) {
          if (kept.fits(profile, start)) {
            return gone.size() + 1;
          }
        }
      }
      return MAX_COUNTED + 1;
    }
    int fewest = MAX_COUNTED + 1;
    for (int i = from; i < tenants.size(); i++) {
      gone.add(tenants.get(i));
      fewest = Math.min(fewest, fewestAfter(p, layout, byService, tenants, k - 1, i + 1, gone, need));
      gone.remove(gone.size() - 1);
    }
    return fewest;
  }

  /** Tenants of an MPS GPU to move, largest share first, until the compute and memory left take the class's level. */
  private static int mpsMoves(ClusterState state, GpuPartitioning p, Map<String, List<Holding>> byService, StrandedCapacity.ClassNeed need) {
    List<double[]> shares = new ArrayList<>(); // compute fraction, memory bytes, per tenant
    double free = 1;
    long memoryLeft = p.memoryBytes();
    for (List<Holding> hs : byService.values()) {
      double c = 0;
      long m = 0;
      for (Holding h : hs) {
        c += state.computeFraction(h);
        m += MpsAdmission.reservedBytes(p, h.placement());
      }
      shares.add(new double[] {c, m});
      free -= c;
      memoryLeft -= m;
    }
    shares.sort((a, b) -> Double.compare(b[0], a[0]));
    int clients = byService.size();
    for (int moved = 0; moved <= shares.size(); moved++) {
      if (p.mpsCopiesFitting(free, clients, need.mpsLevel()) >= 1
          && memoryLeft >= MpsAdmission.reservedBytes(p, new MpsShare(need.mpsLevel(), need.memoryBytes()))) {
        return moved;
      }
      if (moved < shares.size()) {
        free += shares.get(moved)[0];
        memoryLeft += (long) shares.get(moved)[1];
        clients--;
      }
    }
    return shares.size();
  }
}
