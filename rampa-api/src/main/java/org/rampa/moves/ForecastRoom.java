package org.rampa.moves;

import java.util.List;
import java.util.Map;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuMode;
import org.rampa.domain.Holding;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.ShareCost;
import org.rampa.strategy.SharingOptions;
import org.rampa.verify.InterferenceGuard;

/**
 * What the forecast demand can still place on a state without any move, in GPU share equivalents:
 * the measure {@link Defragmenter}s increase. It is the share cost's stranded-capacity view
 * ({@link ShareCost}, docs/SHARING.md section 4) taken over the cluster as it stands rather than per
 * holding, and read on the <em>configured</em> MIG layouts, because a planner takes only free
 * instances of a GPU's layout (a re-cut is a move):
 *
 * <p>For each GPU and each entry k of its menu (the whole GPU; every MIG profile of its type; on MPS
 * types every MPS level of the menu), usable(k) is the most placements of k a planner could take
 * side by side now, times k's share equivalent: the whole GPU 1 on a GPU nobody holds and without a
 * layout; a MIG profile, on a GPU with a layout, its instances of that profile nobody holds, and on
 * a GPU nobody holds without a layout, what the best maximal layout offers ({@link
 * MoveSpace#maximalLayouts}); an MPS level ℓ, on a GPU nobody holds or in MPS mode, ⌊free / ℓ⌋ copies
 * within the client limit. The GPU's room is the demand-weighted mean of usable(k) over its entries
 * (demand keys as {@link ShareCost}'s: {@link ShareCost#WHOLE}, a profile name, {@link
 * ShareCost#mpsEntry}; absent keys weigh 1); the state's room is the sum over GPUs. What a GPU has
 * free beyond its room is stranded.
 *
 * <p><b>Guarded</b> ({@link #guarded}): an MPS level's copies on a GPU that already runs services
 * are also at most what the interference guard lets that GPU take before one of them would miss its
 * SLO ({@link InterferenceGuard#incumbentBudget}, the sharing menu's own probe: the new holdings as
 * fully memory-bound co-runners), so free compute a newcomer could take only by slowing an incumbent
 * past its SLO is not room. Whole GPUs and MIG instances (isolated) are unchanged, and a GPU nobody
 * holds has no incumbent, so {@link #emptied} stays the most room a GPU has in any state; with
 * holdings added the budget only shrinks (more co-runners), so room still never grows with them.
 * One limit: an incumbent whose plan spans GPUs has its slack set on all of them, so a guarded GPU's
 * room also depends on what runs on those other GPUs; the defragmenters score a step on the GPUs it
 * changes, which is exact only where every incumbent runs on one GPU (as in their tests).
 */
public final class ForecastRoom {


  private final Map<String, Double> demand;
  private final List<Double> mpsLevels;
  /** The guard whose incumbent budget caps MPS copies on a held GPU; null: unguarded (the alone-test's view). */
  private final InterferenceGuard guard;

  /**
   * @param demand forecast demand per menu entry (as {@link ShareCost}'s), each finite and ≥ 0; absent entries weigh 1
   * @param mpsLevels the MPS levels of the menu, each in (0, 1)
   */
  public ForecastRoom(Map<String, Double> demand, List<Double> mpsLevels) {
    demand.forEach((k, v) -> Invalid.requireFiniteNonNegative("demand[" + k + "]", v));
    for (double level : mpsLevels) {
      if (!(level > 0 && level < 1)) {
        throw Invalid.value("mpsLevels", level, "every level must lie in (0, 1)", "the default levels are " + SharingOptions.DEFAULT_MPS_LEVELS);
      }
    }
    this.demand = Map.copyOf(demand);
    this.mpsLevels = List.copyOf(mpsLevels);
    this.guard = null;
  }

  private ForecastRoom(ForecastRoom unguarded, InterferenceGuard guard) {
    this.demand = unguarded.demand;
    this.mpsLevels = unguarded.mpsLevels;
    this.guard = Invalid.requireNonNull("guard", guard);
  }

  /** This measure, its MPS copies on a held GPU capped by {@code guard}'s incumbent budget (see the class comment). */
  public ForecastRoom guarded(InterferenceGuard guard) {
    return new ForecastRoom(this, guard);
  }

