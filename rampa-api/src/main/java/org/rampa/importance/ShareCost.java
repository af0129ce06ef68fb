package org.rampa.importance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;
import org.rampa.strategy.SharingOptions;

/**
 * The cost of taking a placement on a GPU (docs/SHARING.md section 4):
 * {@code importance(gpu) × shareEquivalent + λ × fragmentation}.
 *
 * <p><b>Fragmentation</b> (FGD-style, Weng et al., ATC 2023) is the free capacity of the GPU, in
 * share equivalents, that the forecast's demand could use before the holding and no longer can
 * after it — the room the holding strands, beyond the part it occupies itself. The GPU's menu has
 * one entry per profile: the whole GPU, every MIG profile of its type and, on MPS types, every
 * MPS level the decision's menu offers ({@link SharingOptions#mpsLevels()}: a holding strands room
 * for the levels a planner may take, not for levels it never offers). For each entry k,
 * its usable capacity is the most placements of k that can still be created side by side next to
 * what is held, times k's share equivalent (the whole GPU: 1 while nothing is held; a MIG profile:
 * non-overlapping allowed starts within the compute slices left, while no contended holding runs;
 * an MPS level ℓ: ⌊free / ℓ⌋ copies within the client limit, while no MIG instance runs); what
 * the GPU has free beyond it is stranded for k. Fragmentation is the demand-weighted mean over
 * entries of the stranded capacity after the holding less before it, and never below 0 (a holding
 * that fills a fragment costs its share equivalent, no less).
 *
 * <p>So {@code 3g@0}, which kills the only 4g placement, costs more than {@code 3g@4}; 0.2 MPS of
 * an empty GPU (which strands its room for the whole GPU and for MIG) more than 0.2 of a half-used
 * one; and a share never costs more than the whole GPU when the GPU had nothing stranded: it strands
 * at most the room it leaves. Taking the whole GPU strands nothing (nothing is left free), so it
 * costs exactly its importance.
 */
public final class ShareCost {

  /** The menu entry for taking the whole GPU, as a key of the demand map. */
  public static final String WHOLE = "whole";


  private final double lambda;
  private final Map<String, Double> demand;
  private final List<Double> mpsLevels;

  /**
   * @param lambda the weight of fragmentation against importance, ≥ 0
   * @param demand forecast demand per menu entry: {@link #WHOLE}, a MIG profile name, or
   *     {@link #mpsEntry}; absent entries weigh 1
   * @param mpsLevels the MPS levels of the menu on MPS types, each in (0, 1) (the decision's
   *     {@link SharingOptions#mpsLevels()})
   */
  public ShareCost(double lambda, Map<String, Double> demand, List<Double> mpsLevels) {
    Invalid.requireFiniteNonNegative("shareCost.lambda", lambda);
    demand.forEach((k, v) -> Invalid.requireFiniteNonNegative("shareCost.demand[" + k + "]", v));
    for (double level : mpsLevels) {
      if (!(level > 0 && level < 1)) {
        throw Invalid.value("shareCost.mpsLevels", level, "every level must lie in (0, 1)");
      }
    }
    this.lambda = lambda;
    this.demand = Map.copyOf(demand);
    this.mpsLevels = List.copyOf(mpsLevels);
  }

  /** The demand map's key for MPS level {@code level} on GPU type {@code gpuType}: whether a class meets its SLO there depends on both. */
  public static String mpsEntry(String gpuType, double level) {
    return gpuType + " mps " + level;
  }

  private double weight(String entry) {
    return demand.getOrDefault(entry, 1.0);
  }

  /** {@code importance × shareEquivalent + λ × fragmentation} of {@code placement} on {@code gpu}. */
  public double of(ClusterState state, GpuCosts costs, String gpu, Placement placement) {
    double equivalent = placement.shareEquivalent(state.partitioning(gpu));
    return costs.of(gpu) * equivalent + lambda * fragmentation(state, gpu, placement);
  }

