package org.rampa.moves;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.strategy.support.SharedSlotMenu;

/**
 * The candidate moves of a state: the neighbourhood every mover searches, and the one a brute-force
 * check enumerates. It is the set of moves {@link MoveRules} may accept, less moves that can never
 * be needed for a cheapest sequence:
 *
 * <ul>
 *   <li><b>migrations</b>: every replica of every stage of every service admitted with its request, to
 *       every other GPU, keeping its placement (a MIG replica of a one-replica stage may take any
 *       unheld instance of its profile on the target; a stage with several replicas, or a MIG replica
 *       keeping its placement, stays on its GPU type); among GPUs nobody holds and with no MIG layout,
 *       only the first of each type on each node is a target, since such GPUs are interchangeable
 *       (swapping two of them maps states onto equivalent states, so a cheapest sequence through one
 *       exists through the other);
 *   <li><b>placement changes</b> (when {@link MoveRules#changesPlacements()}): a replica of a
 *       one-replica stage may also land, on a GPU of any type, on every placement the sharing menu
 *       ({@code SharedSlotMenu}) offers there: on a GPU nobody holds and without a layout the whole
 *       GPU, an MPS share of each of {@link MoveRules#mpsLevels()} (types with MPS), a CU mask of each
 *       level (types with CU masks) and every partition template (NPU types); on a partly held GPU
 *       without a layout each of those shares, masks and templates of its mode that fits its free
 *       compute; on a MIG GPU every unheld instance of its layout, of any profile. Shares and masks
 *       reserve the stage's memory, as a planner's do. The menu's top-k cut among partly held GPUs is
 *       a planner's search order, not a rule, so every GPU where the level fits is a target;
 *   <li><b>re-cuts</b>: of every MIG GPU, to every <em>maximal</em> legal layout that keeps its held
 *       instances: an unheld instance never hinders anything (the ledger ignores it), so a layout is
 *       dominated by any legal layout that contains it;
 *   <li><b>mode changes</b>: an empty MIG GPU out of MIG mode; an empty GPU without a layout into MIG
 *       mode with every maximal layout (the first of each type on each node, as for migrations).
 * </ul>
 *
 * Candidates are not yet checked against the SLO: {@link MoveRules#attempt} decides.
 */
public final class MoveSpace {

  private static final Map<MigGeometry, List<MigSlice>> INSTANCES = new ConcurrentHashMap<>();
  /**
   * Maximal layouts by geometry and held instances (in the order given, which the layouts keep): a
   * cluster has few distinct (type, held instances) pairs but many GPUs, and enumerating the
   * layouts of each MIG GPU anew was most of a greedy decision's bookkeeping at 1000 GPUs. Bounded
   * by the legal partial layouts of the geometries in use.
   */
  private static final Map<List<Object>, List<List<MigSlice>>> MAXIMAL = new ConcurrentHashMap<>();

  private MoveSpace() {}

  /**
   * Every candidate move of {@code state} under {@code rules}' move space: re-cuts and mode changes
   * first (they are cheap to try), then migrations.
   */
  public static List<Move> candidates(ClusterState state, MoveRules rules) {
    List<Move> out = new ArrayList<>(layoutMoves(state));
    for (Allocation a : state.allocations().values()) {
      out.addAll(migrations(state, rules, a.serviceId()));
    }
    return out;
  }

  /** The re-cuts and mode changes of {@code state}. */
  public static List<Move> layoutMoves(ClusterState state) {
    List<Move> out = new ArrayList<>();
    for (Gpu g : state.cluster().gpus()) {
      out.addAll(layoutMoves(state, g.id()));
    }
    return out;
  }

  /**
   * The re-cuts and mode changes of {@code gpu} in {@code state} (none when it is a free GPU without
   * a layout that is not the first such GPU of its type on its node).
   */
  public static List<Move> layoutMoves(ClusterState state, String gpu) {
    List<Move> out = new ArrayList<>();
    GpuPartitioning parts = state.partitioning(gpu);
    if (parts.mig().isEmpty()) {
      return out;
    }
    List<MigSlice> layout = state.migLayout(gpu);
    if (layout.isEmpty()) {
      if (state.isFree(gpu) && firstInterchangeable(state, gpu)) {
        for (List<MigSlice> to : maximalLayouts(parts.requireMig(), List.of())) {
          out.add(new ModeChange(gpu, List.of(), to));
        }
      }
      return out;
    }
    if (state.isFree(gpu)) {
      out.add(new ModeChange(gpu, layout, List.of()));
    }
    List<MigSlice> held = new ArrayList<>();
    for (Holding h : state.holdingsOn(gpu)) {
      held.add(MigLayout.instanceOf(h.placement()));
    }
    Set<MigSlice> current = new HashSet<>(layout);
    for (List<MigSlice> to : maximalLayouts(parts.requireMig(), held)) {
      if (!new HashSet<>(to).equals(current)) {
        out.add(new Recut(gpu, layout, to));
      }
    }
    return out;
  }

