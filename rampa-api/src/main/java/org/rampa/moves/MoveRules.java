package org.rampa.moves;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.ShareViolation;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/**
 * Whether a {@link Move} may be applied to a {@link ClusterState}, and the state after it. A move is
 * applied only when the state after it is legal by the ledger's own rules (every GPU's holdings,
 * modes and MIG layout, checked by {@link ClusterState} as for any allocation) and:
 *
 * <ul>
 *   <li>a {@link Migration}: the service was admitted with its request (else it cannot be re-timed);
 *       its plan with the replica moved, re-predicted by the performance model, passes the one
 *       {@link PlanVerifier} against the state without it (SLO, memory, sharing rules, and every
 *       co-runner on its GPUs re-timed with it); every service left on the GPU it leaves still
 *       passes the verifier (under a non-monotone interference model losing a co-runner could hurt);
 *   <li>a {@link Recut}: {@code fromLayout} is the GPU's layout, every held instance is in
 *       {@code toLayout} unchanged, and {@code toLayout} is legal by {@link MigLayout#check};
 *   <li>a {@link ModeChange}: {@code fromLayout} is the GPU's layout, nobody holds any part of the
 *       GPU, and a new layout is legal by {@link MigLayout#check}.
 * </ul>
 *
 * Every intermediate state of a sequence applied move by move is therefore a state a scheduler may
 * stop in.
 *
 * <p>The rules also say which placements the movers' {@link MoveSpace} offers a migrating replica of a
 * one-replica stage besides its own: {@link #changesPlacements()} (the default) adds the placements of
 * the sharing menu a planner could have chosen on the target ({@link #mpsLevels()}: the MPS levels of
 * that menu); {@link #keepingPlacements()} offers only the replica's own placement, as before placement
 * changes existed. Either way, a migration a caller builds itself is judged by the rules above.
 *
 * <p>{@link #layoutOnly()} rules refuse every migration (and their move space offers none): only
 * re-cuts and mode changes, for a caller that may re-lay MIG GPUs but must not restart a service (a
 * scheduler tidying layouts in a quiet period while nothing is refused).
 */
public final class MoveRules {

  private final PerformanceModel performance;
  private final InterferenceModel interference;
  private final PlanVerifier verifier;
  private final boolean changesPlacements;
  private final List<Double> mpsLevels;
  private final boolean migrates;

  /** Rules on these models whose move space changes placements within the default sharing menu ({@link SharingOptions#DEFAULT_MPS_LEVELS}). */
  public MoveRules(PerformanceModel performance, InterferenceModel interference) {
    this(performance, interference, true, SharingOptions.DEFAULT_MPS_LEVELS, true);
  }

  private MoveRules(PerformanceModel performance, InterferenceModel interference, boolean changesPlacements, List<Double> mpsLevels,
      boolean migrates) {
    this.performance = Objects.requireNonNull(performance, "performance");
    this.interference = interference;
    this.verifier = new PlanVerifier(performance, Objects.requireNonNull(interference, "interference"));
    this.changesPlacements = changesPlacements;
    this.mpsLevels = List.copyOf(mpsLevels);
    this.migrates = migrates;
  }

  /** The default performance model and interference (the verifier's defaults). */
  public static MoveRules defaults() {
    return new MoveRules(PerformanceModel.defaults(), InterferenceModel.defaults());
  }

  /** The performance model moves are re-timed with: a mover's bounds on what a state offers use the same one. */
  public PerformanceModel performance() {
    return performance;
  }

  /** The interference model moves are re-timed with. */
  public InterferenceModel interference() {
    return interference;
  }

  /**
   * The rules with the performance and interference models a planner uses for {@code problem}, and its
   * sharing menu for placement changes: the MPS levels of its {@link SharingOptions}, none when sharing
   * is off (then a replica may change only to a whole GPU or a free MIG instance).
   */
  public static MoveRules of(PlacementProblem problem) {
    SharingOptions sharing = SharingOptions.in(problem.options());
    return new MoveRules(problem.performance(), problem.interference(), true, sharing.enabled() ? sharing.mpsLevels() : List.of(), true);
  }

  /** These rules with a move space whose migrations keep every replica's placement (no change of kind or size). */
  public MoveRules keepingPlacements() {
    return new MoveRules(performance, interference, false, mpsLevels, migrates);
  }

