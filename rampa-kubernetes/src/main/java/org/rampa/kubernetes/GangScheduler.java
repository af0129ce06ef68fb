package org.rampa.kubernetes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rampa.Rampa;
import org.rampa.domain.Allocation;
import org.rampa.domain.Capacity;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.Invalid;
import org.rampa.domain.Link;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.SharingOptions;
import org.rampa.verify.InterferenceGuard;

/**
 * The extender's brain: the Kubernetes nodes and GPU pods it was told about, the RAMPA ledger
 * built from them ({@link ClusterStateHolder}), and one {@link Reservation} per RAMPA service.
 *
 * <p>The first pod of a service that reaches {@link #filter} plans the whole service (all stages,
 * all replicas) against the ledger and reserves it there with a versioned commit; every pod of the
 * service is then filtered to its slot's node. Services plan one at a time, each against the
 * ledger's current version and committed with it ({@link ClusterStateHolder#admit}), so two services
 * never hold one GPU. Node and pod events only mark the ledger stale; it is rebuilt, under a write lock that
 * waits for running plans, by the next request or {@link #maintain()}. A rebuild takes the
 * reservations and, as foreign holdings, the GPUs that bound pods not matching a reservation's slot
 * use (GPU pods of other schedulers, pods of expired gangs); a reservation whose GPUs are gone or
 * taken is dropped and reported.
 */
public final class GangScheduler {

  /** How the scheduler plans and how long a reservation waits for its pods. */
  public record Config(String defaultStrategy, Duration timeLimit, Duration reservationTtl, GpuProducts products,
      Link network, ImportanceModel importance, Clock clock) {

    /** kube-scheduler waits 5 s for an extender by default; a plan must leave time to answer. */
    public static final Duration MAX_TIME_LIMIT = Duration.ofMillis(4_000);

    public Config {
      Objects.requireNonNull(defaultStrategy, "defaultStrategy");
      Objects.requireNonNull(products, "products");
      Objects.requireNonNull(network, "network");
      Objects.requireNonNull(importance, "importance");
      Objects.requireNonNull(clock, "clock");
      if (timeLimit.isNegative() || timeLimit.isZero() || timeLimit.compareTo(MAX_TIME_LIMIT) > 0) {
        throw Invalid.value("timeLimit", timeLimit, "must lie in (0, " + MAX_TIME_LIMIT + "]",
            "keep it below kube-scheduler's httpTimeout (5 s by default) so the extender answers in time");
      }
      if (!Strategies.available().contains(defaultStrategy)) {
        throw Invalid.value("strategy", defaultStrategy, "is not on the class path",
            "use one of " + Strategies.available() + " (exact needs rampa-solver on the class path)");
      }
      if (reservationTtl.isNegative() || reservationTtl.isZero()) {
        throw Invalid.value("reservationTtl", reservationTtl, "must be > 0");
      }
    }
  }

  /** A filter answer: the nodes that pass, and why each other node does not. */
  public record FilterDecision(List<String> passed, Map<String, String> failed, Map<String, String> unresolvable) {}

  /** A reservation that ended without its pods, or was dropped. */
  public record Released(String service, String why, Instant at) {}

  /** Ledger ids of what is no RAMPA service: GPUs of foreign pods, and of cordoned nodes. Service ids never hold '@'. */
  private static final String FOREIGN = "pods@";
  private static final String CORDONED = "cordoned@";
  /** Less than this left for a plan is no time to plan in. */
  private static final long MIN_PLAN_NANOS = 10_000_000;
  private static final int HISTORY = 100;

  private final Config config;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /**
   * One planner at a time: concurrent services on one cluster all want its least valuable GPUs, so
   * optimistic planners mostly re-plan after another's commit (measured: 200 concurrent new services
   * on 1000 nodes caused 1761 stale commits and 1382 re-plans). Fair, so services plan in arrival order.
   */
  private final ReentrantLock planning = new ReentrantLock(true);

