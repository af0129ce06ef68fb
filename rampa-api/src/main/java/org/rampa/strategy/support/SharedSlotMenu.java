package org.rampa.strategy.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Holding;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.DeviceKind;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.verify.InterferenceGuard;

/**
 * The slots a stage replica of a {@link PlacementProblem} may take when sharing is on
 * (docs/SHARING.md section 5, "per service"): the one menu every per-service strategy that places
 * shares searches, so they all search the same space.
 *
 * <p><b>What is searched.</b>
 * <ul>
 *   <li><b>Free GPUs</b> (nobody holds any part, no MIG layout), one slot per GPU type and node with
 *       the class's GPUs cheapest first, for each placement of a small menu: the whole GPU and, on
 *       types with MPS, every level of {@link SharingOptions#mpsLevels()} (default 1/2, 1/3, 1/4), on
 *       types with CU masking (AMD MI100-style) a {@link CuMask} of each level's part of the CUs
 *       (rounded down), and on NPU types with partition templates every template
 *       ({@link TemplatePartition}).
 *       Nobody runs there yet, so α = 1 and the budget is {@link #UNLIMITED}.
 *   <li><b>Partly used MPS and CU-mask GPUs</b> (in MPS mode; for MPS below the client limit):
 *       each menu level (an MPS share or a CU mask, as on free GPUs) that fits the free compute
 *       ({@link Capacity#freeMpsShares()}), with the memory the ledger's rules leave for one more
 *       reservation ({@link Slot#memoryCapBytes}: for MPS less the new process's context).
 *       Contended: α and the incumbents' budget come from the {@link InterferenceGuard}.
 *   <li><b>Free instances of configured MIG layouts</b> ({@link Capacity#freeMigInstances()}), as
 *       they are (isolated: α = 1).
 *   <li><b>Free template room of partly used NPUs</b> (in template mode): every template whose cores
 *       fit the free cores ({@link Capacity#freeTemplateCores()}) and whose memory fits the memory
 *       nobody holds (isolated: α = 1).
 * </ul>
 * Of the partly used GPUs, only the {@link SharingOptions#topK()} best fits per GPU type and
 * placement shape are kept: for MPS and CU masks the least compute left after taking the level,
 * for MIG the GPU with the fewest other free instances, for a template the fewest cores left after
 * taking it; ties by cost, then cluster order. A partly used slot whose incumbents' budget is 0 is
 * left out.
 *
 * <p><b>What is not searched.</b> MPS fractions other than the menu's levels (not the free
 * remainder itself); a new MIG layout on a free GPU (a reconfiguration); MIG+MPS processes inside
 * an instance; CU masks of other sizes (not the free remainder itself); overcommit beyond the
 * ledger's; GPUs in exclusive use.
 *
 * <p><b>Contract for the strategies.</b> A plan takes at most one slot per GPU (one holding of
 * the newcomer per GPU), so α of a slot is a constant: the slowdown its incumbents cause the
 * newcomer, bounded over the newcomer's unknown utilisations by
 * {@link InterferenceGuard#newcomerSlowdown} (exact under the default linear model). A stage's
 * time on a slot is its time alone on {@link Slot#kind()} times α, its period uses the largest α
 * over its replicas; its placement is {@link Slot#placementFor(long)} of its memory (an MPS share
 * or CU mask reserving exactly that memory, {@link #withReservation}). The incumbents' budget
 * ({@link InterferenceGuard#incumbentBudget}) counts how many new holdings the GPU takes before an incumbent misses its SLO; with one holding per GPU a slot is usable when it
 * is at least 1, which the menu already ensures. The menu never replaces the verifier: strategies
 * still verify shared plans (the interference rule re-times every service on the touched GPUs).
 */
public final class SharedSlotMenu {

  /** The budget of a GPU nobody else runs on: no incumbent can miss its SLO. */
  public static final int UNLIMITED = Integer.MAX_VALUE;

  /** How many new holdings the budget probe counts at most on a partly used GPU. */
  public static final int BUDGET_PROBE_CAP = 4;

  /** Where a slot's GPUs come from. */
  public enum Origin {
    /** GPUs nobody holds any part of. */
    FREE_GPUS,
    /** One GPU others already hold parts of. */
    PARTLY_USED
  }