  /** These rules refusing every migration: only re-cuts and mode changes are applied, and {@link MoveSpace} offers no migration. */
  public MoveRules layoutOnly() {
    return new MoveRules(performance, interference, changesPlacements, mpsLevels, false);
  }

  /** Whether migrations may be applied (false for {@link #layoutOnly()} rules). */
  public boolean migrates() {
    return migrates;
  }

  /**
   * Whether {@link MoveSpace} offers a migrating replica of a one-replica stage the sharing menu's
   * placements on its target (a whole free GPU, an MPS share of {@link #mpsLevels()}, a free MIG
   * instance) besides its own placement.
   */
  public boolean changesPlacements() {
    return changesPlacements;
  }

  /** The MPS levels of the sharing menu placement changes choose from, largest first. */
  public List<Double> mpsLevels() {
    return mpsLevels;
  }

  /** What happens when a move is tried: the state after it, or why it is refused. */
  public record Outcome(Optional<ClusterState> after, List<String> refusals) {

    public Outcome {
      refusals = List.copyOf(refusals);
    }

    public boolean applied() {
      return after.isPresent();
    }
  }

  /** Why {@code move} cannot be applied to {@code state}; empty when it can. */
  public List<String> refusals(ClusterState state, Move move) {
    return attempt(state, move).refusals();
  }

  /** The state after {@code move}; refused with every reason (an {@link IllegalStateException}) when it may not be applied. */
  public ClusterState apply(ClusterState state, Move move) {
    Outcome o = attempt(state, move);
    if (!o.applied()) {
      throw new IllegalStateException("move refused: " + move + ": " + String.join("; ", o.refusals()));
    }
    return o.after().get();
  }

  /** Tries {@code move} on {@code state}. */
  public Outcome attempt(ClusterState state, Move move) {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(move, "move");
    if (move instanceof Migration m) {
      return migrate(state, m);
    }
    LayoutMove layoutMove = (LayoutMove) move;
    String gpu = layoutMove.gpu();
    List<MigSlice> from = layoutMove.fromLayout();
    List<MigSlice> to = layoutMove.toLayout();
    if (!state.cluster().hasGpu(gpu)) {
      return refused("GPU \"" + gpu + "\" is not in the cluster");
    }
    if (!new HashSet<>(state.migLayout(gpu)).equals(new HashSet<>(from)) || state.migLayout(gpu).size() != from.size()) {
      return refused(move.kind() + " on GPU \"" + gpu + "\" starts from layout " + labels(from) + ", but the GPU's layout is "
          + labels(state.migLayout(gpu)) + ": the move was made for another state");
    }
    GpuPartitioning parts = state.partitioning(gpu);
    if (!to.isEmpty()) {
      if (parts.mig().isEmpty()) {
        return refused("GPU \"" + gpu + "\" (" + parts.gpuType() + ") has no MIG geometry, so it takes no MIG layout");
      }
      Optional<ShareViolation> illegal = MigLayout.check(parts.requireMig(), to);
      if (illegal.isPresent()) {
        return refused("layout " + labels(to) + " for GPU \"" + gpu + "\" is illegal: " + illegal.get());
      }
    }
    if (move instanceof ModeChange) {
      if (!state.isFree(gpu)) {
        return refused("a mode change needs an empty GPU; \"" + gpu + "\" is held by " + state.servicesOn(gpu));
      }
      return new Outcome(Optional.of(state.configureMig(gpu, to)), List.of());
    }
    Set<MigSlice> target = new HashSet<>(to);
    for (Holding h : state.holdingsOn(gpu)) {
      MigSlice held = MigLayout.instanceOf(h.placement());
      if (!target.contains(held)) {
        return refused("re-cutting GPU \"" + gpu + "\" to " + labels(to) + " would destroy instance " + held.label()
            + ", which " + state.servicesOn(gpu) + " hold; a re-cut keeps every held instance");
      }
    }
    Map<String, List<MigSlice>> layouts = new LinkedHashMap<>(state.migLayouts());
    layouts.put(gpu, List.copyOf(to));
    // the copy re-runs the ledger's check on every GPU: held instances in the layout, the layout legal
    return new Outcome(Optional.of(ImmutableClusterState.copyOf(state).withMigLayouts(layouts).withVersion(state.version() + 1)), List.of());
  }