  /** True when no GPU before {@code gpu} in cluster order is of its type, on its node, free and without a layout. */
  private static boolean firstInterchangeable(ClusterState state, String gpu) {
    Gpu self = state.cluster().gpu(gpu);
    for (Gpu g : state.cluster().gpus()) {
      if (g.id().equals(gpu)) {
        return true;
      }
      if (g.type().equals(self.type()) && g.node().equals(self.node()) && state.isFree(g.id()) && state.migLayout(g.id()).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** The candidate migrations of every replica of {@code service} (none when it was admitted without its request). */
  public static List<Migration> migrations(ClusterState state, MoveRules rules, String service) {
    Allocation a = state.allocations().get(service);
    List<Migration> out = new ArrayList<>();
    if (a == null || a.plan().isEmpty()) {
      return out;
    }
    Plan plan = a.plan().get();
    for (int k = 0; k < plan.stages().size(); k++) {
      Stage s = plan.stages().get(k);
      for (String from : s.gpus()) {
        out.addAll(migrations(state, rules, service, k, from));
      }
    }
    return out;
  }

  /**
   * The candidate migrations of the replica of stage {@code stage} of {@code service} on {@code fromGpu},
   * GPU by GPU in cluster order, on each GPU its own placement first, then the menu's (larger first);
   * none under rules that refuse migrations ({@link MoveRules#layoutOnly()}).
   */
  public static List<Migration> migrations(ClusterState state, MoveRules rules, String service, int stage, String fromGpu) {
    ReplicaTargets targets = new ReplicaTargets(state, rules, service, stage, fromGpu);
    List<Migration> out = new ArrayList<>();
    for (Gpu g : state.cluster().gpus()) {
      out.addAll(targets.to(g));
    }
    return out;
  }

  /**
   * The candidate migrations of one replica, asked GPU by GPU: {@link #to} of every GPU in cluster
   * order, concatenated, is {@link #migrations(ClusterState, MoveRules, String, int, String)}. For a
   * mover that tries targets in its own order and stops at the first the rules accept, so that the
   * candidates of GPUs it never reaches are never built.
   */
  public static final class ReplicaTargets {
    private final ClusterState state;
    private final String service;
    private final int stage;
    private final String fromGpu;
    private final Stage s;
    private final String fromType;
    private final Placement p;
    private final boolean mig;
    private final boolean change;
    private final boolean migrates;
    private final List<Double> levels;
    /** Of each type on each node, the first GPU in cluster order nobody holds and without a layout; found when first needed. */
    private Set<String> firstFree;
    // the menu depends on the GPU's partitioning alone: built once per partitioning, not once per GPU
    private final Map<GpuPartitioning, List<Placement>> menus = new IdentityHashMap<>();
    /** {@link #leastPart} by GPU type: it depends on the type alone. */
    private final Map<String, Double> leastParts = new HashMap<>();

    /** The targets of the replica of stage {@code stage} of {@code service} on {@code fromGpu}. */
    public ReplicaTargets(ClusterState state, MoveRules rules, String service, int stage, String fromGpu) {
      this.state = state;
      this.service = service;
      this.stage = stage;
      this.fromGpu = fromGpu;
      this.s = state.allocations().get(service).plan().orElseThrow().stages().get(stage);
      this.fromType = state.cluster().gpu(fromGpu).type();
      this.p = s.placement();
      this.mig = p instanceof MigSlice || p instanceof MigSliceMps;
      this.change = rules.changesPlacements() && s.replicas() == 1;
      this.migrates = rules.migrates();
      this.levels = rules.mpsLevels();
    }

    /**
     * The candidate migrations to {@code g}, a GPU of the state's cluster: its own placement first, then
     * the menu's (larger first); none under rules that refuse migrations.
     */
    public List<Migration> to(Gpu g) {
      List<Migration> out = new ArrayList<>();
      if (!migrates || g.id().equals(fromGpu) || s.gpus().contains(g.id())) {
        return out;
      }
      boolean own = !((s.replicas() > 1 || mig) && !g.type().equals(fromType)); // may it keep its placement here
      if (!own && !change) {
        return out;
      }
      List<MigSlice> layout = state.migLayout(g.id());
      Set<Placement> targets = new LinkedHashSet<>();
      if (!layout.isEmpty()) {
        if (mig && own) {
          targets.addAll(migTargets(state, g.id(), p, s.replicas() == 1));
        }
        if (change) {
          targets.addAll(unheldInstances(state, g.id()));
        }
      } else {
        boolean free = state.isFree(g.id());
        if (free && !firstFree().contains(g.id())) {
          return out;
        }
        Room room = free ? null : new Room(state, g.id());
        if (own && !mig && (free || room.fits(p))) {
          targets.add(p);
        }
        if (change) {
          GpuPartitioning parts = room == null ? state.partitioning(g.id()) : room.parts;
          for (Placement q : menus.computeIfAbsent(parts, x -> menu(x, levels, s.memoryBytes()))) {
            if (free || room.fits(q)) {
              targets.add(q);
            }
          }
        }
      }
      for (Placement q : targets) {
        out.add(new Migration(service, stage, fromGpu, g.id(), q));
      }
      return out;
    }

    /**
     * True only when {@link #to} offers nothing on {@code g}, given its free share {@code free}
     * ({@link ClusterState#freeShare}), by a cheap test the greedy mover's target walk makes before
     * building a GPU's candidates: {@code g} has no MIG layout and {@code free} plus the overcommit
     * is below the compute part of every placement {@link #to} could offer on a GPU of its type
     * (the replica's own, the menu's). On a GPU without a layout that somebody holds, every
     * candidate passes the room test, compute part at most the free share plus the overcommit, so
     * there is none; a GPU nobody holds has a free share of 1 and every such part is at most 1, so
     * the test never holds there. {@code GreedyMoverBookkeepingTest} (rampa-heuristics) checks it against {@link #to}.
     */
    public boolean offersNothing(Gpu g, double free) {
      double least = leastParts.computeIfAbsent(g.type(), t -> leastPart(g));
      return !fitsFreeShare(state, least, free) && state.migLayout(g.id()).isEmpty();
    }

    /** The least compute part of the placements {@link #to} could offer on a GPU of {@code g}'s type without a layout; infinite when none. */
    private double leastPart(Gpu g) {
      boolean own = !((s.replicas() > 1 || mig) && !g.type().equals(fromType));
      GpuPartitioning parts = state.partitioning(g.id());
      List<Placement> offered = new ArrayList<>();
      if (own && !mig) {
        offered.add(p);
      }
      if (change) {
        offered.addAll(menus.computeIfAbsent(parts, x -> menu(x, levels, s.memoryBytes())));
      }
      double least = Double.POSITIVE_INFINITY;
      for (Placement q : offered) {
        try {
          least = Math.min(least, q.computeFraction(parts));
        } catch (IllegalArgumentException e) {
          // not a placement of this type: the room test never takes it
        }
      }
      return least;
    }

    /**
     * Whether a target may keep its placement on a GPU of one type, or change it, depends on the type
     * alone, and the replica's own GPUs are held, so among GPUs nobody holds and without a layout
     * the first of each type on each node is the one a walk in cluster order reaches first.
     */
    private Set<String> firstFree() {
      if (firstFree == null) {
        Set<String> seen = new HashSet<>();
        firstFree = new HashSet<>();
        for (Gpu g : state.gpusNobodyHolds()) {
          if (state.migLayout(g.id()).isEmpty() && seen.add(g.type() + "\n" + g.node())) {
            firstFree.add(g.id());
          }
        }
      }
      return firstFree;
    }
  }

  /**
   * The sharing menu's placements on a GPU of {@code parts} (no layout) for a stage of {@code memoryBytes}: the
   * whole GPU, each level's MPS share or CU mask reserving that memory, every partition template.
   */
  private static List<Placement> menu(GpuPartitioning parts, List<Double> levels, long memoryBytes) {
    List<Placement> out = new ArrayList<>();
    out.add(new Whole());
    if (parts.mps() || parts.computeUnits() > 0) {
      for (double level : levels) {
        out.add(SharedSlotMenu.contendedLevel(parts, level, memoryBytes));
      }
    }
    parts.templates().forEach(t -> out.add(new TemplatePartition(t.name())));
    return out;
  }

  /** The unheld instances of {@code gpu}'s layout, each as an exclusive placement. */
  private static List<MigSlice> unheldInstances(ClusterState state, String gpu) {
    Set<MigSlice> held = new HashSet<>();
    for (Holding h : state.holdingsOn(gpu)) {
      held.add(MigLayout.instanceOf(h.placement()));
    }
    List<MigSlice> out = new ArrayList<>();
    for (MigSlice s : state.migLayout(gpu)) {
      if (!held.contains(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * A cheap necessary condition for a contended placement on a partly held GPU: its mode and free
   * compute. The GPU's holdings, partitioning and free share are read once for every placement tried on it.
   */
  /**
   * The room test of a migration target without a MIG layout: a placement of compute part
   * {@code fraction} fits a GPU of {@code state} whose free share is {@code free} when it is at most
   * that share plus the state's MPS overcommit (within the ledger's rounding tolerance). The one
   * statement of it for the move space's targets and the shortcuts that skip GPUs before asking them.
   */
  public static boolean fitsFreeShare(ClusterState state, double fraction, double free) {
    return fraction <= free + 1e-9 + state.mpsOvercommit();
  }

  private static final class Room {
    private final ClusterState state;
    private final String gpu;
    private final List<Holding> on;
    final GpuPartitioning parts;
    private double free = Double.NaN;

    Room(ClusterState state, String gpu) {
      this.state = state;
      this.gpu = gpu;
      this.on = state.holdingsOn(gpu);
      this.parts = state.partitioning(gpu);
    }

    boolean fits(Placement p) {
      if (on.isEmpty()) {
        return true;
      }
      if (on.get(0).placement().getClass() != p.getClass()) {
        return false;
      }
      try {
        double fraction = p.computeFraction(parts);
        if (Double.isNaN(free)) {
          free = state.freeShare(gpu);
        }
        return fitsFreeShare(state, fraction, free);
      } catch (IllegalArgumentException e) {
        return false; // the placement does not exist on this GPU's type
      }
    }
  }

  /** The unheld instances of {@code p}'s profile on {@code gpu} (only {@code p}'s own start unless {@code anyStart}), as placements like {@code p}. */
  private static List<Placement> migTargets(ClusterState state, String gpu, Placement p, boolean anyStart) {
    MigSlice wanted = MigLayout.instanceOf(p);
    Set<MigSlice> held = new HashSet<>();
    for (Holding h : state.holdingsOn(gpu)) {
      held.add(MigLayout.instanceOf(h.placement()));
    }
    List<Placement> out = new ArrayList<>();
    for (MigSlice s : state.migLayout(gpu)) {
      if (held.contains(s) || !s.profile().equals(wanted.profile()) || (!anyStart && s.start() != wanted.start())) {
        continue;
      }
      out.add(p instanceof MigSliceMps mm ? new MigSliceMps(s.profile(), s.start(), mm.processes(), mm.processMemoryBytes()) : s);
    }
    return out;
  }

  /**
   * The maximal legal layouts of {@code geometry} that contain every instance of {@code held}: no
   * further instance fits at an allowed start into the memory slices left free. Empty when
   * {@code held} itself overlaps.
   */
  public static List<List<MigSlice>> maximalLayouts(MigGeometry geometry, List<MigSlice> held) {
    List<MigSlice> key = List.copyOf(held);
    return MAXIMAL.computeIfAbsent(List.of(geometry, key), k -> List.copyOf(extendMaximal(geometry, key)));
  }

  private static List<List<MigSlice>> extendMaximal(MigGeometry g, List<MigSlice> held) {
    MigLayout layout = MigLayout.empty(g);
    for (MigSlice s : held) {
      if (!layout.fits(g.profile(s.profile()), s.start())) {
        return List.of();
      }
      layout = layout.with(s.profile(), s.start());
    }
    List<MigSlice> all = INSTANCES.computeIfAbsent(g, MoveSpace::instances);
    List<List<MigSlice>> out = new ArrayList<>();
    extend(all, 0, layout, new ArrayList<>(held), out);
    return out;
  }

  private static List<MigSlice> instances(MigGeometry g) {
    List<MigSlice> out = new ArrayList<>();
    for (MigProfile p : g.profiles()) {
      for (int s : p.allowedStarts()) {
        out.add(new MigSlice(p.name(), s));
      }
    }
    return out;
  }

  /** Adds instances from index {@code from} on; records {@code current} when nothing at all can be added. */
  private static void extend(List<MigSlice> all, int from, MigLayout layout, List<MigSlice> current, List<List<MigSlice>> out) {
    MigGeometry g = layout.geometry();
    for (int i = from; i < all.size(); i++) {
      MigSlice s = all.get(i);
      if (layout.fits(g.profile(s.profile()), s.start())) {
        current.add(s);
        extend(all, i + 1, layout.with(s.profile(), s.start()), current, out);
        current.remove(current.size() - 1);
      }
    }
    // maximal: no instance at all (also one skipped earlier in the order) still fits
    for (MigSlice s : all) {
      if (layout.fits(g.profile(s.profile()), s.start())) {
        return;
      }
    }
    out.add(List.copyOf(current));
  }
}