  /**
   * One entry of the menu: a placement on any of {@code gpus} (one for a partly used GPU, the free
   * GPUs of one type on one node otherwise, cheapest first), with their costs.
   *
   * @param origin free GPUs or one partly used GPU
   * @param type the GPU type of every GPU of the slot
   * @param node the node of every GPU of the slot
   * @param gpus the GPUs, cheapest first (cluster order among equal costs)
   * @param costs the cost of holding {@code placement} on each GPU ({@link GpuCosts#of(ClusterState, String, Placement)})
   * @param placement the placement; for MPS and CU masks its reservation is {@link #memoryCapBytes}, see {@link #placementFor}
   * @param memoryCapBytes the most memory a stage on this slot may need
   * @param alpha the slowdown α ≥ 1 the incumbents cause a newcomer here
   * @param incumbentBudget how many new holdings the GPU takes before an incumbent misses its SLO
   * @param shape the placement shape ({@link SharedSlotMenu#shapeOf}): stages whose replicas use slots
   *     of one shape have the same time alone (type and compute part), e.g. {@code "A100-SXM4-80GB mps 0.5"}
   */
  public record Slot(Origin origin, GpuType type, String node, List<String> gpus, List<Double> costs, Placement placement,
      long memoryCapBytes, double alpha, int incumbentBudget, String shape) {

    /** Copies the lists and checks that every GPU has a cost. */
    public Slot {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(placement, "placement");
      Objects.requireNonNull(shape, "shape");
      gpus = List.copyOf(gpus);
      costs = List.copyOf(costs);
      if (gpus.isEmpty() || gpus.size() != costs.size()) {
        throw new IllegalArgumentException("a slot needs one cost per GPU, and at least one GPU");
      }
    }

    /**
     * The placement a stage needing {@code stageMemoryBytes} holds here: the MPS share or CU mask
     * reserving exactly that memory (what the ledger then books), any other placement as it is.
     *
     * @throws IllegalArgumentException when the stage does not fit {@link #memoryCapBytes}
     */
    public Placement placementFor(long stageMemoryBytes) {
      if (stageMemoryBytes > memoryCapBytes) {
        throw Invalid.value("stage.memoryBytes", stageMemoryBytes, "exceeds the " + memoryCapBytes + " B slot " + label());
      }
      return withReservation(placement, stageMemoryBytes);
    }

    /** What a stage replica runs on here, for stage times ({@code StageCursor}): the type and placement. */
    public DeviceKind kind() {
      return DeviceKind.of(type, placement);
    }

    /** A short description for messages. */
    public String label() {
      return shape() + (origin == Origin.PARTLY_USED ? " on " + gpus.get(0) : " on " + gpus.size() + " free GPUs of " + node);
    }
  }

  private final List<Slot> slots;

  private SharedSlotMenu(List<Slot> slots) {
    this.slots = slots;
  }

  /**
   * The menu of {@code problem} under {@code options}, costs from {@code importanceCosts} (the
   * problem's importance evaluated on its state) for the menu's MPS levels
   * ({@link GpuCosts#forMpsLevels}). With sharing off: the whole free GPUs only, one slot per
   * type and node, exactly the GPUs the strategies always used.
   */
  public static SharedSlotMenu of(PlacementProblem problem, SharingOptions options, GpuCosts importanceCosts) {
    return of(problem, options, importanceCosts, true);
  }

  /**
   * As {@link #of(PlacementProblem, SharingOptions, GpuCosts)}; with {@code memoized} false every
   * partly used GPU is derived from scratch rather than read from {@link PartlyUsedMemo} (what the
   * memo's test compares against).
   */
  static SharedSlotMenu of(PlacementProblem problem, SharingOptions options, GpuCosts importanceCosts, boolean memoized) {
    // shares are priced against the levels this decision offers (the cost of a whole GPU does not depend on them)
    GpuCosts costs = importanceCosts.forMpsLevels(options.mpsLevels());
    ClusterState state = problem.state();
    Cluster cluster = state.cluster();
    Capacity capacity = state.capacity();
    List<Slot> slots = new ArrayList<>();
    for (Map.Entry<String, Map<String, List<Gpu>>> byType : capacity.byTypeAndNode().entrySet()) {
      GpuType type = cluster.type(byType.getKey());
      GpuPartitioning parts = type.partitioning();
      List<Placement> menu = new ArrayList<>();
      menu.add(new Whole());
      if (options.enabled()) {
        menu.addAll(contendedLevels(parts, options, parts.memoryBytes() - (parts.mps() ? parts.mpsProcessOverheadBytes() : 0)));
        parts.templates().forEach(t -> menu.add(new TemplatePartition(t.name())));
      }
      List<String> shapes = menu.stream().map(p -> shapeOf(type, p)).toList();
      for (Map.Entry<String, List<Gpu>> byNode : byType.getValue().entrySet()) {
        for (int i = 0; i < menu.size(); i++) {
          slots.add(freeSlot(state, costs, type, byNode.getKey(), byNode.getValue(), menu.get(i), shapes.get(i)));
        }
      }
    }
    if (options.enabled()) {
      slots.addAll(partlyUsed(problem, options, costs, memoized ? PartlyUsedMemo.of(cluster) : PartlyUsedMemo.fresh(cluster)));
    }
    return new SharedSlotMenu(Collections.unmodifiableList(slots));
  }

