package org.rampa.domain;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.immutables.value.Value;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.ShareViolation;

/**
 * Who holds what in a cluster: an immutable ledger of {@link Allocation}s, keyed by service id,
 * plus the MIG layout configured on each GPU that has one.
 *
 * <p>Several services may hold one GPU. Each GPU is in one {@link GpuMode}, and the holdings on it
 * obey the rules of docs/SHARING.md section 1 (checked by {@code GpuRules}): a whole holding alone;
 * MPS shares and CU masks whose compute sums to at most {@code 1 + mpsOvercommit()}, within the
 * client limit and, with one context per process, the card's memory; MIG holdings on free
 * instances of the configured layout, each within its instance's memory; NPU templates within the
 * card's cores. A GPU's mode or MIG layout changes only while nobody holds any part of it.
 * {@link #allocate} and {@link #release} return new states; a refused allocation throws, names the
 * GPU and the rule, and leaves nothing changed. {@link #version()} counts the changes, for
 * optimistic concurrency ({@link ClusterStateHolder}).
 *
 * @since 0.1.0
 */
@Value.Immutable
@LedgerStyle
@JsonSerialize(as = ImmutableClusterState.class)
@JsonDeserialize(as = ImmutableClusterState.class)
public abstract class ClusterState {

  /** The rules only a configured MIG layout can break: holdings' own profiles and starts are PLACEMENT's. */
  private static final Set<ShareViolation.Rule> LAYOUT_RULES =
      Set.of(ShareViolation.Rule.MIG_PROFILE, ShareViolation.Rule.MIG_START, ShareViolation.Rule.MIG_OVERLAP);

  /**
   * Set on this thread while {@link #allocate(Allocation)} builds the successor of a checked state:
   * {@link #conflicts(Allocation)} has just checked every GPU the allocation touches with all it
   * will hold, and every other GPU is as in the predecessor, which passed {@link #check()} when it
   * was built. Re-checking the whole ledger there (twice: one copy per changed attribute) was most
   * of an allocation's time on a large shared cluster.
   */
  private static final ThreadLocal<Boolean> BUILDING_CHECKED_SUCCESSOR = new ThreadLocal<>();

  public abstract Cluster cluster();

  /**
   * The ledger: each service's allocation by service id, in the order they were added. Unmodifiable;
   * a persistent map, so the state {@link #allocate} or {@link #release} makes shares all of it but
   * the change's path instead of copying it.
   */
  @Value.Default
  public Map<String, Allocation> allocations() {
    return LedgerMap.empty();
  }

  /** The MIG layout of each GPU configured in MIG mode; GPUs not listed have none. Unmodifiable. */
  @Value.Default
  public Map<String, List<MigSlice>> migLayouts() {
    return LedgerMap.empty();
  }

  /** How far MPS compute shares on one GPU may sum past 1: 0 unless a user opts in. */
  @Value.Default
  public double mpsOvercommit() {
    return 0;
  }

  @Value.Default
  public long version() {
    return 0;
  }

  public static ClusterState empty(Cluster cluster) {
    return ImmutableClusterState.builder().cluster(cluster).build();
  }

  /**
   * The ledger by GPU, built on first use or handed over by the predecessor ({@link #allocate},
   * {@link #release}); not an attribute, so equality and serialisation ignore it.
   */
  private volatile LedgerIndex ledgerIndex;

  /**
   * The predecessor's capacity and the GPUs the change touched, when the predecessor had built its
   * capacity: this state's is derived from it (cleared once built, so states never chain).
   */
  private volatile CapacitySeed capacitySeed;

  /** The capacity this state built, for a successor to derive its own from. */
  private volatile Capacity builtCapacity;

  private record CapacitySeed(Capacity predecessor, List<String> touchedGpus) {}

  final LedgerIndex ledgerIndex() {
    LedgerIndex index = ledgerIndex;
    if (index == null) {
      index = LedgerIndex.of(cluster(), allocations());
      ledgerIndex = index;
    }
    return index;
  }

