package org.rampa.importance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;

/**
 * The cost of taking a placement on a GPU (SHARING.md section 4):
 * {@code importance(gpu) × shareEquivalent + λ × fragmentation}. Fragmentation is the forecast-
 * demand-weighted fraction of the GPU's menu of placements that taking it destroys (FGD-style):
 * the menu is the whole GPU plus, on a MIG type, every MIG profile at every allowed start; a
 * placement stays on the menu while it could still be created next to what is held (a MIG
 * candidate whose memory slices overlap no held instance; the whole GPU only while nothing is
 * held). So {@code 3g@0}, which kills the 4g, costs more than {@code 3g@4}, and 0.2 MPS of an
 * empty GPU (which kills everything else on its menu) more than 0.2 of a half-used one.
 */
public final class ShareCost {

  /** The menu entry for taking the whole GPU, as a key of the demand map. */
  public static final String WHOLE = "whole";

  private final double lambda;
  private final Map<String, Double> demand;

  /**
   * @param lambda the weight of fragmentation against importance, ≥ 0
   * @param demand forecast demand per MIG profile name (and {@link #WHOLE}); absent entries weigh 1
   */
  public ShareCost(double lambda, Map<String, Double> demand) {
    Invalid.requireFiniteNonNegative("shareCost.lambda", lambda);
    demand.forEach((k, v) -> Invalid.requireFiniteNonNegative("shareCost.demand[" + k + "]", v));
    this.lambda = lambda;
    this.demand = Map.copyOf(demand);
  }

  private double weight(String entry) {
    return demand.getOrDefault(entry, 1.0);
  }

  /** {@code importance × shareEquivalent + λ × fragmentation} of {@code placement} on {@code gpu}. */
  public double of(ClusterState state, GpuCosts costs, String gpu, Placement placement) {
    double equivalent = placement.shareEquivalent(state.partitioning(gpu));
    return costs.of(gpu) * equivalent + lambda * fragmentation(state, gpu, placement);
  }

  /** The demand-weighted fraction of the GPU's placement menu that taking {@code placement} destroys, in [0, 1]. */
  public double fragmentation(ClusterState state, String gpu, Placement placement) {
    GpuPartitioning parts = state.partitioning(gpu);
    List<int[]> held = new ArrayList<>();
    boolean contended = false;
    for (var h : state.holdingsOn(gpu)) {
      if (h.placement() instanceof MigSlice || h.placement() instanceof MigSliceMps) {
        held.add(slices(parts, h.placement()));
      } else {
        contended = true;
      }
    }
    boolean empty = state.holdingsOn(gpu).isEmpty();
    double total = weight(WHOLE);
    double before = empty ? weight(WHOLE) : 0;
    double after = 0;
    boolean mig = placement instanceof MigSlice || placement instanceof MigSliceMps;
    List<int[]> heldAfter = new ArrayList<>(held);
    if (mig) {
      heldAfter.add(slices(parts, placement));
    }
    if (parts.mig().isPresent()) {
      for (MigProfile p : parts.mig().get().profiles()) {
        for (int start : p.allowedStarts()) {
          int[] c = {start, start + p.memorySlices()};
          double w = weight(p.name());
          total += w;
          if (!contended && free(c, held)) {
            before += w;
            if (mig && free(c, heldAfter)) {
              after += w;
            }
          }
        }
      }
    }
    return total > 0 ? (before - after) / total : 0;
  }

  private static int[] slices(GpuPartitioning parts, Placement p) {
    MigSlice s = p instanceof MigSliceMps m ? m.slice() : (MigSlice) p;
    int size = parts.requireMig().profile(s.profile()).memorySlices();
    return new int[] {s.start(), s.start() + size};
  }

  private static boolean free(int[] candidate, List<int[]> held) {
    for (int[] h : held) {
      if (candidate[0] < h[1] && h[0] < candidate[1]) {
        return false;
      }
    }
    return true;
  }
}