  // inputs, guarded by lock's write lock for writes and by inputsLock for event threads
  private final Object inputsLock = new Object();
  private final Map<String, NodeInfo> nodes = new HashMap<>();
  private final Map<String, PodInfo> gpuPods = new HashMap<>();
  private boolean nodesChanged = true;
  private volatile boolean stale = true;

  // derived, replaced by rebuild() under the write lock
  private ClusterModel model;
  private ClusterStateHolder holder;
  private final Map<String, Reservation> reservations = new ConcurrentHashMap<>();
  private final Deque<Released> released = new ArrayDeque<>();

  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
  /**
   * The strategies on the class path, looked up once: {@code Strategies.named} and {@code available}
   * scan every jar's service files at each call, which showed in every request's profile. The
   * strategies keep no state between calls, so one instance serves all threads.
   */
  private final Map<String, PlacementStrategy> strategies = new java.util.TreeMap<>();

  public GangScheduler(Config config) {
    this.config = Objects.requireNonNull(config, "config");
    for (String name : Strategies.available()) {
      strategies.put(name, Strategies.named(name));
    }
  }

  public Config config() {
    return config;
  }

  // ---------------------------------------------------------------- events (informer or requests)

  /** A node was added or changed; only its GPU facts matter. */
  public void upsertNode(NodeInfo node) {
    synchronized (inputsLock) {
      NodeInfo before = nodes.put(node.name(), node);
      if (!node.equals(before)) {
        nodesChanged = true;
        stale = true;
      }
    }
  }

  public void deleteNode(String name) {
    synchronized (inputsLock) {
      if (nodes.remove(name) != null) {
        nodesChanged = true;
        stale = true;
      }
    }
  }

  /** A pod was added or changed: a bound, running pod that asks for GPUs holds them. */
  public void upsertPod(PodInfo pod) {
    synchronized (inputsLock) {
      boolean holds = pod.nodeName().isPresent() && !pod.terminated() && pod.wantsGpus();
      PodInfo before = holds ? gpuPods.put(pod.key(), pod) : gpuPods.remove(pod.key());
      if (holds ? !pod.equals(before) : before != null) {
        stale = true;
      }
    }
  }

  public void deletePod(String namespace, String name) {
    synchronized (inputsLock) {
      if (gpuPods.remove(namespace + "/" + name) != null) {
        stale = true;
      }
    }
  }

  /** Replaces every node and pod at once: the informer's initial list, after a restart. */
  public void replaceAll(Collection<NodeInfo> allNodes, Collection<PodInfo> allPods) {
    synchronized (inputsLock) {
      nodes.clear();
      allNodes.forEach(n -> nodes.put(n.name(), n));
      gpuPods.clear();
      nodesChanged = true;
      stale = true;
    }
    allPods.forEach(this::upsertPod);
  }

  /** Brings the ledger up to date with the events so far and expires reservations whose pods did not come. */
  public void maintain() {
    if (stale) {
      rebuild();
    }
    Instant now = config.clock().instant();
    List<Reservation> due = reservations.values().stream()
        .filter(r -> r.unboundSince().map(t -> !now.isBefore(t.plus(config.reservationTtl()))).orElse(false))
        .toList();
    if (!due.isEmpty()) {
      lock.writeLock().lock();
      try {
        for (Reservation r : due) {
          if (reservations.remove(r.service().id(), r)) {
            count("reservationsExpired");
            remember(new Released(r.service().id(), "expired: " + (r.slots().size() - r.boundPods().size()) + " of "
                + r.slots().size() + " pods not bound within " + config.reservationTtl() + " since "
                + r.unboundSince().map(Instant::toString).orElse("?") + "; its GPUs are free again", now));
          }
        }
        stale = true;
      } finally {
        lock.writeLock().unlock();
      }
      rebuild();
    }
  }

  // ---------------------------------------------------------------- ledger

