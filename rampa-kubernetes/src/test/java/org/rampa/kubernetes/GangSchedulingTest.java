package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.rampa.kubernetes.KubeFixtures.JSON;
import static org.rampa.kubernetes.KubeFixtures.bound;
import static org.rampa.kubernetes.KubeFixtures.gpuNode;
import static org.rampa.kubernetes.KubeFixtures.nodeInfo;
import static org.rampa.kubernetes.KubeFixtures.podInfo;
import static org.rampa.kubernetes.KubeFixtures.rampaPod;
import static org.rampa.kubernetes.KubeFixtures.service;
import static org.rampa.kubernetes.KubeFixtures.tree;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;

/** Gangs over real HTTP: one plan for all stages, each pod on its slot's node, concurrent services apart, expiry. */
class GangSchedulingTest {

  /** Heterogeneous: three T4, two A10, an A100 and an H100 node, one GPU each. */
  private final List<Node> nodes = List.of(
      gpuNode("t4-a", "Tesla-T4", 1, 15360), gpuNode("t4-b", "Tesla-T4", 1, 15360), gpuNode("t4-c", "Tesla-T4", 1, 15360),
      gpuNode("a10-a", "NVIDIA-A10", 1, 23028), gpuNode("a10-b", "NVIDIA-A10", 1, 23028),
      gpuNode("a100-a", "NVIDIA-A100-SXM4-80GB", 1, 81920), gpuNode("h100-a", "NVIDIA-H100-80GB-HBM3", 1, 81559));
  private final List<String> names = nodes.stream().map(n -> n.getMetadata().getName()).toList();
  private final KubeFixtures.ManualClock clock = new KubeFixtures.ManualClock();
  private final Duration ttl = Duration.ofMinutes(2);
  private GangScheduler scheduler;
  private ExtenderServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    scheduler = KubeFixtures.scheduler(clock, ttl);
    nodes.forEach(n -> scheduler.upsertNode(nodeInfo(n)));
    server = ExtenderServer.start(scheduler, new InetSocketAddress("127.0.0.1", 0), 8);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Llama-2-13B at 4 req/s within 3 stages: on this cluster, three T4 stages. */
  private static Pod llamaPod(String service, int stage) {
    return rampaPod(service, stage, 0, service("llama2-13b", 4, 5000, 3), "nvidia.com/gpu");
  }

