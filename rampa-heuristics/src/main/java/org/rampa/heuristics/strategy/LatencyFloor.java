package org.rampa.heuristics.strategy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageCursor;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.strategy.support.StageFloor;

/**
 * A cheap proof, with sharing on, that no GPU set of the shared-slot menu meets the latency bound,
 * found before the menu is built: on a full cluster the menu (every partly held GPU's levels, α
 * and incumbents' budget) and the refused candidate sets are most of a refusal's time.
 *
 * <p><b>The kinds.</b> Read from the capacity alone, a superset of the shapes any menu slot of this
 * state can have: on a type with a free GPU the whole GPU and every menu level (the free GPUs'
 * menu); on MPS GPUs the menu levels no larger than the most compute free on a GPU of the type; every
 * free MIG instance's profile. The menu's other filters (client limit, memory cap, top-k, an
 * incumbents' budget of 0) only remove slots.
 *
 * <p><b>The floor.</b> Every stage of a menu plan runs on one of those kinds and takes its time
 * alone there ({@link StageCursor#seconds}) times α ≥ 1, and the plan's latency adds the batching
 * wait and transfers ≥ 0 ({@code PerformanceModel.estimate}); so the least, over splits into at
 * most maxStages contiguous stages each on the kind fastest for it whose memory holds it, of the
 * stages' times alone, plus the batching wait, bounds every menu plan's latency from below. No
 * monotonicity of shares is assumed: each kind is timed as it is. When it misses the bound, the
 * search would evaluate every candidate set and keep none. Not a proof beyond the menu (other MPS
 * fractions, a re-cut), so greedy still answers {@code NO_PLAN_FOUND}.
 *
 * <p>Clusters offering CU masks or NPU templates on partly used devices are not read (no floor):
 * their slots are not derived here.
 */
final class LatencyFloor {
  private LatencyFloor() {}

  /** Why no menu plan can meet the latency bound, or empty when the floor does not prove it (or is not defined here). */
  static Optional<String> refusal(PlacementContext c, SharingOptions sharing) {
    Map<String, DeviceKind> kinds = kinds(c, sharing);
    if (kinds == null || kinds.isEmpty()) {
      return Optional.empty(); // no kinds: the search answers at once, with its usual reason
    }
    double compute = floorSeconds(c, kinds);
    double wait = c.request.slo().batchingWaitSeconds();
    if (SloPredicate.meetsLatency(compute + wait, c.request.slo())) {
      return Optional.empty();
    }
    String latency = Double.isInfinite(compute) ? "no split of the model into at most " + Math.min(c.request.maxStages(), c.model.size())
        + " stages fits the memory of these kinds" : String.format("latency floor %.4g s > bound %.4g s: one batch of %d needs %.4g s of compute%s",
        compute + wait, c.request.slo().latencyBoundSeconds(), c.batch, compute, wait > 0 ? String.format(" plus %.4g s batching wait", wait) : "");
    return Optional.of("no GPU set of the sharing menu can meet the latency bound, no set tried: " + latency
        + ", with every stage alone (no slowdown) on its fastest placement kind offered anywhere on this state " + kinds.keySet()
        + " and transfers free (a bound over the menu's kinds, not a proof beyond the menu)");
  }

  /**
   * The floor itself, batching wait included: at most the latency of every plan greedy's search can
   * find with sharing on; NaN where it is not defined (CU masks or templates on the menu, or no kind).
   */
  static double latencySeconds(PlacementContext c, SharingOptions sharing) {
    Map<String, DeviceKind> kinds = kinds(c, sharing);
    return kinds == null || kinds.isEmpty() ? Double.NaN : floorSeconds(c, kinds) + c.request.slo().batchingWaitSeconds();
  }

  /** The kinds by shape ({@link SharedSlotMenu#shapeOf}), or null where CU masks or templates would be on the menu. */
  private static Map<String, DeviceKind> kinds(PlacementContext c, SharingOptions sharing) {
    ClusterState state = c.problem.state();
    Cluster cluster = c.cluster;
    Capacity capacity = state.capacity();
    if (!capacity.freeTemplateCores().isEmpty()) {
      return null;
    }
    Map<String, DeviceKind> kinds = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> e : capacity.countByType().entrySet()) {
      GpuType type = cluster.type(e.getKey());
      GpuPartitioning parts = type.partitioning();
      if (e.getValue() == 0) {
        continue;
      }
      if (!parts.templates().isEmpty() || (!parts.mps() && parts.computeUnits() > 0)) {
        return null;
      }
      add(kinds, type, new Whole());
      if (parts.mps()) {
        for (double level : sharing.mpsLevels()) {
          add(kinds, type, new MpsShare(level, type.memoryBytes()));
        }
      }
    }
    // the most compute free on an MPS GPU of each type: the menu offers a level there only if it fits
    Map<String, Double> mostFree = new HashMap<>();
    for (Map.Entry<String, Double> e : capacity.freeMpsShares().entrySet()) {
      mostFree.merge(cluster.gpu(e.getKey()).type(), e.getValue(), Math::max);
    }
    for (Map.Entry<String, Double> e : mostFree.entrySet()) {
      GpuType type = cluster.type(e.getKey());
      if (!type.partitioning().mps()) {
        return null; // CU masks
      }
      for (double level : sharing.mpsLevels()) {
        MpsShare p = new MpsShare(level, type.memoryBytes());
        if (p.computeFraction(type.partitioning()) <= e.getValue()) {
          add(kinds, type, p);
        }
      }
    }
    // the distinct free instances per type first: hundreds of MIG GPUs offer a few dozen instances
    Map<String, Set<MigSlice>> instances = new LinkedHashMap<>();
    for (Map.Entry<String, List<MigSlice>> e : capacity.freeMigInstances().entrySet()) {
      instances.computeIfAbsent(cluster.gpu(e.getKey()).type(), t -> new LinkedHashSet<>()).addAll(e.getValue());
    }
    instances.forEach((typeName, free) -> {
      GpuType type = cluster.type(typeName);
      free.forEach(instance -> add(kinds, type, instance));
    });
    return kinds;
  }

  private static void add(Map<String, DeviceKind> kinds, GpuType type, Placement p) {
    String shape = p instanceof Whole ? type.name() : SharedSlotMenu.shapeOf(type, p);
    kinds.computeIfAbsent(shape, s -> DeviceKind.of(type, p));
  }

  /** The least compute of at most maxStages contiguous stages, each alone on one of {@code kinds} that holds its memory. */
  static double floorSeconds(PlacementContext c, Map<String, DeviceKind> kinds) {
    int n = c.model.size();
    // the fastest kind for each stage [i, j): the DP then splits over stages alone
    double[][] fastest = new double[n][n + 1];
    for (double[] row : fastest) {
      Arrays.fill(row, Double.POSITIVE_INFINITY);
    }
    for (Map.Entry<String, DeviceKind> k : kinds.entrySet()) {
      double[][] t = c.stageSecondsAlone(k.getKey(), k.getValue());
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j <= n; j++) {
          fastest[i][j] = Math.min(fastest[i][j], t[i][j]);
        }
      }
    }
    return StageFloor.leastSeconds(fastest, c.request.maxStages());
  }

}