  private void rebuild() {
    lock.writeLock().lock();
    try {
      if (!stale) {
        return;
      }
      List<NodeInfo> nodeList;
      List<PodInfo> pods;
      boolean newModel;
      synchronized (inputsLock) {
        stale = false;
        newModel = nodesChanged || model == null;
        nodesChanged = false;
        nodeList = List.copyOf(nodes.values());
        pods = List.copyOf(gpuPods.values());
      }
      if (newModel) {
        model = ClusterModel.of(nodeList, config.products(), config.network());
      }
      if (model.cluster().isEmpty()) {
        holder = null;
        dropAll("no node with usable GPUs is known");
        return;
      }
      Cluster cluster = model.cluster().get();
      ClusterState base = model.emptyState();
      Instant now = config.clock().instant();
      // which slots have their pod; the other GPU pods are foreign holdings
      Map<String, Map<String, String>> bound = new HashMap<>();
      Map<String, List<PodInfo>> foreignByNode = new LinkedHashMap<>();
      for (PodInfo p : pods) {
        if (!claimsSlot(p, bound)) {
          foreignByNode.computeIfAbsent(p.nodeName().get(), n -> new ArrayList<>()).add(p);
        }
      }
      Set<String> taken = new HashSet<>(); // "gpu" for whole holdings, "gpu@start" for MIG instances
      Map<String, Allocation> allocations = new LinkedHashMap<>();
      Map<String, Integer> reservedSlots = reservedKeys();
      for (Map.Entry<String, List<PodInfo>> e : foreignByNode.entrySet()) {
        if (!cluster.gpusOn(e.getKey()).isEmpty()) {
          foreignAllocation(base, e.getKey(), e.getValue(), taken, reservedSlots).ifPresent(a -> allocations.put(a.serviceId(), a));
        }
      }
      List<Reservation> ordered = new ArrayList<>(reservations.values());
      ordered.sort(Comparator.comparing(Reservation::createdAt));
      for (Reservation r : ordered) {
        Optional<String> conflict = conflict(cluster, base, r, taken);
        if (conflict.isPresent()) {
          reservations.remove(r.service().id());
          count("reservationsLost");
          remember(new Released(r.service().id(), "dropped: " + conflict.get(), now));
          continue;
        }
        r.bindings(bound.getOrDefault(r.service().id(), Map.of()), now);
        allocations.put(r.service().id(), Allocation.of(r.request(), r.plan()));
      }
      for (String node : model.cordoned()) {
        cordonAllocation(base, node, taken).ifPresent(a -> allocations.put(a.serviceId(), a));
      }
      ClusterState state = ImmutableClusterState.builder().from(base).allocations(allocations).version(nextVersion()).build();
      holder = new ClusterStateHolder(state);
      count("ledgerRebuilds");
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Versions grow across rebuilds, so a plan made before a rebuild can never commit after it. */
  private long nextVersion() {
    return holder == null ? 1 : holder.current().version() + 1;
  }

  private void dropAll(String why) {
    Instant now = config.clock().instant();
    for (String id : List.copyOf(reservations.keySet())) {
      reservations.remove(id);
      remember(new Released(id, "dropped: " + why, now));
    }
  }

  /** True when {@code p} is the pod of a live reservation's slot, bound on that slot's node; records it in {@code bound}. */
  private boolean claimsSlot(PodInfo p, Map<String, Map<String, String>> bound) {
    if (!PodContract.isRampaPod(p)) {
      return false;
    }
    PodContract c;
    try {
      c = PodContract.of(p, config.defaultStrategy(), strategies.keySet());
    } catch (PodContract.ContractException e) {
      return false;
    }
    Reservation r = reservations.get(c.service().id());
    if (r == null) {
      return false;
    }
    Optional<Reservation.Slot> slot = r.slot(c.stage(), c.replica());
    if (slot.isEmpty() || !slot.get().node().equals(p.nodeName().get())) {
      return false;
    }
    Map<String, String> slots = bound.computeIfAbsent(r.service().id(), k -> new HashMap<>());
    return slots.putIfAbsent(Reservation.key(c.stage(), c.replica()), p.key()) == null;
  }

  /** How often each GPU ("gpu") and MIG instance ("gpu@start") is named by a live reservation. */
  private Map<String, Integer> reservedKeys() {
    Map<String, Integer> keys = new HashMap<>();
    for (Reservation r : reservations.values()) {
      for (Reservation.Slot s : r.slots().values()) {
        keys.merge(holdingKey(s.gpu(), s.placement()), 1, Integer::sum);
      }
    }
    return keys;
  }

  /** A holding of all of {@code placement} on {@code gpu}: its memory by the placement's own rule. */
  private static Holding occupying(ClusterState state, String gpu, Placement placement) {
    return Holding.of(gpu, placement, placement.memoryBytes(state.partitioning(gpu)));
  }

  private static String holdingKey(String gpu, Placement placement) {
    return placement instanceof MigSlice m ? gpu + "@" + m.start() : gpu;
  }

  /**
   * What the foreign pods on {@code node} hold: whole GPUs and MIG instances of their profiles,
   * preferring those no reservation names, so a reservation is dropped only when the node really
   * lacks room for both. Pods asking for more than the node has are capped at what it has.
   */
  private static Optional<Allocation> foreignAllocation(ClusterState base, String node, List<PodInfo> pods, Set<String> taken,
      Map<String, Integer> reserved) {
    Cluster cluster = base.cluster();
    int wholeWanted = pods.stream().mapToInt(PodInfo::gpus).sum();
    Map<String, Integer> migWanted = new HashMap<>();
    pods.forEach(p -> p.migInstances().forEach((profile, n) -> migWanted.merge(profile, n, Integer::sum)));
    List<Holding> holdings = new ArrayList<>();
    List<Gpu> wholeGpus = new ArrayList<>();
    List<Map.Entry<String, MigSlice>> instances = new ArrayList<>();
    for (Gpu g : cluster.gpusOn(node)) {
      List<MigSlice> layout = base.migLayout(g.id());
      if (layout.isEmpty()) {
        wholeGpus.add(g);
      } else {
        layout.forEach(s -> instances.add(Map.entry(g.id(), s)));
      }
    }
    wholeGpus.sort(Comparator.comparing(g -> reserved.getOrDefault(g.id(), 0)));
    instances.sort(Comparator.comparing(e -> reserved.getOrDefault(holdingKey(e.getKey(), e.getValue()), 0)));
    for (Gpu g : wholeGpus) {
      if (wholeWanted == 0) {
        break;
      }
      if (taken.add(g.id())) {
        holdings.add(occupying(base, g.id(), new Whole()));
        wholeWanted--;
      }
    }
    for (Map.Entry<String, MigSlice> e : instances) {
      Integer left = migWanted.get(e.getValue().profile());
      if (left != null && left > 0 && taken.add(holdingKey(e.getKey(), e.getValue()))) {
        holdings.add(occupying(base, e.getKey(), e.getValue()));
        migWanted.put(e.getValue().profile(), left - 1);
      }
    }
    return holdings.isEmpty() ? Optional.empty() : Optional.of(Allocation.of(FOREIGN + node, holdings));
  }

  /** Everything on cordoned {@code node} that nobody holds, so no new plan goes there. */
  private static Optional<Allocation> cordonAllocation(ClusterState base, String node, Set<String> taken) {
    List<Holding> holdings = new ArrayList<>();
    for (Gpu g : base.cluster().gpusOn(node)) {
      List<MigSlice> layout = base.migLayout(g.id());
      if (layout.isEmpty()) {
        if (taken.add(g.id())) {
          holdings.add(occupying(base, g.id(), new Whole()));
        }
      } else {
        for (MigSlice s : layout) {
          if (taken.add(holdingKey(g.id(), s))) {
            holdings.add(occupying(base, g.id(), s));
          }
        }
      }
    }
    return holdings.isEmpty() ? Optional.empty() : Optional.of(Allocation.of(CORDONED + node, holdings));
  }

  /** Why {@code r} no longer fits this ledger, or empty (then its holdings are added to {@code taken}). */
  private static Optional<String> conflict(Cluster cluster, ClusterState base, Reservation r, Set<String> taken) {
    List<String> keys = new ArrayList<>();
    for (Reservation.Slot s : r.slots().values()) {
      if (!cluster.hasGpu(s.gpu())) {
        return Optional.of("GPU " + s.gpu() + " of stage " + s.stage() + " replica " + s.replica() + " is gone (node removed or its GPU labels changed)");
      }
      boolean layoutHasIt = s.placement() instanceof MigSlice m ? base.migLayout(s.gpu()).contains(m) : base.migLayout(s.gpu()).isEmpty();
      if (!layoutHasIt) {
        return Optional.of("GPU " + s.gpu() + " no longer offers " + s.placement().label() + " (its MIG layout changed)");
      }
      String key = holdingKey(s.gpu(), s.placement());
      if (taken.contains(key)) {
        return Optional.of("GPU " + s.gpu() + " (" + s.placement().label() + ") is used by a pod RAMPA did not place there");
      }
      keys.add(key);
    }
    taken.addAll(keys);
    return Optional.empty();
  }

  // ---------------------------------------------------------------- verbs

  /** kube-scheduler's filter verb for {@code pod} over {@code candidates}. */
  public FilterDecision filter(PodInfo pod, List<String> candidates) {
    long deadline = System.nanoTime() + config.timeLimit().toNanos();
    count("filterCalls");
    maintain();
    if (!PodContract.isRampaPod(pod)) {
      return filterForeign(pod, candidates);
    }
    PodContract contract;
    try {
      contract = PodContract.of(pod, config.defaultStrategy(), strategies.keySet());
    } catch (PodContract.ContractException e) {
      count("contractErrors");
      return allFail(candidates, "RAMPA pod contract: " + e.getMessage(), true);
    }
    PodContract.Service service = contract.service();
    Reservation r;
    lock.readLock().lock();
    try {
      if (holder == null) {
        return allFail(candidates, "RAMPA knows no node with usable GPUs" + problemsSuffix(), false);
      }
      Outcome outcome = reservation(service, deadline);
      if (outcome.reason != null) {
        return allFail(candidates, outcome.reason, outcome.unresolvable);
      }
      r = outcome.reservation;
    } finally {
      lock.readLock().unlock();
    }
    if (!r.service().equals(service)) {
      return allFail(candidates, "RAMPA pod contract: this pod's service annotations " + service
          + " differ from those the service " + service.id() + " was planned with " + r.service()
          + "; every pod of a service must carry the same ones", true);
    }
    Optional<Reservation.Slot> slot = r.slot(contract.stage(), contract.replica());
    if (slot.isEmpty()) {
      return allFail(candidates, "service " + service.id() + " is planned as " + shape(r) + "; it has no stage "
          + contract.stage() + " replica " + contract.replica() + ". Maybe create exactly one pod per planned slot (GET /state shows them)", true);
    }
    Reservation.Slot s = slot.get();
    String holderPod = r.boundPods().get(Reservation.key(s.stage(), s.replica()));
    if (holderPod != null && !holderPod.equals(pod.key())) {
      return allFail(candidates, "stage " + s.stage() + " replica " + s.replica() + " of service " + service.id()
          + " already runs as pod " + holderPod, true);
    }
    List<String> passed = new ArrayList<>();
    Map<String, String> failed = new LinkedHashMap<>();
    String why = "service " + service.id() + " stage " + s.stage() + " replica " + s.replica() + " is reserved on node "
        + s.node() + " (GPU " + s.gpu() + ", " + s.placement().label() + ")";
    for (String node : candidates) {
      if (node.equals(s.node())) {
        passed.add(node);
      } else {
        failed.put(node, why);
      }
    }
    return new FilterDecision(passed, failed, Map.of());
  }

  /** kube-scheduler's prioritize verb: scores 0..10 per candidate. */
  public Map<String, Integer> prioritize(PodInfo pod, List<String> candidates) {
    count("prioritizeCalls");
    maintain();
    Map<String, Integer> scores = new LinkedHashMap<>();
    candidates.forEach(n -> scores.put(n, 0));
    if (PodContract.isRampaPod(pod)) {
      // the plan already chose the least valuable capacity that meets the SLO: its node scores highest
      try {
        PodContract c = PodContract.of(pod, config.defaultStrategy(), strategies.keySet());
        Reservation r = reservations.get(c.service().id());
        if (r != null) {
          r.slot(c.stage(), c.replica()).ifPresent(s -> scores.computeIfPresent(s.node(), (n, v) -> 10));
        }
      } catch (PodContract.ContractException e) {
        // filter has already told kube-scheduler why; every node scores 0
      }
      return scores;
    }
    if (!pod.wantsGpus()) {
      return scores; // RAMPA has no view on pods without GPUs: every node scores the same
    }
    lock.readLock().lock();
    try {
      if (holder == null) {
        return scores;
      }
      ClusterState state = holder.current();
      GpuCosts costs = config.importance().evaluate(state);
      Map<String, Double> cost = new LinkedHashMap<>();
      for (String node : candidates) {
        cheapestFit(state, costs, node, pod).ifPresent(c -> cost.put(node, c));
      }
      double min = cost.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
      double max = cost.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
      cost.forEach((node, c) -> scores.put(node, max - min < 1e-12 ? 10 : (int) Math.round(10 * (max - c) / (max - min))));
      return scores;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The importance cost of the cheapest free GPUs (or MIG instances) on {@code node} that a foreign pod fits, or empty. */
  private static Optional<Double> cheapestFit(ClusterState state, GpuCosts costs, String node, PodInfo pod) {
    Cluster cluster = state.cluster();
    if (cluster.gpusOn(node).isEmpty()) {
      return Optional.empty();
    }
    Capacity capacity = state.capacity();
    List<Double> whole = new ArrayList<>();
    for (Gpu g : cluster.gpusOn(node)) {
      if (capacity.contains(g.id())) {
        whole.add(costs.of(g.id()));
      }
    }
    if (whole.size() < pod.gpus()) {
      return Optional.empty();
    }
    whole.sort(null);
    double total = whole.subList(0, pod.gpus()).stream().mapToDouble(Double::doubleValue).sum();
    for (Map.Entry<String, Integer> want : pod.migInstances().entrySet()) {
      List<Double> mig = new ArrayList<>();
      for (Gpu g : cluster.gpusOn(node)) {
        for (MigSlice s : capacity.freeMigInstances().getOrDefault(g.id(), List.of())) {
          if (s.profile().equals(want.getKey())) {
            mig.add(costs.of(state, g.id(), s));
          }
        }
      }
      if (mig.size() < want.getValue()) {
        return Optional.empty();
      }
      mig.sort(null);
      total += mig.subList(0, want.getValue()).stream().mapToDouble(Double::doubleValue).sum();
    }
    return Optional.of(total);
  }

  /** A GPU pod that is no RAMPA pod may use only what no reservation holds. */
  private FilterDecision filterForeign(PodInfo pod, List<String> candidates) {
    if (!pod.wantsGpus()) {
      return new FilterDecision(List.copyOf(candidates), Map.of(), Map.of());
    }
    lock.readLock().lock();
    try {
      if (holder == null) {
        return new FilterDecision(List.copyOf(candidates), Map.of(), Map.of());
      }
      ClusterState state = holder.current();
      Cluster cluster = state.cluster();
      Capacity capacity = state.capacity();
      List<String> passed = new ArrayList<>();
      Map<String, String> failed = new LinkedHashMap<>();
      for (String node : candidates) {
        List<Gpu> gpus = cluster.gpusOn(node);
        if (gpus.isEmpty()) {
          passed.add(node); // a node RAMPA does not model: kube-scheduler's own resource fit decides
          continue;
        }
        int freeWhole = 0;
        Map<String, Integer> freeMig = new HashMap<>();
        Set<String> holders = new java.util.TreeSet<>();
        for (Gpu g : gpus) {
          if (capacity.contains(g.id())) {
            freeWhole++;
          }
          capacity.freeMigInstances().getOrDefault(g.id(), List.of()).forEach(s -> freeMig.merge(s.profile(), 1, Integer::sum));
          state.servicesOn(g.id()).stream().filter(s -> !s.contains("@")).forEach(holders::add);
        }
        List<String> shortOf = new ArrayList<>();
        if (pod.gpus() > freeWhole) {
          shortOf.add(pod.gpus() + " " + KubeJson.GPU + " wanted, " + freeWhole + " free");
        }
        pod.migInstances().forEach((profile, n) -> {
          int free = freeMig.getOrDefault(profile, 0);
          if (n > free) {
            shortOf.add(n + " " + KubeJson.MIG_PREFIX + profile + " wanted, " + free + " free");
          }
        });
        if (shortOf.isEmpty()) {
          passed.add(node);
        } else {
          failed.put(node, String.join("; ", shortOf) + (holders.isEmpty() ? "" : " (reserved by RAMPA services " + holders + ")"));
        }
      }
      return new FilterDecision(passed, failed, Map.of());
    } finally {
      lock.readLock().unlock();
    }
  }

  private record Outcome(Reservation reservation, String reason, boolean unresolvable) {}

  /**
   * The service's reservation, planning and committing it if it has none; called under the read
   * lock. Planning waits for the planning lock at most until {@code deadlineNanos} and plans within
   * what is left, so the answer comes within the configured time limit plus the JSON work.
   */
  private Outcome reservation(PodContract.Service service, long deadlineNanos) {
    Reservation existing = reservations.get(service.id());
    if (existing != null) {
      return new Outcome(existing, null, false);
    }
    ServiceRequest request;
    try {
      request = service.request();
    } catch (PodContract.ContractException e) {
      count("contractErrors");
      return new Outcome(null, "RAMPA pod contract: " + e.getMessage(), true);
    }
    boolean locked;
    try {
      locked = planning.tryLock(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      locked = false;
    }
    if (!locked) {
      count("plansBusy");
      return new Outcome(null, "RAMPA is busy planning " + planning.getQueueLength() + " other service(s) and could not plan "
          + service.id() + " within " + config.timeLimit() + "; kube-scheduler will retry the pod", false);
    }
    try {
      existing = reservations.get(service.id());
      if (existing != null) {
        return new Outcome(existing, null, false);
      }
      long left = deadlineNanos - System.nanoTime();
      if (left < MIN_PLAN_NANOS) {
        count("plansBusy");
        return new Outcome(null, "RAMPA's time for " + service.id() + " (" + config.timeLimit()
            + ") ran out waiting for other services' plans; kube-scheduler will retry the pod", false);
      }
      ClusterState state = holder.current();
      PlacementResult result = plan(service, request, state, Duration.ofNanos(left));
      if (result.plan().isEmpty()) {
        count("plansWithout" + result.status());
        return new Outcome(null, "RAMPA " + result.status() + " (" + result.strategy() + "): " + result.reason(), false);
      }
      Plan plan = result.plan().get();
      ClusterStateHolder.CommitResult commit = holder.admit(request, plan, state.version(), InterferenceGuard.defaults());
      if (commit.outcome() != ClusterStateHolder.Outcome.COMMITTED) {
        // only planners change the ledger between rebuilds, and they hold this lock: a refusal is the guard's verdict
        count("refusedCommits");
        return new Outcome(null, "RAMPA's ledger refused the plan (" + commit.outcome() + "): " + commit.reasons(), false);
      }
      Reservation r = new Reservation(service, request, plan, state.cluster(), config.clock().instant());
      reservations.put(service.id(), r);
      count("reservationsMade");
      return new Outcome(r, null, false);
    } finally {
      planning.unlock();
    }
  }

  /**
   * Plans {@code request} on {@code state}: whole GPUs when the pods ask for {@code nvidia.com/gpu};
   * when they ask for a MIG profile, the free instances of that profile only (everything else is
   * masked as held in a copy of the state, so no strategy can pick it).
   */
  private PlacementResult plan(PodContract.Service service, ServiceRequest request, ClusterState state, Duration timeLimit) {
    Rampa.Placer planner;
    if (service.migProfile().isPresent()) {
      String profile = service.migProfile().get();
      ClusterState masked = maskAllBut(state, profile);
      if (masked == null) {
        return PlacementResult.infeasible(service.strategy(), "no node advertises a free " + service.resource()
            + " instance that no other service holds", Duration.ZERO);
      }
      planner = Rampa.on(masked).sharing(SharingOptions.on());
    } else {
      planner = Rampa.on(state);
    }
    PlacementResult result = planner.strategy(strategies.get(service.strategy())).importance(config.importance()).timeLimit(timeLimit).place(request);
    if (result.plan().isPresent()) {
      for (Stage s : result.plan().get().stages()) {
        Placement p = s.placement();
        boolean right = service.migProfile().map(m -> p instanceof MigSlice slice && slice.profile().equals(m)).orElse(p instanceof Whole);
        if (!right) {
          // a strategy that honoured the mask cannot get here; refuse rather than reserve the wrong kind of device
          throw new IllegalStateException("plan for " + service.id() + " uses " + p.label() + " but its pods ask for " + service.resource());
        }
      }
    }
    return result;
  }

  /** {@code state} with every free whole GPU and every free MIG instance not of {@code profile} held by a mask; null when no such instance is free. */
  private static ClusterState maskAllBut(ClusterState state, String profile) {
    Capacity capacity = state.capacity();
    List<Holding> mask = new ArrayList<>();
    boolean any = false;
    for (Gpu g : capacity.gpus()) {
      mask.add(occupying(state, g.id(), new Whole()));
    }
    for (Map.Entry<String, List<MigSlice>> e : capacity.freeMigInstances().entrySet()) {
      for (MigSlice s : e.getValue()) {
        if (s.profile().equals(profile)) {
          any = true;
        } else {
          mask.add(occupying(state, e.getKey(), s));
        }
      }
    }
    if (!any) {
      return null;
    }
    return mask.isEmpty() ? state : state.allocate(Allocation.of("rampa-mask", mask));
  }

  private static String shape(Reservation r) {
    List<String> stages = new ArrayList<>();
    List<Stage> s = r.plan().stages();
    for (int i = 0; i < s.size(); i++) {
      stages.add("stage " + i + " x" + s.get(i).replicas());
    }
    return s.size() + " stage(s) [" + String.join(", ", stages) + "]";
  }

  private String problemsSuffix() {
    return model == null || model.problems().isEmpty() ? "" : "; nodes left out: " + model.problems();
  }

  private static FilterDecision allFail(List<String> candidates, String why, boolean unresolvable) {
    Map<String, String> reasons = new LinkedHashMap<>();
    candidates.forEach(n -> reasons.put(n, why));
    return unresolvable ? new FilterDecision(List.of(), Map.of(), reasons) : new FilterDecision(List.of(), reasons, Map.of());
  }

  // ---------------------------------------------------------------- state and counters

  private void remember(Released r) {
    synchronized (released) {
      released.addFirst(r);
      while (released.size() > HISTORY) {
        released.removeLast();
      }
    }
  }

  void count(String counter) {
    counters.computeIfAbsent(counter, k -> new LongAdder()).increment();
  }

  /** Counters by name (filter and prioritize calls, plans, stale commits, expirations ...). */
  public Map<String, Long> counters() {
    Map<String, Long> out = new java.util.TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** The live reservations by service id. */
  public Map<String, Reservation> reservations() {
    return Map.copyOf(reservations);
  }

  /** The most recent expired or dropped reservations, newest first. */
  public List<Released> released() {
    synchronized (released) {
      return List.copyOf(released);
    }
  }

  /** The current ledger; empty while no node with usable GPUs is known. */
  public Optional<ClusterState> ledger() {
    maintain();
    lock.readLock().lock();
    try {
      return holder == null ? Optional.empty() : Optional.of(holder.current());
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Nodes whose GPUs are left out, with why (unknown products by name, MIG layouts that do not fit ...). */
  public Map<String, String> nodeProblems() {
    maintain();
    lock.readLock().lock();
    try {
      return model == null ? Map.of() : model.problems();
    } finally {
      lock.readLock().unlock();
    }
  }
}
