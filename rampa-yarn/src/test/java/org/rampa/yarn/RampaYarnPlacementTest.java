package org.rampa.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceSizing;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.api.ConstraintPlacementAlgorithmOutput;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.processor.BatchedRequests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.Stage;
import org.rampa.verify.PlanVerifier;
import org.rampa.yarn.RampaPlacementAlgorithm.Booking;
import org.rampa.yarn.RampaPlacementAlgorithm.Group;

/** RAMPA inside a real ResourceManager: one cluster of 12 GPUs of three types on four nodes of different sizes. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RampaYarnPlacementTest {

  private static YarnTestCluster yarn;

  @BeforeAll
  static void start() throws Exception {
    yarn = new YarnTestCluster("rampa-placement",
        List.of("T4:4", "T4:2", "A10:4", "A100-SXM4-80GB:2"), Map.of(RampaYarnConfig.STRATEGY, "greedy"));
  }

  @AfterAll
  static void stop() {
    if (yarn != null) {
      yarn.close();
    }
  }

  static Set<String> service(String name, String model, String... more) {
    Set<String> tags = new java.util.LinkedHashSet<>(List.of("rampa.service=" + name, "rampa.model=" + model, "app-own-tag"));
    tags.addAll(List.of(more));
    return tags;
  }

  @Test
  @Order(1)
  void containersLandOnThePlannedNodesAndThePlanMeetsTheSlo() throws Exception {
    var am = yarn.startAm("one-service");
    long id = am.ask(service("chat7b", "llama2-7b", "rampa.phase=prefill", "rampa.tokens=512",
        "rampa.slo.throughput=5", "rampa.slo.latency-ms=400", "rampa.max-stages=2"));
    am.awaitAnswer(id);
    assertThat(am.rejectedOf(id)).as("rejection").isNull();
    Booking b = booking(am.app() + "/chat7b");
    assertContainersMatchPlan(am.containersOf(id), b);
    assertThat(am.containersOf(id)).allSatisfy(c -> assertThat(c.getAllocationTags()).contains("app-own-tag"));
    System.out.println("[rampa-yarn] one service: " + describe(b));
    ClusterState without = yarn.adapter().ledger().orElseThrow();
    // the plan re-checked by the one verifier on the ledger without it: SLO, memory, coverage
    var request = ServiceSpec.parse(Set.of("rampa.service=chat7b", "rampa.model=llama2-7b", "rampa.phase=prefill",
        "rampa.tokens=512", "rampa.slo.throughput=5", "rampa.slo.latency-ms=400", "rampa.max-stages=2"),
        am.app().toString(), yarn.adapter().config()).request();
    var verification = PlanVerifier.defaults().verify(request, b.plan(), without.release(b.serviceId()));
    assertThat(verification.ok()).as(verification.violations().toString()).isTrue();
    assertThat(b.plan().throughput()).isGreaterThanOrEqualTo(5 * (1 - 1e-6));
    assertThat(b.plan().latency().toMillis()).isLessThanOrEqualTo(400);
    assertLedgerMatchesScheduler();
    am.release(am.containers);
    assertThat(yarn.adapter().bookings()).isEmpty();
    assertLedgerMatchesScheduler();
  }

  @Test
  @Order(3)
  void aPipelinedModelGetsOneContainerPerStageGroup() throws Exception {
    var am = yarn.startAm("pipelined");
    // 26 GB of FP16 weights: more than a T4 (16 GB) or an A10 (24 GB) holds, so the cheap plan is a pipeline
    long id = am.ask(service("chat13b", "llama2-13b", "rampa.phase=prefill", "rampa.tokens=512",
        "rampa.slo.throughput=1", "rampa.slo.latency-ms=2000", "rampa.max-stages=4"));
    am.awaitAnswer(id);
    assertThat(am.rejectedOf(id)).as("rejection").isNull();
    Booking b = booking(am.app() + "/chat13b");
    assertThat(b.plan().stages()).hasSizeGreaterThanOrEqualTo(2);
    assertContainersMatchPlan(am.containersOf(id), b);
    // the stages' layer ranges, as the AM reads them from its containers, cover the model in order
    List<String> ranges = am.containersOf(id).stream()
        .sorted(java.util.Comparator.comparingInt(c -> Integer.parseInt(YarnTestCluster.tag(c, ServiceSpec.STAGE))))
        .map(c -> YarnTestCluster.tag(c, ServiceSpec.LAYERS)).distinct().toList();
    assertThat(ranges.get(0)).startsWith("0-");
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(ranges.get(i).split("-")[0]).isEqualTo(ranges.get(i - 1).split("-")[1]);
    }
    assertThat(ranges.get(ranges.size() - 1)).endsWith("-" + b.plan().stages().get(b.plan().stages().size() - 1).to());
    System.out.println("[rampa-yarn] pipelined: " + describe(b) + " -> " + YarnTestCluster.describe(am.containersOf(id)));
    // giving back one stage's container frees exactly its GPUs; the rest stays booked
    Container first = am.containers.get(0);
    am.release(List.of(first));
    assertLedgerMatchesScheduler();
    assertThat(booking(am.app() + "/chat13b").groups()).filteredOn(g -> g.status() == RampaPlacementAlgorithm.GroupStatus.DONE)
        .hasSize(1);
    am.release(am.containers);
    assertThat(yarn.adapter().bookings()).isEmpty();
  }

  @Test
  @Order(2)
  void replicasOfAStageOnOneNodeShareOneContainer() throws Exception {
    var am = yarn.startAm("replicas");
    // 30 requests/s of Llama-2-7B prefill is more than any one GPU here serves (an A100: 21.8), so a stage runs replicas
    long id = am.ask(service("busy7b", "llama2-7b", "rampa.phase=prefill", "rampa.tokens=512",
        "rampa.slo.throughput=30", "rampa.slo.latency-ms=400", "rampa.max-stages=1"));
    am.awaitAnswer(id);
    assertThat(am.rejectedOf(id)).as("rejection").isNull();
    Booking b = booking(am.app() + "/busy7b");
    System.out.println("[rampa-yarn] replicas: " + describe(b) + " -> " + YarnTestCluster.describe(am.containersOf(id)));
    assertThat(b.plan().stages().get(0).replicas()).isGreaterThanOrEqualTo(2);
    assertThat(b.groups()).anySatisfy(g -> assertThat(g.gpus()).hasSizeGreaterThanOrEqualTo(2));
    assertContainersMatchPlan(am.containersOf(id), b);
    // a group's container carries the per-GPU memory and vcores once per GPU
    assertThat(am.containersOf(id)).allSatisfy(c -> {
      long g = c.getResource().getResourceValue(YarnTestCluster.GPU);
      assertThat(c.getResource().getMemorySize()).isEqualTo(512 * g);
      assertThat(c.getResource().getVirtualCores()).isEqualTo((int) g);
    });
    assertLedgerMatchesScheduler();
    am.release(am.containers);
    assertThat(yarn.adapter().bookings()).isEmpty();
  }

  @Test
  @Order(4)
  void anUnfittableServiceIsRejectedWithRampasReason() throws Exception {
    var am = yarn.startAm("unfittable");
    long tooFast = am.ask(service("flood", "llama2-13b", "rampa.phase=prefill", "rampa.tokens=512",
        "rampa.slo.throughput=1000", "rampa.slo.latency-ms=100"));
    long shared = am.ask(service("shared", "resnet50", "rampa.slo.throughput=10", "rampa.slo.latency-ms=100",
        "rampa.sharing=mps"));
    long typo = am.ask(service("typo", "resnet50", "rampa.slo.throughput=ten", "rampa.slo.latency-ms=100"));
    am.until("three rejections", a -> a.rejected.size() == 3);
    assertThat(am.containers).isEmpty();
    String reason = ServiceSpec.tag(am.rejectedOf(tooFast).getRequest().getAllocationTags(), ServiceSpec.REJECTED);
    assertThat(reason).matches("(INFEASIBLE|NO_PLAN_FOUND): .+");
    assertThat(ServiceSpec.tag(am.rejectedOf(shared).getRequest().getAllocationTags(), ServiceSpec.REJECTED))
        .contains("rampa.sharing = mps").contains("YARN cannot enforce GPU shares");
    assertThat(ServiceSpec.tag(am.rejectedOf(typo).getRequest().getAllocationTags(), ServiceSpec.REJECTED))
        .contains("rampa.slo.throughput = ten: must be a number");
    assertThat(yarn.adapter().bookings()).isEmpty();
  }

  @Test
  @Order(5)
  void twoInterleavedAmsNeverOverbookAndAReleaseFreesCapacityForALaterService() throws Exception {
    var a = yarn.startAm("am-a");
    var b = yarn.startAm("am-b");
    // resnet50 at 1000 requests/s fits one GPU of any type: twelve services fill the twelve GPUs
    Map<Long, YarnTestCluster.Am> owner = new HashMap<>();
    List<long[]> asks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      for (var am : List.of(a, b)) {
        long id = am.ask(service("svc" + i, "resnet50", "rampa.slo.throughput=1000", "rampa.slo.latency-ms=50"));
        asks.add(new long[] {id, am == a ? 0 : 1});
        am.heartbeat();
      }
    }
    a.until("six services of A", x -> x.containers.size() + x.rejected.size() >= 6);
    b.until("six services of B", x -> x.containers.size() + x.rejected.size() >= 6);
    assertThat(a.rejected).isEmpty();
    assertThat(b.rejected).isEmpty();
    List<Container> all = new ArrayList<>(a.containers);
    all.addAll(b.containers);
    assertThat(all).hasSize(12);
    Map<NodeId, Long> used = all.stream().collect(Collectors.groupingBy(Container::getNodeId,
        Collectors.summingLong(c -> c.getResource().getResourceValue(YarnTestCluster.GPU))));
    used.forEach((n, g) -> assertThat(g).as("GPUs on " + n).isLessThanOrEqualTo(yarn.gpusOf.get(n)));
    assertLedgerMatchesScheduler();

    long late = b.ask(service("late", "resnet50", "rampa.slo.throughput=1000", "rampa.slo.latency-ms=50"));
    b.awaitAnswer(late);
    assertThat(ServiceSpec.tag(b.rejectedOf(late).getRequest().getAllocationTags(), ServiceSpec.REJECTED)).isNotBlank();

    Container freed = a.containers.get(0);
    a.release(List.of(freed));
    long again = b.ask(service("late2", "resnet50", "rampa.slo.throughput=1000", "rampa.slo.latency-ms=50"));
    b.awaitAnswer(again);
    assertThat(b.rejectedOf(again)).isNull();
    assertThat(b.containersOf(again)).singleElement().satisfies(c -> assertThat(c.getNodeId()).isEqualTo(freed.getNodeId()));
    assertLedgerMatchesScheduler();
    a.release(a.containers);
    b.release(b.containers);
    assertThat(yarn.adapter().bookings()).isEmpty();
    assertLedgerMatchesScheduler();
  }

  @Test
  @Order(6)
  void aCommitTheSchedulerRefusesFreesItsGpusInTheLedger() throws Exception {
    var am = yarn.startAm("refused");
    var adapter = yarn.adapter();
    // drive the adapter as the placement processor does, but keep its answer from the scheduler, as
    // if another container had taken the node's room: the processor then sends the group back with
    // placementAttempt + 1 and the node blacklisted
    SchedulingRequest ask = SchedulingRequest.newBuilder().allocationRequestId(7).priority(Priority.newInstance(1))
        .executionType(ExecutionTypeRequest.newInstance(ExecutionType.GUARANTEED))
        .allocationTags(service("r", "resnet50", "rampa.slo.throughput=1000", "rampa.slo.latency-ms=50"))
        .resourceSizing(ResourceSizing.newInstance(1, Resource.newInstance(512, 1, Map.of(YarnTestCluster.GPU, 1L))))
        .build();
    List<ConstraintPlacementAlgorithmOutput> outputs = new ArrayList<>();
    adapter.place(new BatchedRequests(BatchedRequests.IteratorType.SERIAL, am.app(), List.of(ask), 1), outputs::add);
    var placed = outputs.get(0).getPlacedRequests();
    assertThat(placed).hasSize(1);
    String service = am.app() + "/r";
    assertThat(adapter.ledger().orElseThrow().holds(service)).isTrue();

    SchedulingRequest group = placed.get(0).getSchedulingRequest();
    BatchedRequests retry = new BatchedRequests(BatchedRequests.IteratorType.SERIAL, am.app(), List.of(group), 2);
    retry.addToBlacklist(group.getAllocationTags(), placed.get(0).getNodes().get(0));
    outputs.clear();
    adapter.place(retry, outputs::add);
    assertThat(outputs.get(0).getPlacedRequests()).isEmpty();
    assertThat(outputs.get(0).getRejectedRequests()).singleElement().satisfies(r ->
        assertThat(ServiceSpec.tag(r.getSchedulingRequest().getAllocationTags(), ServiceSpec.REJECTED))
            .contains("refused to commit GPU group 0 on node " + placed.get(0).getNodes().get(0).getNodeID()));
    assertThat(adapter.ledger().orElseThrow().holds(service)).isFalse();
    assertThat(adapter.bookings()).isEmpty();
    assertLedgerMatchesScheduler();
  }

  private static String describe(Booking b) {
    return b.serviceId() + " " + b.plan().stages().size() + " stages " + b.plan().stages().stream()
        .map(st -> "[" + st.from() + "," + st.to() + ") on " + st.gpus()).toList() + ", " + String.format("%.2f", b.plan().throughput())
        + " req/s, " + b.plan().latency().toMillis() + " ms";
  }

  private static Booking booking(String serviceId) {
    return yarn.adapter().bookings().stream().filter(x -> x.serviceId().equals(serviceId)).findFirst()
        .orElseThrow(() -> new AssertionError("no booking " + serviceId + " in " + yarn.adapter().bookings()));
  }

  /** One container per group of the plan: on the group's node, with its stage, layers and GPU count. */
  private static void assertContainersMatchPlan(List<Container> containers, Booking b) {
    assertThat(containers).hasSameSizeAs(b.groups());
    List<String> got = containers.stream().map(c -> c.getNodeId() + " stage " + YarnTestCluster.tag(c, ServiceSpec.STAGE)
        + " layers " + YarnTestCluster.tag(c, ServiceSpec.LAYERS) + " gpus " + c.getResource().getResourceValue(YarnTestCluster.GPU)
        + "=" + YarnTestCluster.tag(c, ServiceSpec.GPUS)).sorted().toList();
    List<String> planned = new ArrayList<>();
    for (Group g : b.groups()) {
      Stage s = b.plan().stages().get(g.stage());
      planned.add(g.node() + " stage " + g.stage() + " layers " + s.from() + "-" + s.to() + " gpus " + g.gpus().size() + "=" + g.gpus().size());
    }
    assertThat(got).containsExactlyElementsOf(planned.stream().sorted().toList());
    // and the plan's GPUs lie on those nodes
    for (Group g : b.groups()) {
      assertThat(g.gpus()).allSatisfy(gpu -> assertThat(gpu).startsWith(g.node() + "/"));
    }
  }

  /** Per node, the GPUs the ledger holds equal the GPUs the scheduler has allocated (after reconciliation). */
  private static void assertLedgerMatchesScheduler() {
    yarn.adapter().bookings();
    ClusterState ledger = yarn.adapter().ledger().orElseThrow();
    for (NodeId n : yarn.nodes) {
      long held = ledger.allocations().values().stream().flatMap(a -> a.holdings().stream()).map(Holding::gpu)
          .filter(g -> g.startsWith(n + "/")).count();
      assertThat(held).as("ledger vs scheduler on " + n).isEqualTo(yarn.allocatedGpus(n));
      assertThat(yarn.allocatedGpus(n)).isLessThanOrEqualTo(yarn.gpusOf.get(n));
    }
  }
}
