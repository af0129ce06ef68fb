package org.rampa.yarn;

import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.api.records.ResourceSizing;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * A real ResourceManager with NodeManagers in this JVM (MiniYARNCluster), RAMPA as its placement
 * algorithm, node sizes and GPU types set per node, and unmanaged application masters talking to it
 * over RPC like any AM.
 */
final class YarnTestCluster implements AutoCloseable {
  static final String GPU = ResourceInformation.GPU_URI;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final MiniYARNCluster cluster;
  private final YarnConfiguration conf;
  private final YarnClient client;
  /** NodeManagers in registration order, with their GPU type and count. */
  final List<NodeId> nodes = new ArrayList<>();
  final Map<NodeId, String> typeOf = new LinkedHashMap<>();
  final Map<NodeId, Integer> gpusOf = new LinkedHashMap<>();

  /** One NodeManager per entry of {@code gpuTypes} ({@code TYPE:COUNT}), each with 16 GB and 32 vcores. */
  YarnTestCluster(String name, List<String> gpuTypes, Map<String, String> extra) throws Exception {
    conf = new YarnConfiguration();
    conf.set(YarnConfiguration.RESOURCE_TYPES, GPU);
    conf.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + GPU, 8);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 16384);
    conf.setInt(YarnConfiguration.NM_VCORES, 32);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 64);
    conf.set(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_HANDLER, YarnConfiguration.PROCESSOR_RM_PLACEMENT_CONSTRAINTS_HANDLER);
    conf.set(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_ALGORITHM_CLASS, RampaPlacementAlgorithm.class.getName());
    // batches of different applications reach the adapter on several threads at once
    conf.setInt(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_ALGORITHM_POOL_SIZE, 4);
    conf.setInt(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_SCHEDULER_POOL_SIZE, 4);
    conf.setClass(YarnConfiguration.RM_SCHEDULER, CapacityScheduler.class, ResourceScheduler.class);
    conf.set("yarn.scheduler.capacity.resource-calculator", DominantResourceCalculator.class.getName());
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.set("yarn.scheduler.capacity.root.default.user-limit-factor", "10");
    extra.forEach(conf::set);
    ResourceUtils.resetResourceTypes(conf);
    cluster = new MiniYARNCluster(name, gpuTypes.size(), 1, 1);
    cluster.init(conf);
    cluster.start();
    if (!cluster.waitForNodeManagersToConnect(WAIT.toMillis())) {
      throw new IllegalStateException("NodeManagers did not register");
    }
    var rmNodes = rmContext().getRMNodes().keySet().stream().sorted().toList();
    Map<NodeId, ResourceOption> sizes = new HashMap<>();
    StringBuilder map = new StringBuilder();
    for (int i = 0; i < gpuTypes.size(); i++) {
      String[] tc = gpuTypes.get(i).split(":");
      NodeId n = rmNodes.get(i);
      int gpus = Integer.parseInt(tc[1]);
      nodes.add(n);
      typeOf.put(n, tc[0]);
      gpusOf.put(n, gpus);
      sizes.put(n, ResourceOption.newInstance(Resource.newInstance(16384, 32, Map.of(GPU, (long) gpus)), -1));
      map.append(map.length() == 0 ? "" : ",").append(n).append('=').append(tc[0]);
    }
    // heterogeneous node sizes, as `yarn rmadmin -updateNodeResource` sets them
    rmContext().getRMAdminService().updateNodeResource(UpdateNodeResourceRequest.newInstance(sizes));
    // In one JVM the NodeManagers share a host and take ephemeral ports, so the node -> GPU type map
    // can only be written once they registered; the adapter reads it when it first meets a node.
    rmContext().getYarnConfiguration().set(RampaYarnConfig.GPU_TYPES, map.toString());
    waitFor("node sizes", () -> nodes.stream().allMatch(n -> scheduledGpus(n) == gpusOf.get(n)));
    client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
  }

  RMContext rmContext() {
    return cluster.getResourceManager().getRMContext();
  }

  RampaPlacementAlgorithm adapter() {
    return RampaPlacementAlgorithm.of(rmContext()).orElseThrow();
  }

  long scheduledGpus(NodeId n) {
    var node = ((CapacityScheduler) rmContext().getScheduler()).getNode(n);
    return node == null ? -1 : node.getTotalResource().getResourceValue(GPU);
  }

  /** GPUs the scheduler has allocated on {@code n}. */
  long allocatedGpus(NodeId n) {
    return ((CapacityScheduler) rmContext().getScheduler()).getNode(n).getAllocatedResource().getResourceValue(GPU);
  }

  Am startAm(String name) throws Exception {
    YarnClientApplication app = client.createApplication();
    ApplicationSubmissionContext ctx = app.getApplicationSubmissionContext();
    ctx.setApplicationName(name);
    ctx.setUnmanagedAM(true);
    ctx.setQueue("default");
    ctx.setAMContainerSpec(ContainerLaunchContext.newInstance(Map.of(), Map.of(), List.of(), Map.of(), null, Map.of()));
    ctx.setResource(Resource.newInstance(64, 1));
    ApplicationId id = ctx.getApplicationId();
    client.submitApplication(ctx);
    waitFor("attempt of " + id, () -> {
      var rmApp = rmContext().getRMApps().get(id);
      return rmApp != null && rmApp.getCurrentAppAttempt() != null
          && rmApp.getCurrentAppAttempt().getAppAttemptState() == RMAppAttemptState.LAUNCHED;
    });
    RMAppAttempt attempt = rmContext().getRMApps().get(id).getCurrentAppAttempt();
    Token<AMRMTokenIdentifier> token = attempt.getAMRMToken();
    token.setService(ClientRMProxy.getAMRMTokenService(conf));
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(attempt.getAppAttemptId().toString());
    ugi.addToken(token);
    AMRMClient<AMRMClient.ContainerRequest> amrm = ugi.doAs((PrivilegedExceptionAction<AMRMClient<AMRMClient.ContainerRequest>>) () -> {
      AMRMClient<AMRMClient.ContainerRequest> c = AMRMClient.createAMRMClient();
      c.init(conf);
      c.start();
      c.registerApplicationMaster("localhost", 0, "");
      return c;
    });
    return new Am(attempt.getAppAttemptId(), ugi, amrm);
  }

  /** An unmanaged application master: asks, polls, releases. */
  final class Am {
    final ApplicationAttemptId attempt;
    private final UserGroupInformation ugi;
    private final AMRMClient<AMRMClient.ContainerRequest> amrm;
    final List<Container> containers = new ArrayList<>();
    final List<RejectedSchedulingRequest> rejected = new ArrayList<>();
    private long nextRequestId = 1;

    Am(ApplicationAttemptId attempt, UserGroupInformation ugi, AMRMClient<AMRMClient.ContainerRequest> amrm) {
      this.attempt = attempt;
      this.ugi = ugi;
      this.amrm = amrm;
    }

    ApplicationId app() {
      return attempt.getApplicationId();
    }

    /** Asks for one service described by {@code tags}; per GPU 512 MB and 1 vcore. */
    long ask(Set<String> tags) throws Exception {
      return ask(tags, Resource.newInstance(512, 1, Map.of(GPU, 1L)), 1);
    }

    long ask(Set<String> tags, Resource perAllocation, int allocations) throws Exception {
      long id = nextRequestId++;
      SchedulingRequest r = SchedulingRequest.newBuilder()
          .allocationRequestId(id)
          .priority(Priority.newInstance(1))
          .executionType(ExecutionTypeRequest.newInstance(ExecutionType.GUARANTEED))
          .allocationTags(tags)
          .resourceSizing(ResourceSizing.newInstance(allocations, perAllocation))
          .build();
      ugi.doAs((PrivilegedExceptionAction<Void>) () -> {
        amrm.addSchedulingRequests(List.of(r));
        return null;
      });
      return id;
    }

    /** One heartbeat: sends asks and releases, collects containers and rejections. */
    void heartbeat() throws Exception {
      AllocateResponse r = ugi.doAs((PrivilegedExceptionAction<AllocateResponse>) () -> amrm.allocate(0.1f));
      containers.addAll(r.getAllocatedContainers());
      rejected.addAll(r.getRejectedSchedulingRequests());
    }

    /** Heartbeats until {@code done} holds for this AM's containers and rejections. */
    void until(String what, Predicate<Am> done) throws Exception {
      long end = System.nanoTime() + WAIT.toNanos();
      while (true) {
        heartbeat();
        if (done.test(this)) {
          return;
        }
        if (System.nanoTime() > end) {
          throw new AssertionError("timed out waiting for " + what + "; containers " + describe(containers)
              + ", rejected " + rejected);
        }
        Thread.sleep(50);
      }
    }

    /** Heartbeats until {@code requestId} has an answer: its containers, or a rejection. */
    void awaitAnswer(long requestId) throws Exception {
      until("an answer to request " + requestId, am -> rejectedOf(requestId) != null
          || (!containersOf(requestId).isEmpty()
              && containersOf(requestId).size() == Integer.parseInt(tag(containersOf(requestId).get(0), ServiceSpec.GROUPS))));
    }

    List<Container> containersOf(long requestId) {
      return containers.stream().filter(c -> c.getAllocationRequestId() == requestId).toList();
    }

    RejectedSchedulingRequest rejectedOf(long requestId) {
      return rejected.stream().filter(r -> r.getRequest().getAllocationRequestId() == requestId).findFirst().orElse(null);
    }

    /** Releases {@code gone} and heartbeats until the scheduler has taken them off their nodes. */
    void release(List<Container> gone) throws Exception {
      for (Container c : gone) {
        amrm.releaseAssignedContainer(c.getId());
      }
      containers.removeAll(gone);
      heartbeat();
      waitFor("release of " + gone.size() + " containers", () -> gone.stream().allMatch(c ->
          ((CapacityScheduler) rmContext().getScheduler()).getRMContainer(c.getId()) == null));
    }
  }

  static String tag(Container c, String key) {
    return ServiceSpec.tag(c.getAllocationTags(), key);
  }

  static String describe(List<Container> cs) {
    return cs.stream().map(c -> c.getNodeId() + " " + c.getResource() + " " + c.getAllocationTags()).collect(Collectors.joining("; ", "[", "]"));
  }

  static void waitFor(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  @Override
  public void close() {
    client.stop();
    cluster.stop();
  }
}