  /** Every entry weighs the same; the default MPS levels. */
  public static ForecastRoom uniform() {
    return new ForecastRoom(Map.of(), SharingOptions.DEFAULT_MPS_LEVELS);
  }

  /** The state's room: the sum of every GPU's. */
  public double of(ClusterState state) {
    double sum = 0;
    for (Gpu g : state.cluster().gpus()) {
      sum += onGpu(state, g.id());
    }
    return sum;
  }

  /** The free share equivalents of the state that no entry can use: free capacity less room. */
  public double stranded(ClusterState state) {
    double free = 0;
    for (Gpu g : state.cluster().gpus()) {
      free += state.freeShare(g.id());
    }
    return Math.max(0, free - of(state));
  }

  /** One GPU's room, in [0, its free share]. */
  public double onGpu(ClusterState state, String gpu) {
    return room(state, gpu, state.migLayout(gpu), false);
  }

  /**
   * {@code gpu}'s room were its MIG layout {@code layout}, its holdings as they are: what a re-cut or
   * a mode change to {@code layout} leaves it, scored on the GPU alone (the state's room is a sum over
   * GPUs and such a move changes only its own GPU), without building the state after it. Equal to
   * {@link #onGpu} on the state after the move.
   */
  public double withLayout(ClusterState state, String gpu, List<MigSlice> layout) {
    return room(state, gpu, layout, false);
  }

  /**
   * {@code gpu}'s room were nobody holding it and it had no layout: the most room it has in any
   * state. Every entry's usable count is then at its largest: the whole GPU is usable only there;
   * a MIG profile's unheld instances in any legal layout are at most what the best maximal layout
   * offers; ⌊free / ℓ⌋ and the client limit left only grow as holdings leave
   * ({@link GpuPartitioning#mpsCopiesFitting} is monotone in both). So it bounds what any sequence of
   * moves can make of the GPU.
   */
  public double emptied(ClusterState state, String gpu) {
    return room(state, gpu, List.of(), true);
  }

  /** {@code gpu}'s room with MIG layout {@code layout}, held as in {@code state} or, when {@code nobody}, by nobody. */
  private double room(ClusterState state, String gpu, List<MigSlice> layout, boolean nobody) {
    GpuPartitioning parts = state.partitioning(gpu);
    List<Holding> held = nobody ? List.of() : state.holdingsOn(gpu);
    boolean empty = held.isEmpty() && layout.isEmpty();
    double total = weight(ShareCost.WHOLE);
    double usable = empty ? total : 0;
    if (parts.mig().isPresent()) {
      MigGeometry geometry = parts.mig().get();
      for (MigProfile p : geometry.profiles()) {
        double w = weight(p.name());
        total += w;
        usable += w * geometry.shareEquivalent(p) * migCopies(geometry, p, empty, layout, held);
      }
    }
    if (parts.mps()) {
      String type = state.cluster().typeOf(gpu).name();
      boolean mpsMode = empty || (layout.isEmpty() && state.mode(gpu) == GpuMode.MPS);
      for (double level : mpsLevels) {
        double w = weight(ShareCost.mpsEntry(type, level));
        total += w;
        if (mpsMode) {
          double free = empty ? 1 : state.freeShare(gpu);
          int copies = parts.mpsCopiesFitting(free, held.size(), level);
          if (guard != null && copies > 0 && !held.isEmpty()) {
            copies = guard.incumbentBudget(state, gpu, new MpsShare(level, 0), copies);
          }
          usable += w * copies * level;
        }
      }
    }
    return total > 0 ? usable / total : 0;
  }

  private static int migCopies(MigGeometry geometry, MigProfile p, boolean empty, List<MigSlice> layout, List<Holding> held) {
    if (empty) {
      int best = 0;
      for (List<MigSlice> maximal : MoveSpace.maximalLayouts(geometry, List.of())) {
        best = Math.max(best, (int) maximal.stream().filter(s -> s.profile().equals(p.name())).count());
      }
      return best;
    }
    if (layout.isEmpty()) {
      return 0; // held in another mode: no MIG instance until it is empty and re-configured
    }
    List<MigSlice> taken = held.stream().map(h -> MigLayout.instanceOf(h.placement())).toList();
    return (int) layout.stream().filter(s -> s.profile().equals(p.name()) && !taken.contains(s)).count();
  }

  private double weight(String entry) {
    return demand.getOrDefault(entry, 1.0);
  }
}
