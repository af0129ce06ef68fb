package org.rampa.yarn;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceSizing;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ResourceNotFoundException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.algorithm.DefaultPlacementAlgorithm;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.ConstraintPlacementAlgorithm;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.ConstraintPlacementAlgorithmInput;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.ConstraintPlacementAlgorithmOutput;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.ConstraintPlacementAlgorithmOutputCollector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.PlacedSchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.SchedulingRequestWithPlacementAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.processor.BatchedRequests;
import org.rampa.Rampa;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Link;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.strategy.PlacementResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RAMPA as YARN's placement-constraint algorithm
 * ({@code yarn.resourcemanager.placement-constraints.algorithm.class}). Each SchedulingRequest that
 * carries {@value ServiceSpec#SERVICE} describes one inference service (see {@link ServiceSpec});
 * RAMPA plans it on the cluster as YARN sees it, and the adapter answers with one container request
 * per GPU group (the GPUs of one stage on one node) on the node RAMPA chose, tagged with the stage
 * and layer range, or rejects the request with RAMPA's reason in the tag {@value ServiceSpec#REJECTED}.
 * Requests without RAMPA tags go to YARN's {@link DefaultPlacementAlgorithm}.
 *
 * <p>The ledger is one {@link ClusterStateHolder} over a {@link Cluster} built from the scheduler's
 * nodes (GPU type from {@link RampaYarnConfig#GPU_TYPES}). Before every batch, and every second in
 * between, it is reconciled with the scheduler's live containers: a placed GPU group stays booked
 * while its container lives, or, before the container first appears, until the scheduler commits it
 * (at most {@link RampaYarnConfig#PENDING_TIMEOUT}); GPUs held by containers RAMPA did not place are
 * booked as {@code yarn:NODE}. Batches are serialised by one lock, and every booking is a versioned
 * commit on the holder.
 */
public class RampaPlacementAlgorithm implements ConstraintPlacementAlgorithm {

  private static final Logger LOG = LoggerFactory.getLogger(RampaPlacementAlgorithm.class);
  private static final String GPU = ResourceInformation.GPU_URI;
  private static final Map<RMContext, RampaPlacementAlgorithm> INSTANCES = Collections.synchronizedMap(new WeakHashMap<>());

  /** The adapter serving the ResourceManager of {@code rmContext}, for operators and tests. */
  public static Optional<RampaPlacementAlgorithm> of(RMContext rmContext) {
    return Optional.ofNullable(INSTANCES.get(rmContext));
  }

  private final Object lock = new Object();
  private final DefaultPlacementAlgorithm fallback = new DefaultPlacementAlgorithm();
  private final LongSupplier nanoTime = System::nanoTime;
  private final Map<NodeId, String> typeByNode = new HashMap<>();
  /** Bookings by service id ({@code appId/name}), in arrival order. */
  private final Map<String, Booking> bookings = new LinkedHashMap<>();
  private RMContext rmContext;
  private RampaYarnConfig config;
  private int retryAttempts;
  private ClusterStateHolder ledger;
  private ScheduledExecutorService reconciler;

  /** The state of one placed GPU group. */
  public enum GroupStatus {
    /** placed, no container seen yet */
    PENDING,
    /** its container runs */
    LIVE,
    /** its container is gone, or the scheduler never committed it: the GPUs are free again */
    DONE
  }

  /** One container's worth of a plan: the GPUs of stage {@code stage} on one node. */
  public static final class Group {
    final int index;
    final int stage;
    final NodeId node;
    final List<String> gpus;
    final Resource resource;
    final long placedAt;
    volatile GroupStatus status = GroupStatus.PENDING;

    Group(int index, int stage, NodeId node, List<String> gpus, Resource resource, long placedAt) {
      this.index = index;
      this.stage = stage;
      this.node = node;
      this.gpus = List.copyOf(gpus);
      this.resource = resource;
      this.placedAt = placedAt;
    }

    public int stage() {
      return stage;
    }

    public NodeId node() {
      return node;
    }

    public List<String> gpus() {
      return gpus;
    }

    public GroupStatus status() {
      return status;
    }
  }

  /** A service RAMPA placed: its application, plan and groups. */
  public record Booking(ApplicationId app, String serviceId, Plan plan, List<Group> groups) {}

  @Override
  public void init(RMContext context) {
    this.rmContext = context;
    YarnConfiguration conf = new YarnConfiguration(context.getYarnConfiguration());
    // fails the ResourceManager's start with a message naming the key
    this.config = RampaYarnConfig.from(conf::get);
    this.retryAttempts = conf.getInt(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_RETRY_ATTEMPTS,
        YarnConfiguration.DEFAULT_RM_PLACEMENT_CONSTRAINTS_RETRY_ATTEMPTS);
    fallback.init(context);
    reconciler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "rampa-ledger-reconciler");
      t.setDaemon(true);
      return t;
    });
    // a container that lives less than this is still freed, after the pending timeout
    reconciler.scheduleWithFixedDelay(this::reconcileQuietly, 1, 1, TimeUnit.SECONDS);
    INSTANCES.put(context, this);
    LOG.info("RAMPA placement: strategy {}, importance {}, time limit {}, GPU types {}",
        config.strategy(), config.importance(), config.timeLimit(), config.gpuTypes().entries());
  }

  /** The settings read at {@link #init}. */
  public RampaYarnConfig config() {
    return config;
  }

  /** The ledger as of the last reconciliation (empty before the first node registered). */
  public Optional<ClusterState> ledger() {
    synchronized (lock) {
      return Optional.ofNullable(ledger).map(ClusterStateHolder::current);
    }
  }

  /** The services RAMPA placed and still holds, reconciled with the scheduler first. */
  public List<Booking> bookings() {
    synchronized (lock) {
      reconcile();
      return List.copyOf(bookings.values());
    }
  }

  @Override
  public void place(ConstraintPlacementAlgorithmInput input, ConstraintPlacementAlgorithmOutputCollector collector) {
    BatchedRequests batch = (BatchedRequests) input;
    List<SchedulingRequest> plain = new ArrayList<>();
    ConstraintPlacementAlgorithmOutput out = new ConstraintPlacementAlgorithmOutput(batch.getApplicationId());
    synchronized (lock) {
      reconcile();
      for (SchedulingRequest r : batch.getSchedulingRequests()) {
        Set<String> tags = r.getAllocationTags() == null ? Set.of() : r.getAllocationTags();
        if (ServiceSpec.isPlacedGroup(tags)) {
          refusedCommit(batch, r, out);
        } else if (ServiceSpec.isRampaRequest(tags)) {
          placeService(batch, r, out);
        } else {
          plain.add(r);
        }
      }
    }
    collector.collect(out);
    if (!plain.isEmpty()) {
      fallback.place(new BatchedRequests(batch.getIteratorType(), batch.getApplicationId(), plain,
          batch.getPlacementAttempt()), collector);
    }
  }

  private void placeService(BatchedRequests batch, SchedulingRequest r, ConstraintPlacementAlgorithmOutput out) {
    ApplicationId app = batch.getApplicationId();
    ServiceSpec spec;
    Resource perGpu = r.getResourceSizing().getResources();
    try {
      spec = ServiceSpec.parse(r.getAllocationTags(), app.toString(), config);
      long gpus = gpuCount(perGpu);
      if (gpus != 1) {
        throw org.rampa.domain.Invalid.value("resourceSizing.resources." + GPU, gpus,
            "must be 1: the request's resources are what each GPU's share of a container needs; RAMPA decides how many GPUs",
            "ask for " + GPU + "=1 with the memory and vcores per GPU");
      }
    } catch (RuntimeException e) {
      reject(batch, r, out, "bad request: " + e.getMessage());
      return;
    }
    if (bookings.containsKey(spec.request().id())) {
      reject(batch, r, out, "service " + spec.name() + " of " + app + " is placed already; release its containers first");
      return;
    }
    if (ledger == null) {
      reject(batch, r, out, "no node with a known GPU type has registered (" + RampaYarnConfig.GPU_TYPES + ")");
      return;
    }
    ClusterState booked = ledger.current();
    // host memory and vcores are YARN's to enforce: GPUs whose node lacks them for this request are
    // set aside while planning, so the scheduler's commit does not refuse what RAMPA chose
    ClusterState planning = withHostLimits(booked, perGpu);
    PlacementResult result = Rampa.on(booked.cluster())
        .state(planning)
        .strategy(spec.strategy())
        .importance(RampaYarnConfig.importanceModel(ServiceSpec.IMPORTANCE, spec.importance()))
        .timeLimit(config.timeLimit())
        .place(spec.request());
    if (result.plan().isEmpty()) {
      reject(batch, r, out, result.status() + ": " + result.reason());
      return;
    }
    Plan plan = result.plan().get();
    ClusterStateHolder.CommitResult commit = ledger.commit(plan, booked.version());
    if (commit.outcome() != ClusterStateHolder.Outcome.COMMITTED) {
      // cannot happen under the lock; if it does, refusing beats double-booking
      reject(batch, r, out, "ledger refused the plan: " + commit.reasons());
      return;
    }
    List<Group> groups = groupsOf(plan, booked.cluster(), perGpu);
    bookings.put(plan.serviceId(), new Booking(app, plan.serviceId(), plan, groups));
    Map<NodeId, SchedulerNode> nodes = schedulerNodes();
    for (Group g : groups) {
      Stage stage = plan.stages().get(g.stage);
      Set<String> tags = new LinkedHashSet<>(spec.ownTags());
      tags.add(ServiceSpec.SERVICE + "=" + spec.name());
      tags.add(ServiceSpec.GROUP + "=" + g.index);
      tags.add(ServiceSpec.GROUPS + "=" + groups.size());
      tags.add(ServiceSpec.STAGE + "=" + g.stage);
      tags.add(ServiceSpec.STAGES + "=" + plan.stages().size());
      tags.add(ServiceSpec.LAYERS + "=" + stage.from() + "-" + stage.to());
      tags.add(ServiceSpec.GPUS + "=" + g.gpus.size());
      tags.add(ServiceSpec.GPU_TYPE + "=" + booked.cluster().typeOf(g.gpus.get(0)).name());
      SchedulingRequest container = SchedulingRequest.newInstance(r.getAllocationRequestId(), r.getPriority(),
          r.getExecutionType(), tags, ResourceSizing.newInstance(1, g.resource), null);
      PlacedSchedulingRequest placed = new PlacedSchedulingRequest(container);
      placed.setPlacementAttempt(batch.getPlacementAttempt());
      placed.getNodes().add(nodes.get(g.node));
      out.getPlacedRequests().add(placed);
    }
    LOG.info("RAMPA placed {} ({} stages, {} groups, cost {}) for {}", plan.serviceId(), plan.stages().size(),
        groups.size(), plan.cost(), app);
  }

  /**
   * The scheduler refused to commit a group RAMPA placed (another container took the node's room in
   * between): its GPUs are freed in the ledger and the group is rejected, since moving one stage of
   * a committed plan elsewhere would change the plan the SLO was checked for.
   */
  private void refusedCommit(BatchedRequests batch, SchedulingRequest r, ConstraintPlacementAlgorithmOutput out) {
    String service = batch.getApplicationId() + "/" + ServiceSpec.tag(r.getAllocationTags(), ServiceSpec.SERVICE);
    String group = ServiceSpec.tag(r.getAllocationTags(), ServiceSpec.GROUP);
    Booking b = bookings.get(service);
    String where = "?";
    if (b != null) {
      for (Group g : b.groups()) {
        if (String.valueOf(g.index).equals(group) && g.status == GroupStatus.PENDING) {
          g.status = GroupStatus.DONE;
          where = g.node.toString();
        }
      }
      rebook(b);
    }
    reject(batch, r, out, "the scheduler refused to commit GPU group " + group + " on node " + where
        + " (its room was taken in between); RAMPA does not move one stage of a placed plan. Maybe release this"
        + " service's containers and ask again");
  }

  private void reject(BatchedRequests batch, SchedulingRequest r, ConstraintPlacementAlgorithmOutput out, String reason) {
    Set<String> tags = new LinkedHashSet<>(r.getAllocationTags() == null ? Set.of() : r.getAllocationTags());
    tags.add(ServiceSpec.REJECTED + "=" + reason);
    SchedulingRequest rejected = SchedulingRequest.newInstance(r.getAllocationRequestId(), r.getPriority(),
        r.getExecutionType(), tags, r.getResourceSizing(), r.getPlacementConstraint());
    // a RAMPA answer does not change when YARN asks again: report it at once instead of after the retries
    out.getRejectedRequests().add(new SchedulingRequestWithPlacementAttempt(
        Math.max(batch.getPlacementAttempt(), retryAttempts), rejected));
    LOG.info("RAMPA rejected a request of {}: {}", batch.getApplicationId(), reason);
  }

  private List<Group> groupsOf(Plan plan, Cluster cluster, Resource perGpu) {
    List<Group> groups = new ArrayList<>();
    long now = nanoTime.getAsLong();
    for (int s = 0; s < plan.stages().size(); s++) {
      Map<String, List<String>> byNode = new LinkedHashMap<>();
      for (String gpu : plan.stages().get(s).gpus()) {
        byNode.computeIfAbsent(cluster.gpu(gpu).node(), n -> new ArrayList<>()).add(gpu);
      }
      for (Map.Entry<String, List<String>> e : byNode.entrySet()) {
        Resource res = Resource.newInstance(perGpu);
        int n = e.getValue().size();
        res.setMemorySize(perGpu.getMemorySize() * n);
        res.setVirtualCores(perGpu.getVirtualCores() * n);
        res.setResourceValue(GPU, n);
        groups.add(new Group(groups.size(), s, NodeId.fromString(e.getKey()), e.getValue(), res, now));
      }
    }
    return groups;
  }

  /** {@code state} plus, per node, its free GPUs beyond what the node's memory and vcores can serve. */
  private ClusterState withHostLimits(ClusterState state, Resource perGpu) {
    Map<NodeId, long[]> pendingHost = new HashMap<>();
    for (Booking b : bookings.values()) {
      for (Group g : b.groups()) {
        if (g.status == GroupStatus.PENDING) {
          long[] p = pendingHost.computeIfAbsent(g.node, n -> new long[2]);
          p[0] += g.resource.getMemorySize();
          p[1] += g.resource.getVirtualCores();
        }
      }
    }
    ClusterState s = state;
    for (SchedulerNode n : schedulerNodes().values()) {
      String node = n.getNodeID().toString();
      if (!state.cluster().nodes().stream().anyMatch(x -> x.id().equals(node))) {
        continue;
      }
      long[] p = pendingHost.getOrDefault(n.getNodeID(), new long[2]);
      Resource free = n.getUnallocatedResource();
      long byMemory = perGpu.getMemorySize() <= 0 ? Long.MAX_VALUE : (free.getMemorySize() - p[0]) / perGpu.getMemorySize();
      long byCores = perGpu.getVirtualCores() <= 0 ? Long.MAX_VALUE : (free.getVirtualCores() - p[1]) / perGpu.getVirtualCores();
      List<Gpu> freeGpus = state.cluster().gpusOn(node).stream().filter(g -> state.isFree(g.id())).toList();
      long usable = Math.max(0, Math.min(freeGpus.size(), Math.min(byMemory, byCores)));
      if (usable < freeGpus.size()) {
        s = s.allocate(Allocation.of("host-limit:" + node, holdings(freeGpus.subList((int) usable, freeGpus.size()), state.cluster())));
      }
    }
    return s;
  }

  private void reconcileQuietly() {
    // the algorithm has no stop(): it ends with the scheduler it serves
    if (rmContext.getScheduler() instanceof org.apache.hadoop.service.Service s
        && s.isInState(org.apache.hadoop.service.Service.STATE.STOPPED)) {
      reconciler.shutdown();
      INSTANCES.remove(rmContext);
      return;
    }
    try {
      synchronized (lock) {
        reconcile();
      }
    } catch (RuntimeException e) {
      LOG.warn("RAMPA ledger reconciliation failed; retrying in a second", e);
    }
  }

  /** Brings the ledger in line with the scheduler's nodes and live containers (under the lock). */
  private void reconcile() {
    Map<NodeId, SchedulerNode> nodes = schedulerNodes();
    Cluster cluster = clusterOf(nodes);
    if (cluster == null) {
      return;
    }
    if (ledger == null || !ledger.current().cluster().equals(cluster)) {
      rebuild(cluster);
    }
    long now = nanoTime.getAsLong();
    Map<String, Set<Integer>> liveGroups = new HashMap<>();
    Map<NodeId, Long> otherGpus = new TreeMap<>();
    for (SchedulerNode n : nodes.values()) {
      for (RMContainer c : n.getCopiedListOfRunningContainers()) {
        Set<String> tags = c.getAllocationTags() == null ? Set.of() : c.getAllocationTags();
        String service = ServiceSpec.tag(tags, ServiceSpec.SERVICE);
        String group = ServiceSpec.tag(tags, ServiceSpec.GROUP);
        long gpus = gpuCount(c.getAllocatedResource());
        String id = c.getApplicationAttemptId().getApplicationId() + "/" + service;
        if (service != null && group != null && group.matches("[0-9]{1,6}") && bookings.containsKey(id)) {
          liveGroups.computeIfAbsent(id, k -> new java.util.HashSet<>()).add(Integer.parseInt(group));
        } else if (gpus > 0) {
          // not placed by this adapter, or placed before a ResourceManager restart emptied the ledger
          otherGpus.merge(n.getNodeID(), gpus, Long::sum);
        }
      }
    }
    Set<ApplicationId> running = ((AbstractYarnScheduler<?, ?>) rmContext.getScheduler()).getSchedulerApplications().keySet();
    long timeout = config.pendingTimeout().toNanos();
    for (Booking b : List.copyOf(bookings.values())) {
      Set<Integer> live = liveGroups.getOrDefault(b.serviceId(), Set.of());
      for (Group g : b.groups()) {
        if (live.contains(g.index)) {
          g.status = GroupStatus.LIVE;
        } else if (g.status == GroupStatus.LIVE
            || (g.status == GroupStatus.PENDING && (!running.contains(b.app()) || now - g.placedAt > timeout))) {
          g.status = GroupStatus.DONE;
        }
      }
      rebook(b);
    }
    for (NodeId n : nodes.keySet()) {
      bookOthers(n, otherGpus.getOrDefault(n, 0L));
    }
  }

  /** Makes the ledger hold exactly {@code b}'s groups that are not done (none: the booking ends). */
  private void rebook(Booking b) {
    List<String> held = b.groups().stream().filter(g -> g.status != GroupStatus.DONE).flatMap(g -> g.gpus.stream()).toList();
    ClusterState s = ledger.current();
    Set<String> now = s.holds(b.serviceId())
        ? s.allocations().get(b.serviceId()).holdings().stream().map(Holding::gpu).collect(java.util.stream.Collectors.toSet())
        : Set.of();
    if (now.equals(Set.copyOf(held))) {
      if (held.isEmpty()) {
        bookings.remove(b.serviceId());
      }
      return;
    }
    if (!now.isEmpty()) {
      require(ledger.release(b.serviceId(), s.version()));
    }
    if (held.isEmpty()) {
      bookings.remove(b.serviceId());
      LOG.info("RAMPA released {}", b.serviceId());
    } else {
      require(ledger.hold(Allocation.of(b.serviceId(), holdings(held.stream().map(s.cluster()::gpu).toList(), s.cluster())),
          ledger.current().version()));
    }
  }

  /** Books {@code gpus} GPUs of node {@code n} for containers RAMPA did not place. */
  private void bookOthers(NodeId n, long gpus) {
    String id = "yarn:" + n;
    ClusterState s = ledger.current();
    if (!s.cluster().nodes().stream().anyMatch(x -> x.id().equals(n.toString()))) {
      return;
    }
    long held = s.holds(id) ? s.allocations().get(id).holdings().size() : 0;
    if (held == gpus) {
      return;
    }
    if (held > 0) {
      require(ledger.release(id, s.version()));
      s = ledger.current();
    }
    ClusterState state = s;
    List<Gpu> free = s.cluster().gpusOn(n.toString()).stream().filter(g -> state.isFree(g.id())).toList();
    // more than is free means the scheduler over-committed a node RAMPA also booked: book what is left
    List<Gpu> take = free.subList(0, (int) Math.min(gpus, free.size()));
    if (!take.isEmpty()) {
      require(ledger.hold(Allocation.of(id, holdings(take, s.cluster())), s.version()));
    }
  }

  /** A new ledger for a changed set of nodes, keeping every booking that still fits. */
  private void rebuild(Cluster cluster) {
    ClusterState s = ClusterState.empty(cluster);
    if (ledger != null) {
      for (Allocation a : ledger.current().allocations().values()) {
        if (s.conflicts(a).isEmpty()) {
          s = s.allocate(a);
        } else if (bookings.remove(a.serviceId()) != null) {
          LOG.warn("RAMPA dropped {}: its nodes changed", a.serviceId());
        }
      }
    }
    ledger = new ClusterStateHolder(s);
  }

  private Cluster clusterOf(Map<NodeId, SchedulerNode> nodes) {
    GpuCatalog catalog = GpuCatalog.standard();
    var b = Cluster.builder().network(Link.of("yarn-network", config.networkGbps() * 1e9 / 8, Duration.ofNanos(10_000)));
    Set<String> types = new java.util.TreeSet<>();
    int gpuCount = 0;
    for (SchedulerNode n : nodes.values()) {
      long gpus = gpuCount(n.getTotalResource());
      Optional<String> type = typeOf(n.getNodeID());
      if (gpus <= 0 || type.isEmpty()) {
        continue;
      }
      GpuCatalog.Entry entry = catalog.entry(type.get());
      types.add(type.get());
      String id = n.getNodeID().toString();
      b.addNodes(Node.of(id, entry.intraNodeLink()));
      for (int g = 0; g < gpus; g++) {
        b.addGpus(Gpu.of(id + "/gpu" + g, type.get(), id));
        gpuCount++;
      }
    }
    if (gpuCount == 0) {
      return null;
    }
    types.forEach(t -> b.addGpuTypes(catalog.type(t)));
    return b.build();
  }

  /**
   * The GPU type of node {@code n}: looked up once per NodeManager in the ResourceManager's
   * configuration, so a NodeManager that registers later is mapped from the configuration as it is then.
   */
  private Optional<String> typeOf(NodeId n) {
    String known = typeByNode.get(n);
    if (known != null) {
      return Optional.of(known);
    }
    RampaYarnConfig.GpuTypeMap map;
    try {
      map = RampaYarnConfig.GpuTypeMap.parse(RampaYarnConfig.GPU_TYPES, rmContext.getYarnConfiguration().get(RampaYarnConfig.GPU_TYPES));
    } catch (IllegalArgumentException e) {
      LOG.warn("RAMPA keeps the GPU types read at start: {}", e.getMessage());
      map = config.gpuTypes();
    }
    Optional<String> type = map.typeOf(n.getHost(), n.getPort());
    type.ifPresent(t -> typeByNode.put(n, t));
    return type;
  }

  private Map<NodeId, SchedulerNode> schedulerNodes() {
    Map<NodeId, SchedulerNode> map = new TreeMap<>();
    for (SchedulerNode n : ((AbstractYarnScheduler<?, ?>) rmContext.getScheduler()).getNodeTracker().getAllNodes()) {
      map.put(n.getNodeID(), n);
    }
    return map;
  }

  private static List<Holding> holdings(Collection<Gpu> gpus, Cluster cluster) {
    return gpus.stream().map(g -> Holding.whole(g.id(), cluster.type(g.type()).memoryBytes())).toList();
  }

  private static long gpuCount(Resource r) {
    try {
      return r.getResourceValue(GPU);
    } catch (ResourceNotFoundException e) {
      return 0;
    }
  }

  private static void require(ClusterStateHolder.CommitResult r) {
    if (r.outcome() != ClusterStateHolder.Outcome.COMMITTED) {
      throw new IllegalStateException("RAMPA's ledger refused its own reconciliation: " + r.outcome() + " " + r.reasons());
    }
  }
}