  private JsonNode filter(Pod pod) throws Exception {
    ObjectNode args = JSON.createObjectNode();
    args.set("Pod", tree(pod));
    args.putNull("Nodes");
    args.set("NodeNames", JSON.valueToTree(names));
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/filter"))
        .POST(HttpRequest.BodyPublishers.ofString(args.toString())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static List<String> passed(JsonNode result) {
    List<String> out = new ArrayList<>();
    result.get("NodeNames").forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void aGangOfThreeStagePodsLandsOnThePlannedNodes() throws Exception {
    // the middle stage's pod arrives first: it plans the whole service
    JsonNode first = filter(llamaPod("chat", 1));

    Reservation r = scheduler.reservations().get("inference/chat");
    assertThat(r.slots()).hasSize(3);
    assertThat(r.plan().stages()).hasSize(3);
    // capability importance spends the least capable GPUs: the three T4 nodes, not the A100 or H100
    assertThat(r.slots().values()).extracting(Reservation.Slot::node).containsExactlyInAnyOrder("t4-a", "t4-b", "t4-c");
    assertThat(passed(first)).containsExactly(r.slot(1, 0).orElseThrow().node());
    for (int stage = 0; stage < 3; stage++) {
      JsonNode result = filter(llamaPod("chat", stage));
      String planned = r.slot(stage, 0).orElseThrow().node();
      assertThat(passed(result)).containsExactly(planned);
      assertThat(result.get("FailedNodes")).hasSize(names.size() - 1);
    }
    assertThat(scheduler.counters()).containsEntry("reservationsMade", 1L);

    // kube-scheduler binds them; the watch reports it, and a bound gang does not expire
    for (int stage = 0; stage < 3; stage++) {
      scheduler.upsertPod(podInfo(bound(llamaPod("chat", stage), r.slot(stage, 0).orElseThrow().node())));
    }
    clock.advance(ttl.multipliedBy(3));
    scheduler.maintain();
    assertThat(scheduler.reservations()).containsKey("inference/chat");
    assertThat(scheduler.reservations().get("inference/chat").boundPods()).hasSize(3);
    assertThat(scheduler.reservations().get("inference/chat").unboundSince()).isEmpty();

    // a pod of a stage the plan does not have is told the plan's shape
    JsonNode extra = filter(llamaPod("chat", 5));
    assertThat(extra.get("FailedAndUnresolvableNodes").get("t4-a").asText())
        .startsWith("service inference/chat is planned as 3 stage(s) [stage 0 x1, stage 1 x1, stage 2 x1]; it has no stage 5 replica 0");
  }

  @Test
  void concurrentServicesNeverGetTheSameGpus() throws Exception {
    int services = 6;
    ExecutorService pool = Executors.newFixedThreadPool(services);
    try {
      for (int round = 0; round < 5; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<JsonNode>> answers = new ArrayList<>();
        for (int s = 0; s < services; s++) {
          Pod pod = rampaPod("svc-" + round + "-" + s, 0, 0, service("llama2-7b", 1, 5000, 2), "nvidia.com/gpu");
          answers.add(pool.submit(() -> {
            go.await();
            return filter(pod);
          }));
        }
        go.countDown();
        Map<String, String> passedBy = new java.util.HashMap<>();
        for (Future<JsonNode> f : answers) {
          f.get();
        }
        Set<String> gpus = new HashSet<>();
        for (Reservation r : scheduler.reservations().values()) {
          for (Reservation.Slot slot : r.slots().values()) {
            assertThat(gpus.add(slot.gpu())).as("GPU %s reserved twice", slot.gpu()).isTrue();
            passedBy.put(slot.gpu(), r.service().id());
          }
        }
        ClusterState ledger = scheduler.ledger().orElseThrow();
        for (String gpu : gpus) {
          assertThat(ledger.holdingsOn(gpu)).hasSize(1);
          assertThat(ledger.servicesOn(gpu)).containsExactly(passedBy.get(gpu));
        }
        // seven single-GPU nodes: the first services get GPUs, the rest are told why not
        assertThat(gpus.size()).isLessThanOrEqualTo(nodes.size());
        // make room for the next round: nobody binds, so every reservation expires
        clock.advance(ttl);
        scheduler.maintain();
        assertThat(scheduler.reservations()).isEmpty();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aSecondServiceWhileTheFirstHoldsTheT4sGetsOtherGpus() throws Exception {
    filter(llamaPod("chat", 0));
    Set<String> first = gpusOf("inference/chat");

    filter(rampaPod("vision", 0, 0, service("resnet50", 100, 200, 1), "nvidia.com/gpu"));

    Set<String> second = gpusOf("inference/vision");
    assertThat(second).doesNotContainAnyElementsOf(first).isNotEmpty();
  }

  @Test
  void anExpiredReservationFreesItsGpus() throws Exception {
    filter(llamaPod("chat", 0));
    Set<String> held = gpusOf("inference/chat");
    assertThat(scheduler.ledger().orElseThrow().capacity().count()).isEqualTo(4);

    clock.advance(ttl.minusSeconds(1));
    scheduler.maintain();
    assertThat(scheduler.reservations()).containsKey("inference/chat");

    clock.advance(Duration.ofSeconds(1));
    scheduler.maintain();
    assertThat(scheduler.reservations()).isEmpty();
    assertThat(scheduler.ledger().orElseThrow().capacity().count()).isEqualTo(7);
    assertThat(scheduler.released().get(0).service()).isEqualTo("inference/chat");
    assertThat(scheduler.released().get(0).why()).isEqualTo("expired: 3 of 3 pods not bound within PT2M since "
        + "2026-12-01T12:00:00Z; its GPUs are free again");
    // the same GPUs are the cheapest again for the next service
    filter(llamaPod("chat-2", 0));
    assertThat(gpusOf("inference/chat-2")).isEqualTo(held);
  }

  @Test
  void podsOfAnExpiredGangStillHoldTheirGpus() throws Exception {
    filter(llamaPod("chat", 0));
    Reservation r = scheduler.reservations().get("inference/chat");
    String node0 = r.slot(0, 0).orElseThrow().node();
    scheduler.upsertPod(podInfo(bound(llamaPod("chat", 0), node0)));
    clock.advance(ttl);
    scheduler.maintain();
    assertThat(scheduler.reservations()).isEmpty();

    ClusterState ledger = scheduler.ledger().orElseThrow();
    List<Holding> onNode0 = ledger.holdingsOn(node0 + "/gpu0");
    assertThat(onNode0).hasSize(1);
    assertThat(ledger.servicesOn(node0 + "/gpu0")).containsExactly("pods@" + node0);
    // a foreign GPU pod is kept off it too
    JsonNode plain = filter(KubeFixtures.plainGpuPod("notebook", "nvidia.com/gpu", 1));
    assertThat(passed(plain)).doesNotContain(node0).hasSize(names.size() - 1);
    assertThat(plain.get("FailedNodes").get(node0).asText()).isEqualTo("1 nvidia.com/gpu wanted, 0 free");
  }

  @Test
  void aPlainGpuPodIsKeptOffReservedGpus() throws Exception {
    filter(llamaPod("chat", 0));

    JsonNode plain = filter(KubeFixtures.plainGpuPod("notebook", "nvidia.com/gpu", 1));

    assertThat(passed(plain)).containsExactlyInAnyOrder("a10-a", "a10-b", "a100-a", "h100-a");
    assertThat(plain.get("FailedNodes").get("t4-b").asText())
        .isEqualTo("1 nvidia.com/gpu wanted, 0 free (reserved by RAMPA services [inference/chat])");
  }

  @Test
  void aRemovedNodeDropsTheReservationOnItWithTheReason() throws Exception {
    filter(llamaPod("chat", 0));
    String node = scheduler.reservations().get("inference/chat").slot(2, 0).orElseThrow().node();

    scheduler.deleteNode(node);
    scheduler.maintain();

    assertThat(scheduler.reservations()).isEmpty();
    assertThat(scheduler.released().get(0).why()).isEqualTo("dropped: GPU " + node + "/gpu0 of stage 2 replica 0 is gone "
        + "(node removed or its GPU labels changed)");
    assertThat(scheduler.counters()).containsEntry("reservationsLost", 1L);
  }

  @Test
  void aCordonedNodeKeepsItsReservationsButGetsNoNewPlan() throws Exception {
    filter(llamaPod("chat", 0));
    String node = scheduler.reservations().get("inference/chat").slot(0, 0).orElseThrow().node();

    // cordon the chat's first node and a free A10 node, the cheapest free GPUs once the T4s are taken
    cordon(node);
    cordon("a10-a");
    filter(rampaPod("small", 0, 0, service("resnet50", 10, 1000, 1), "nvidia.com/gpu"));

    assertThat(scheduler.reservations()).containsKeys("inference/chat", "inference/small");
    assertThat(scheduler.ledger().orElseThrow().servicesOn(node + "/gpu0")).containsExactly("inference/chat");
    assertThat(gpusOf("inference/small")).containsExactly("a10-b/gpu0");
    assertThat(scheduler.ledger().orElseThrow().servicesOn("a10-a/gpu0")).containsExactly("cordoned@a10-a");
  }

  private void cordon(String node) {
    scheduler.upsertNode(nodeInfo(new io.fabric8.kubernetes.api.model.NodeBuilder(
        nodes.stream().filter(n -> n.getMetadata().getName().equals(node)).findFirst().orElseThrow())
        .editOrNewSpec().withUnschedulable(true).endSpec().build()));
  }

  private Set<String> gpusOf(String service) {
    Set<String> out = new HashSet<>();
    scheduler.reservations().get(service).slots().values().forEach(s -> out.add(s.gpu()));
    return out;
  }
}