  /** As {@link #of(PlacementProblem, SharingOptions, GpuCosts)}, evaluating the problem's importance. */
  public static SharedSlotMenu of(PlacementProblem problem, SharingOptions options) {
    return of(problem, options, problem.importance().evaluate(problem.state()));
  }

  /** Every slot: free-GPU classes (type order, node order, whole first), then partly used GPUs. */
  public List<Slot> slots() {
    return slots;
  }

  /**
   * The contended placements of the menu on a type with {@code parts}, each reserving
   * {@code reservationBytes}: an MPS share per level of {@link SharingOptions#mpsLevels()} on
   * types with MPS, a CU mask of that part of the card's CUs (rounded down, at least one) on types
   * with CU masking, none on others.
   */
  private static List<Placement> contendedLevels(GpuPartitioning parts, SharingOptions options, long reservationBytes) {
    List<Placement> out = new ArrayList<>();
    if (!parts.mps() && parts.computeUnits() == 0) {
      return out;
    }
    for (double level : options.mpsLevels()) {
      Placement p = contendedLevel(parts, level, reservationBytes);
      if (!out.contains(p)) {
        out.add(p); // two levels may round to one CU count
      }
    }
    return out;
  }

  /**
   * The contended placement of compute part {@code level} on a type with MPS or CU masking
   * ({@code parts}), reserving {@code reservationBytes}: the MPS share itself, or a CU mask of that
   * part of the card's CUs, rounded down, at least one. Shared with the cluster co-location's
   * learned policy, so both menus cut a CU-mask card alike.
   */
  public static Placement contendedLevel(GpuPartitioning parts, double level, long reservationBytes) {
    if (parts.mps()) {
      return new MpsShare(level, reservationBytes);
    }
    return new CuMask(Math.max(1, (int) Math.floor(level * parts.requireComputeUnits() + 1e-9)), reservationBytes);
  }

  /**
   * True for the placements that reserve memory within the card rather than bring their own (MPS
   * shares and CU masks): a stage on one reserves exactly its memory ({@link #withReservation}).
   */
  public static boolean reservesMemory(Placement placement) {
    return placement instanceof MpsShare || placement instanceof CuMask;
  }

  /** {@code placement} reserving {@code memoryBytes} when it {@link #reservesMemory reserves memory}; any other placement as it is. */
  public static Placement withReservation(Placement placement, long memoryBytes) {
    if (placement instanceof MpsShare s) {
      return new MpsShare(s.fraction(), memoryBytes);
    }
    return placement instanceof CuMask c ? new CuMask(c.computeUnits(), memoryBytes) : placement;
  }

  /** The type and compute part of {@code placement} on {@code type}, as {@link Slot#shape()} names it. */
  public static String shapeOf(GpuType type, Placement placement) {
    if (placement instanceof MpsShare s) {
      return type.name() + " mps " + s.fraction();
    }
    return type.name() + " " + placement.label(); // a CU mask's label names its CUs, not its reservation
  }

  private static Slot freeSlot(ClusterState state, GpuCosts costs, GpuType type, String node, List<Gpu> gpus, Placement p, String shape) {
    int n = gpus.size();
    double[] cost = new double[n];
    boolean sorted = true;
    for (int i = 0; i < n; i++) {
      String id = gpus.get(i).id();
      cost[i] = p instanceof Whole ? costs.of(id) : costs.of(state, id, p);
      sorted &= i == 0 || cost[i - 1] <= cost[i];
    }
    List<Integer> order = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    if (!sorted) {
      order.sort(Comparator.comparingDouble(i -> cost[i])); // stable: cluster order among equal costs
    }
    List<String> ids = new ArrayList<>(n);
    List<Double> sortedCosts = new ArrayList<>(n);
    for (int i : order) {
      ids.add(gpus.get(i).id());
      sortedCosts.add(cost[i]);
    }
    long cap = p instanceof Whole ? type.memoryBytes() : p.memoryBytes(type.partitioning());
    return new Slot(Origin.FREE_GPUS, type, node, ids, sortedCosts, p, cap, 1, UNLIMITED, shape);
  }