  private Outcome migrate(ClusterState state, Migration m) {
    Allocation a = state.allocations().get(m.service());
    if (!migrates) {
      return refused("these rules allow only re-cuts and mode changes (layout only), so \"" + m.service() + "\" may not migrate");
    }
    if (a == null) {
      return refused("service \"" + m.service() + "\" holds nothing in this state");
    }
    if (a.request().isEmpty()) {
      return refused("service \"" + m.service() + "\" was committed without its request, so it cannot be re-timed after a move");
    }
    ServiceRequest request = a.request().get();
    Plan plan = a.plan().get();
    if (m.stage() >= plan.stages().size()) {
      return refused("service \"" + m.service() + "\" has " + plan.stages().size() + " stages; there is no stage " + m.stage());
    }
    Stage stage = plan.stages().get(m.stage());
    if (!stage.gpus().contains(m.fromGpu())) {
      return refused("stage " + m.stage() + " of \"" + m.service() + "\" is not on GPU \"" + m.fromGpu() + "\" (it is on " + stage.gpus() + ")");
    }
    if (!state.cluster().hasGpu(m.toGpu())) {
      return refused("GPU \"" + m.toGpu() + "\" is not in the cluster");
    }
    if (stage.gpus().contains(m.toGpu())) {
      return refused("stage " + m.stage() + " of \"" + m.service() + "\" already has a replica on GPU \"" + m.toGpu() + "\"");
    }
    if (stage.replicas() > 1 && !m.placement().equals(stage.placement())) {
      return refused("stage " + m.stage() + " of \"" + m.service() + "\" has " + stage.replicas() + " replicas and one placement ("
          + stage.placement().label() + "), so a replica moves with it, not as " + m.placement().label());
    }
    List<StageAssignment> assignments = new ArrayList<>(PerformanceModel.assignmentsOf(plan));
    List<String> gpus = new ArrayList<>(stage.gpus());
    gpus.set(gpus.indexOf(m.fromGpu()), m.toGpu());
    assignments.set(m.stage(), new StageAssignment(stage.from(), stage.to(), gpus, m.placement()));
    Plan moved;
    try {
      moved = performance.plan(request, assignments, state.cluster(), plan.cost(), plan.strategy());
    } catch (IllegalArgumentException e) {
      return refused("moving stage " + m.stage() + " of \"" + m.service() + "\" to GPU \"" + m.toGpu() + "\": " + e.getMessage());
    }
    ClusterState without = state.release(m.service());
    Verification v = verifier.verify(request, moved, without);
    if (!v.ok()) {
      List<String> reasons = new ArrayList<>();
      v.violations().forEach(x -> reasons.add("after " + m + ": " + x));
      return new Outcome(Optional.empty(), reasons);
    }
    ClusterState after = without.allocate(Allocation.of(request, moved));
    List<String> left = stillMeetSlo(after, Set.of(m.fromGpu()), m.service());
    return left.isEmpty() ? new Outcome(Optional.of(after), List.of()) : new Outcome(Optional.empty(), left);
  }

  /**
   * Every service but {@code except} holding part of {@code gpus} in {@code state}, verified against
   * the state without it: the reasons any of them fails. Services committed without their request
   * are skipped: the ledger never re-timed them, and a move that only takes a co-runner away from
   * them does not change that.
   */
  private List<String> stillMeetSlo(ClusterState state, Set<String> gpus, String except) {
    Set<String> services = new LinkedHashSet<>();
    gpus.forEach(g -> services.addAll(state.servicesOn(g)));
    services.remove(except);
    List<String> out = new ArrayList<>();
    for (String id : services) {
      Allocation a = state.allocations().get(id);
      if (a.request().isEmpty()) {
        continue;
      }
      Verification v = verifier.verify(a.request().get(), a.plan().get(), state.release(id));
      if (!v.ok()) {
        out.add("service \"" + id + "\" on " + gpus + " fails after the move: " + v.violations().get(0));
      }
    }
    return out;
  }

  static List<String> labels(List<MigSlice> layout) {
    return layout.stream().map(MigSlice::label).toList();
  }

  private static Outcome refused(String reason) {
    return new Outcome(Optional.empty(), List.of(reason));
  }
}