  /** Everything held on {@code gpuId}, in allocation order. */
  public final List<Holding> holdingsOn(String gpuId) {
    int i = cluster().indexOf(gpuId);
    return i < 0 ? List.of() : ledgerIndex().holdingsAt(i);
  }

  /** The services holding any part of {@code gpuId}, in ledger order. */
  public final List<String> servicesOn(String gpuId) {
    int i = cluster().indexOf(gpuId);
    return i < 0 ? new ArrayList<>() : new ArrayList<>(ledgerIndex().servicesAt(i));
  }

  /** The MIG layout of {@code gpuId}; empty when it has none. */
  public final List<MigSlice> migLayout(String gpuId) {
    return migLayouts().getOrDefault(gpuId, List.of());
  }

  /**
   * The GPUs in MPS mode that several services share, with those services: each is one fault
   * domain (docs/SHARING.md section 1: one client's fatal error stops the MPS server and all of them).
   */
  public final Map<String, List<String>> mpsFaultDomains() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (Gpu g : cluster().gpus()) {
      addFaultDomain(out, g.id());
    }
    return out;
  }

  /**
   * The fault domains of {@link #mpsFaultDomains()} on {@code gpuIds} only, in the same (cluster)
   * order: what a plan joins, read off its few GPUs instead of every GPU of a large cluster. Ids the
   * cluster lacks are in no fault domain.
   */
  public final Map<String, List<String>> mpsFaultDomains(Collection<String> gpuIds) {
    Cluster c = cluster();
    int[] positions = gpuIds.stream().mapToInt(c::indexOf).filter(i -> i >= 0).distinct().sorted().toArray();
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (int i : positions) {
      addFaultDomain(out, c.gpus().get(i).id());
    }
    return out;
  }

  /** Adds {@code gpuId}'s services to {@code out} when it is an MPS GPU that several services share. */
  private void addFaultDomain(Map<String, List<String>> out, String gpuId) {
    if (mode(gpuId) == GpuMode.MPS) {
      List<String> services = servicesOn(gpuId);
      if (services.size() > 1) {
        out.put(gpuId, services);
      }
    }
  }

  /** The mode {@code gpuId} is in. */
  public final GpuMode mode(String gpuId) {
    return GpuRules.mode(migLayout(gpuId), holdingsOn(gpuId));
  }

  /** How {@code gpuId}'s type can be divided. */
  public final GpuPartitioning partitioning(String gpuId) {
    return cluster().typeOf(gpuId).partitioning();
  }

  /** The fraction of its GPU's compute {@code holding} takes. */
  public final double computeFraction(Holding holding) {
    return holding.placement().computeFraction(partitioning(holding.gpu()));
  }

  /** Fraction of the GPU's compute not held by anyone, in [0, 1]. */
  public final double freeShare(String gpuId) {
    List<Holding> on = holdingsOn(gpuId);
    if (on.isEmpty()) {
      return 1.0;
    }
    // every holding on the GPU is of its partitioning: looked up once, not once per holding (computeFraction's)
    GpuPartitioning parts = partitioning(gpuId);
    double held = 0;
    for (Holding h : on) {
      held += h.placement().computeFraction(parts);
    }
    return Math.max(0, 1.0 - held);
  }

  public final long freeMemoryBytes(String gpuId) {
    long held = 0;
    for (Holding h : holdingsOn(gpuId)) {
      held += h.memoryBytes();
    }
    return cluster().typeOf(gpuId).memoryBytes() - held;
  }

  /** True when nobody holds any part of the GPU. */
  public final boolean isFree(String gpuId) {
    return holdingsOn(gpuId).isEmpty();
  }

  /**
   * The GPUs nobody holds (those {@link #isFree} is true of, layouts or not), in cluster order: read
   * off the ledger index by position, without looking each GPU up by id.
   */
  public final List<Gpu> gpusNobodyHolds() {
    LedgerIndex index = ledgerIndex();
    List<Gpu> gpus = cluster().gpus();
    List<Gpu> out = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      if (index.holdingsAt(i).isEmpty()) {
        out.add(gpus.get(i));
      }
    }
    return out;
  }

  /** GPUs a new stage may take whole, in cluster order (as {@link #capacity()} offers them). */
  public final List<Gpu> freeGpus() {
    return capacity().gpus();
  }

  /**
   * What a new service can use here: the view strategies and importance models ask. A state made by
   * {@link #allocate} or {@link #release} from one whose capacity was built derives its own from it
   * by the GPUs the change touched.
   */
  @Value.Lazy
  @JsonIgnore
  public Capacity capacity() {
    CapacitySeed seed = capacitySeed;
    Capacity capacity = seed == null ? Capacity.of(this) : seed.predecessor().updated(this, seed.touchedGpus());
    capacitySeed = null;
    builtCapacity = capacity;
    return capacity;
  }

  /**
   * Hands this state's derived views, updated by {@code change}, to its successor {@code next}. The
   * ledger index is built here if it was not yet, and a capacity this state never built passes on
   * as its own seed plus the change, so that a run of changes nobody looked at in between (several
   * departures before the next arrival) never makes a successor rebuild either from the whole ledger.
   */
  private ClusterState seeded(ClusterState next, Allocation change, boolean added) {
    LedgerIndex index = ledgerIndex();
    next.ledgerIndex = added ? index.plus(cluster(), change) : index.minus(cluster(), change);
    return seededCapacity(next, change.holdings().stream().map(Holding::gpu).toList());
  }

  /** Hands this state's capacity, or its seed, plus the GPUs {@code changed} to its successor {@code next} (see {@link #seeded}). */
  private ClusterState seededCapacity(ClusterState next, List<String> changed) {
    Capacity built = builtCapacity;
    CapacitySeed pending = capacitySeed;
    List<String> touched = new ArrayList<>(changed.size() + (built == null && pending != null ? pending.touchedGpus().size() : 0));
    if (built == null && pending != null) {
      touched.addAll(pending.touchedGpus());
    }
    touched.addAll(changed);
    Capacity from = built != null ? built : pending != null ? pending.predecessor() : null;
    // past one entry per GPU, rebuilding from the ledger is no dearer than replaying the changes
    if (from != null && touched.size() <= cluster().gpus().size()) {
      next.capacitySeed = new CapacitySeed(from, touched);
    }
    return next;
  }

  public final boolean holds(String serviceId) {
    return allocations().containsKey(serviceId);
  }

  /** Why {@code plan} cannot be allocated here; empty when it can. */
  public final List<String> conflicts(Plan plan) {
    return conflicts(Allocation.of(plan));
  }

  /** Why {@code allocation} cannot be added here; empty when it can. */
  public final List<String> conflicts(Allocation allocation) {
    List<String> conflicts = new ArrayList<>();
    if (holds(allocation.serviceId())) {
      conflicts.add("service \"" + allocation.serviceId() + "\" already holds resources; release it first");
    }
    Map<String, List<Holding>> wanted = new LinkedHashMap<>();
    for (Holding h : allocation.holdings()) {
      if (!cluster().hasGpu(h.gpu())) {
        conflicts.add("GPU \"" + h.gpu() + "\" is not in the cluster");
        continue;
      }
      wanted.computeIfAbsent(h.gpu(), g -> new ArrayList<>(holdingsOn(g))).add(h);
    }
    wanted.forEach((gpu, all) -> GpuRules.check(partitioning(gpu), migLayout(gpu), all, mpsOvercommit()).ifPresent(v -> conflicts.add(
        "GPU \"" + gpu + "\" (held by " + servicesOn(gpu) + "): " + v)));
    return conflicts;
  }

  /** A new state in which {@code plan}'s service holds what the plan needs. */
  public final ClusterState allocate(Plan plan) {
    return allocate(Allocation.of(plan));
  }

  /**
   * A new state in which {@code allocation}'s service holds its holdings; refused (nothing
   * changed) when the service holds something already or a GPU's rules would be broken.
   */
  public final ClusterState allocate(Allocation allocation) {
    List<String> conflicts = conflicts(allocation);
    if (!conflicts.isEmpty()) {
      throw new AllocationRefusedException(allocation.serviceId(), conflicts);
    }
    Map<String, Allocation> next = LedgerMap.copyOf(allocations()).plus(allocation.serviceId(), allocation);
    if (!(this instanceof ImmutableClusterState checked)) {
      return ImmutableClusterState.copyOf(this).withAllocations(next).withVersion(version() + 1);
    }
    BUILDING_CHECKED_SUCCESSOR.set(Boolean.TRUE);
    try {
      return seeded(checked.withAllocations(next).withVersion(version() + 1), allocation, true);
    } finally {
      BUILDING_CHECKED_SUCCESSOR.remove();
    }
  }

  /**
   * A new state in which every plan's service holds what its plan needs, in one step: all of them
   * or, if any conflicts with the state or with another of the plans, none.
   */
  public final ClusterState allocateAll(java.util.Collection<Plan> plans) {
    ClusterState probe = this;
    LedgerMap<Allocation> all = LedgerMap.copyOf(allocations());
    for (Plan plan : plans) {
      if (all.containsKey(plan.serviceId())) {
        throw new AllocationRefusedException(plan.serviceId(), List.of("the service already holds resources or appears twice"));
      }
      all = all.plus(plan.serviceId(), Allocation.of(plan));
    }
    try {
      return ImmutableClusterState.copyOf(this).withAllocations(all).withVersion(version() + 1);
    } catch (IllegalArgumentException e) {
      // the combined ledger breaks a GPU's rules: find the first plan that does, for the message
      for (Plan plan : plans) {
        List<String> conflicts = probe.conflicts(plan);
        if (!conflicts.isEmpty()) {
          throw new AllocationRefusedException(plan.serviceId(), conflicts);
        }
        probe = probe.allocate(plan);
      }
      throw e;
    }
  }

  /**
   * A new state in which {@code gpuId} is in MIG mode with {@code layout} (empty: out of MIG
   * mode). Refused, naming the rule, when anyone holds part of the GPU or the layout is illegal.
   */
  public final ClusterState configureMig(String gpuId, List<MigSlice> layout) {
    if (!cluster().hasGpu(gpuId)) {
      throw Invalid.value("migLayouts.gpu", gpuId, "is not in the cluster");
    }
    if (!isFree(gpuId)) {
      throw Invalid.value("migLayouts[" + gpuId + "]", GpuRules.labels(layout), ShareViolation.Rule.RECONFIGURATION
          + ": the layout changes only on an empty GPU; it is held by " + servicesOn(gpuId), "release those services first");
    }
    LedgerMap<List<MigSlice>> layouts = LedgerMap.copyOf(migLayouts());
    layouts = layout.isEmpty() ? layouts.minus(gpuId) : layouts.plus(gpuId, List.copyOf(layout));
    if (!(this instanceof ImmutableClusterState checked)) {
      return ImmutableClusterState.copyOf(this).withMigLayouts(layouts).withVersion(version() + 1);
    }
    // only this GPU changed, and nobody holds it: its new layout is all there is to check (a full
    // re-check of the ledger, twice, was most of a mode change's time on a 1000-GPU cluster)
    checkGpu(gpuId, layout.isEmpty() ? List.of() : layout, List.of());
    BUILDING_CHECKED_SUCCESSOR.set(Boolean.TRUE);
    try {
      ClusterState next = checked.withMigLayouts(layouts).withVersion(version() + 1);
      next.ledgerIndex = ledgerIndex(); // the same allocations
      return seededCapacity(next, List.of(gpuId));
    } finally {
      BUILDING_CHECKED_SUCCESSOR.remove();
    }
  }

  /** A new state without {@code serviceId}'s holdings. */
  public final ClusterState release(String serviceId) {
    if (!holds(serviceId)) {
      throw Invalid.value(
          "serviceId", serviceId, "holds nothing in this cluster state",
          "it was never admitted, was released already, or the state is an older version");
    }
    Allocation gone = allocations().get(serviceId);
    Map<String, Allocation> rest = LedgerMap.copyOf(allocations()).minus(serviceId);
    if (!(this instanceof ImmutableClusterState checked)) {
      return ImmutableClusterState.copyOf(this).withAllocations(rest).withVersion(version() + 1);
    }
    // taking holdings away never breaks a GPU's rules, and every GPU kept passed the predecessor's check
    BUILDING_CHECKED_SUCCESSOR.set(Boolean.TRUE);
    try {
      return seeded(checked.withAllocations(rest).withVersion(version() + 1), gone, false);
    } finally {
      BUILDING_CHECKED_SUCCESSOR.remove();
    }
  }

  /**
   * This state, checked; or, when a builder or JSON gave it other maps, an equal state holding them
   * as {@link LedgerMap}s (checked as it is built), so that the maps are copied once, here, and
   * never again by a change.
   */
  @Value.Check
  protected ClusterState check() {
    if (!(allocations() instanceof LedgerMap<?>) || !(migLayouts() instanceof LedgerMap<?>)) {
      return ImmutableClusterState.builder().from(this)
          .allocations(LedgerMap.copyOf(nonNull("clusterState.allocations", allocations())))
          .migLayouts(LedgerMap.copyOf(nonNull("clusterState.migLayouts", migLayouts())))
          .build();
    }
    if (BUILDING_CHECKED_SUCCESSOR.get() != null) {
      return this; // see BUILDING_CHECKED_SUCCESSOR: allocate checked exactly what changed
    }
    Invalid.requireFiniteNonNegative("clusterState.mpsOvercommit", mpsOvercommit());
    allocations().forEach((id, a) -> {
      if (!id.equals(a.serviceId())) {
        throw Invalid.value("clusterState.allocations[" + id + "].serviceId", a.serviceId(), "must equal its key");
      }
    });
    for (String gpu : ledgerIndex().unknownGpus) {
      throw Invalid.value("clusterState.holdings.gpu", gpu, "is not in the cluster");
    }
    for (String gpu : migLayouts().keySet()) {
      if (!cluster().hasGpu(gpu)) {
        throw Invalid.value("clusterState.migLayouts.gpu", gpu, "is not in the cluster");
      }
    }
    Set<String> touched = new LinkedHashSet<>();
    for (int i : ledgerIndex().heldPositions()) {
      touched.add(cluster().gpus().get(i).id());
    }
    touched.addAll(migLayouts().keySet());
    for (String gpu : touched) {
      checkGpu(gpu, migLayout(gpu), holdingsOn(gpu));
    }
    return this;
  }

  /** Refuses, naming the GPU and the rule, when {@code layout} and {@code on} break {@code gpu}'s rules. */
  private void checkGpu(String gpu, List<MigSlice> layout, List<Holding> on) {
    GpuRules.check(partitioning(gpu), layout, on, mpsOvercommit()).ifPresent(v -> {
      if (LAYOUT_RULES.contains(v.rule())) {
        throw Invalid.value("migLayouts[" + gpu + "]", GpuRules.labels(layout), v.toString());
      }
      throw Invalid.value("allocations.holdings[" + gpu + "]", on.stream().map(h -> h.placement().label()).toList(), v.toString());
    });
  }

  private static <V> Map<String, V> nonNull(String field, Map<String, V> map) {
    map.forEach((key, value) -> {
      if (key == null || value == null) {
        throw Invalid.value(field + "[" + key + "]", value, "keys and values must not be null", "leave the entry out instead");
      }
    });
    return map;
  }
}