  /** A partly used GPU's candidate before top-k: its placement, memory, fit and cost. */
  private record Candidate(Gpu gpu, int order, Placement placement, String shape, long memoryCap, double leftover, double cost,
      PartlyUsedMemo.Entry entry) {}

  /** Least left over, then cheapest, then cluster order; one comparator, as a menu sorts about a thousand of these. */
  private static final Comparator<Candidate> BEST_FIT_FIRST = (a, b) -> {
    int c = Double.compare(a.leftover(), b.leftover());
    if (c == 0) {
      c = Double.compare(a.cost(), b.cost());
    }
    return c != 0 ? c : Integer.compare(a.order(), b.order());
  };

  private static List<Slot> partlyUsed(PlacementProblem problem, SharingOptions options, GpuCosts costs, PartlyUsedMemo.Table memo) {
    ClusterState state = problem.state();
    Cluster cluster = state.cluster();
    Capacity capacity = state.capacity();
    List<Double> levels = options.mpsLevels();
    // the capacity lists MPS, MIG and template GPUs in cluster order, and a shape holds one kind: a running count keeps that order
    int ordinal = 0;
    Map<String, List<Candidate>> byShape = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : capacity.freeMpsShares().entrySet()) {
      int index = cluster.indexOf(e.getKey());
      Gpu gpu = cluster.gpus().get(index);
      double free = e.getValue();
      PartlyUsedMemo.Entry entry = memo.entry(state, index, PartlyUsedMemo.Kind.CONTENDED, free, levels,
          () -> contendedCandidates(state, gpu, options, free));
      if (entry.candidates.offered()) {
        ordinal++;
        ordinal = add(byShape, state, costs, gpu, ordinal, entry);
      }
    }
    for (Map.Entry<String, List<MigSlice>> e : capacity.freeMigInstances().entrySet()) {
      int index = cluster.indexOf(e.getKey());
      Gpu gpu = cluster.gpus().get(index);
      List<MigSlice> instances = e.getValue();
      PartlyUsedMemo.Entry entry = memo.entry(state, index, PartlyUsedMemo.Kind.MIG, instances, levels,
          () -> migCandidates(state, gpu, instances));
      ordinal = add(byShape, state, costs, gpu, ordinal + 1, entry);
    }
    for (Map.Entry<String, Integer> e : capacity.freeTemplateCores().entrySet()) {
      int index = cluster.indexOf(e.getKey());
      Gpu gpu = cluster.gpus().get(index);
      int cores = e.getValue();
      PartlyUsedMemo.Entry entry = memo.entry(state, index, PartlyUsedMemo.Kind.TEMPLATE, cores, levels,
          () -> templateCandidates(state, gpu, cores));
      ordinal = add(byShape, state, costs, gpu, ordinal + 1, entry);
    }
    InterferenceGuard guard = new InterferenceGuard(problem.performance(), problem.interference());
    Map<Gpu, List<Object>> around = new IdentityHashMap<>();
    List<Slot> out = new ArrayList<>();
    for (List<Candidate> candidates : byShape.values()) {
      // the order of a stable sort by BEST_FIT_FIRST, taken lazily: the top-k of hundreds is wanted
      LazyOrder order = new LazyOrder(candidates.size(), (a, b) -> BEST_FIT_FIRST.compare(candidates.get(a), candidates.get(b)));
      int kept = 0;
      for (int next = order.next(); next >= 0; next = order.next()) {
        Candidate c = candidates.get(next);
        if (kept == options.topK()) {
          break;
        }
        String id = c.gpu().id();
        List<Object> reads = around.computeIfAbsent(c.gpu(), g -> PartlyUsedMemo.around(state, id, problem.performance(), problem.interference()));
        PartlyUsedMemo.GuardAnswer answer = c.entry().guard(reads, c.placement(), () -> {
          int budget = guard.incumbentBudget(state, id, c.placement(), BUDGET_PROBE_CAP);
          // α only where the budget lets the slot on the menu
          return new PartlyUsedMemo.GuardAnswer(budget, budget < 1 ? Double.NaN : guard.newcomerSlowdown(state, id, c.placement()));
        });
        if (answer.budget() < 1) {
          continue;
        }
        out.add(new Slot(Origin.PARTLY_USED, cluster.typeOf(id), c.gpu().node(), List.of(id),
            List.of(c.cost()), c.placement(), c.memoryCap(), answer.alpha(), answer.budget(), c.shape()));
        kept++;
      }
    }
    return out;
  }

  /** Adds {@code entry}'s candidates on {@code gpu}, priced on {@code state}, at {@code ordinal} in cluster order; returns the ordinal. */
  private static int add(Map<String, List<Candidate>> byShape, ClusterState state, GpuCosts costs, Gpu gpu, int ordinal,
      PartlyUsedMemo.Entry entry) {
    for (PartlyUsedMemo.Candidate c : entry.candidates.list()) {
      byShape.computeIfAbsent(c.shape(), k -> new ArrayList<>())
          .add(new Candidate(gpu, ordinal, c.placement(), c.shape(), c.memoryCap(), c.leftover(), costs.of(state, gpu.id(), c.placement()),
          entry));
    }
    return ordinal;
  }

  /**
   * A partly used MPS or CU-mask GPU's candidates: each menu level that fits the {@code free}
   * compute, reserving what the ledger's rules leave; none offered at the MPS client limit or
   * without memory for one more reservation.
   */
  private static PartlyUsedMemo.Candidates contendedCandidates(ClusterState state, Gpu gpu, SharingOptions options, double free) {
    GpuPartitioning parts = state.partitioning(gpu.id());
    if (parts.mps() && mpsClients(state, gpu.id()) >= parts.mpsClientLimit()) {
      return new PartlyUsedMemo.Candidates(false, List.of());
    }
    long cap = contendedMemoryCap(state, gpu.id(), parts);
    if (cap <= 0) {
      return new PartlyUsedMemo.Candidates(false, List.of());
    }
    GpuType type = state.cluster().typeOf(gpu.id());
    List<PartlyUsedMemo.Candidate> out = new ArrayList<>();
    for (Placement p : contendedLevels(parts, options, cap)) {
      double fraction = p.computeFraction(parts);
      if (fraction <= free) {
        out.add(new PartlyUsedMemo.Candidate(p, shapeOf(type, p), cap, free - fraction));
      }
    }
    return new PartlyUsedMemo.Candidates(true, List.copyOf(out));
  }

  /** A MIG GPU's candidates: each of its free {@code instances} as it is. */
  private static PartlyUsedMemo.Candidates migCandidates(ClusterState state, Gpu gpu, List<MigSlice> instances) {
    GpuPartitioning parts = state.partitioning(gpu.id());
    GpuType type = state.cluster().typeOf(gpu.id());
    List<PartlyUsedMemo.Candidate> out = new ArrayList<>();
    for (MigSlice instance : instances) {
      out.add(new PartlyUsedMemo.Candidate(instance, shapeOf(type, instance), instance.memoryBytes(parts), instances.size() - 1));
    }
    return new PartlyUsedMemo.Candidates(true, List.copyOf(out));
  }

  /** A partitioned NPU's candidates: each template whose cores fit its free {@code cores} and whose memory fits what nobody holds. */
  private static PartlyUsedMemo.Candidates templateCandidates(ClusterState state, Gpu gpu, int cores) {
    long freeMemory = state.freeMemoryBytes(gpu.id());
    GpuType type = state.cluster().typeOf(gpu.id());
    List<PartlyUsedMemo.Candidate> out = new ArrayList<>();
    for (PartitionTemplate t : state.partitioning(gpu.id()).templates()) {
      if (t.cores() <= cores && t.memoryBytes() <= freeMemory) {
        Placement p = new TemplatePartition(t.name());
        out.add(new PartlyUsedMemo.Candidate(p, shapeOf(type, p), t.memoryBytes(), cores - t.cores()));
      }
    }
    return new PartlyUsedMemo.Candidates(true, List.copyOf(out));
  }

  private static int mpsClients(ClusterState state, String gpu) {
    int n = 0;
    for (Holding h : state.holdingsOn(gpu)) {
      if (h.placement() instanceof MpsShare) {
        n++;
      }
    }
    return n;
  }

  /**
   * The reservation one more MPS process or CU mask may make on {@code gpu}: the card's memory
   * less every reservation (each MPS process with its context) and, for an MPS process, its own
   * context ({@code MpsAdmission}'s rule), and no more than the memory nobody holds.
   */
  private static long contendedMemoryCap(ClusterState state, String gpu, GpuPartitioning parts) {
    long used = 0;
    for (Holding h : state.holdingsOn(gpu)) {
      used += h.placement() instanceof MpsShare s ? s.memoryBytes() + parts.mpsProcessOverheadBytes() : h.placement().memoryBytes(parts);
    }
    return Math.min(parts.memoryBytes() - used - (parts.mps() ? parts.mpsProcessOverheadBytes() : 0), state.freeMemoryBytes(gpu));
  }
}