  /**
   * The free capacity, in share equivalents of the GPU, that taking {@code placement} strands for the
   * forecast's demand (demand-weighted over the menu's entries, after less before); in [0, 1].
   */
  public double fragmentation(ClusterState state, String gpu, Placement placement) {
    GpuPartitioning parts = state.partitioning(gpu);
    Room before = Room.of(state, gpu, parts);
    Room after = before.with(placement, parts);
    String type = state.cluster().typeOf(gpu).name();
    double total = weight(WHOLE);
    double stranded = weight(WHOLE) * (after.strandedForWhole() - before.strandedForWhole());
    if (parts.mig().isPresent()) {
      MigGeometry geometry = parts.mig().get();
      for (MigProfile p : geometry.profiles()) {
        double w = weight(p.name());
        total += w;
        stranded += w * (after.strandedForMig(geometry, p) - before.strandedForMig(geometry, p));
      }
    }
    if (parts.mps()) {
      for (double level : mpsLevels) {
        double w = weight(mpsEntry(type, level));
        total += w;
        stranded += w * (after.strandedForMps(parts, level) - before.strandedForMps(parts, level));
      }
    }
    return total > 0 ? Math.max(0, stranded / total) : 0;
  }

  /**
   * What is held on one GPU, as the menu sees it: the free share equivalent, the memory slices and
   * compute slices of held MIG instances, and the number of contended holdings (MPS, CU masks,
   * templates, the whole GPU), which rule out MIG. A whole holding leaves nothing free, so nothing
   * can be stranded beside it.
   */
  private record Room(double free, List<int[]> migSlices, int migComputeSlices, int contended) {

    static Room of(ClusterState state, String gpu, GpuPartitioning parts) {
      Room room = new Room(1, List.of(), 0, 0);
      for (Holding h : state.holdingsOn(gpu)) {
        room = room.with(h.placement(), parts);
      }
      return room;
    }

    Room with(Placement p, GpuPartitioning parts) {
      if (p instanceof MigSlice || p instanceof MigSliceMps) {
        MigSlice s = MigLayout.instanceOf(p);
        MigProfile profile = parts.requireMig().profile(s.profile());
        int[] slice = {s.start(), s.start() + profile.memorySlices()};
        if (migSlices.stream().anyMatch(h -> h[0] == slice[0] && h[1] == slice[1])) {
          return this; // another MPS process inside an instance already held: the instance is taken once
        }
        List<int[]> slices = new ArrayList<>(migSlices);
        slices.add(slice);
        return new Room(Math.max(0, free - p.shareEquivalent(parts)), slices, migComputeSlices + profile.computeSlices(), contended);
      }
      return new Room(Math.max(0, free - p.shareEquivalent(parts)), migSlices, migComputeSlices, contended + 1);
    }

    private boolean empty() {
      return migSlices.isEmpty() && contended == 0;
    }

    double strandedForWhole() {
      return empty() ? 0 : free;
    }

    double strandedForMig(MigGeometry geometry, MigProfile p) {
      if (contended > 0) {
        return free;
      }
      int computeLeft = geometry.profiles().stream().mapToInt(MigProfile::computeSlices).max().orElseThrow() - migComputeSlices;
      // equal-length intervals at sorted starts: taking each that fits, earliest first, packs the most
      List<int[]> taken = new ArrayList<>(migSlices);
      int count = 0;
      for (int start : p.allowedStarts().stream().sorted().toList()) {
        if (count == p.maxInstances() || computeLeft < p.computeSlices()) {
          break;
        }
        int[] candidate = {start, start + p.memorySlices()};
        if (disjoint(candidate, taken)) {
          taken.add(candidate);
          computeLeft -= p.computeSlices();
          count++;
        }
      }
      return Math.max(0, free - count * geometry.shareEquivalent(p));
    }

    double strandedForMps(GpuPartitioning parts, double level) {
      if (!migSlices.isEmpty()) {
        return free;
      }
      int copies = parts.mpsCopiesFitting(free, contended, level);
      return Math.max(0, free - copies * level);
    }

    private static boolean disjoint(int[] candidate, List<int[]> held) {
      for (int[] h : held) {
        if (candidate[0] < h[1] && h[0] < candidate[1]) {
          return false;
        }
      }
      return true;
    }
  }
}
