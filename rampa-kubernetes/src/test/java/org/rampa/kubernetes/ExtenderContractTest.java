package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.rampa.kubernetes.KubeFixtures.JSON;
import static org.rampa.kubernetes.KubeFixtures.gpuNode;
import static org.rampa.kubernetes.KubeFixtures.nodeInfo;
import static org.rampa.kubernetes.KubeFixtures.nodeList;
import static org.rampa.kubernetes.KubeFixtures.rampaPod;
import static org.rampa.kubernetes.KubeFixtures.service;
import static org.rampa.kubernetes.KubeFixtures.tree;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler's extender protocol over real HTTP: ExtenderArgs built from real v1.Pod and
 * v1.Node JSON (fabric8's model types), replies checked field by field, for nodeCacheCapable true
 * (NodeNames) and false (Nodes).
 */
class ExtenderContractTest {

  private final List<Node> nodes = List.of(
      gpuNode("t4-a", "Tesla-T4", 1, 15360),
      gpuNode("a10-a", "NVIDIA-A10", 1, 23028),
      gpuNode("a100-a", "NVIDIA-A100-SXM4-80GB", 2, 81920));
  private final List<String> names = nodes.stream().map(n -> n.getMetadata().getName()).toList();
  private GangScheduler scheduler;
  private ExtenderServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws IOException {
    scheduler = KubeFixtures.scheduler(new KubeFixtures.ManualClock(), Duration.ofMinutes(2));
    nodes.forEach(n -> scheduler.upsertNode(nodeInfo(n)));
    server = ExtenderServer.start(scheduler, new InetSocketAddress("127.0.0.1", 0), 4);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> post(String verb, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/scheduler/" + verb))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** ExtenderArgs as kube-scheduler marshals it: Go field names, the other node field null. */
  private static String argsWithNames(Pod pod, List<String> nodeNames) {
    ObjectNode args = JSON.createObjectNode();
    args.set("Pod", tree(pod));
    args.putNull("Nodes");
    args.set("NodeNames", JSON.valueToTree(nodeNames));
    return args.toString();
  }

  private String argsWithNodes(Pod pod) {
    ObjectNode args = JSON.createObjectNode();
    args.set("Pod", tree(pod));
    args.set("Nodes", tree(nodeList(nodes)));
    args.putNull("NodeNames");
    return args.toString();
  }

  private static Pod resnetPod(String service, int stage) {
    return rampaPod(service, stage, 0, service("resnet50", 50, 500, 1), "nvidia.com/gpu");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }

  @Test
  void filterWithNodeNamesAnswersOnlyThePlannedNode() throws Exception {
    HttpResponse<String> response = post("filter", argsWithNames(resnetPod("vision", 0), names));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonNode result = JSON.readTree(response.body());
    assertThat(fieldNames(result)).containsExactlyInAnyOrder("Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error");
    assertThat(result.get("Nodes").isNull()).isTrue();
    assertThat(result.get("Error").asText()).isEmpty();
    Reservation r = scheduler.reservations().get("inference/vision");
    String planned = r.slot(0, 0).orElseThrow().node();
    assertThat(result.get("NodeNames")).hasSize(1);
    assertThat(result.get("NodeNames").get(0).asText()).isEqualTo(planned);
    assertThat(fieldNames(result.get("FailedNodes"))).containsExactlyInAnyOrderElementsOf(
        names.stream().filter(n -> !n.equals(planned)).toList());
    result.get("FailedNodes").forEach(why -> assertThat(why.asText())
        .isEqualTo("service inference/vision stage 0 replica 0 is reserved on node " + planned + " (GPU " + planned + "/gpu0, whole)"));
    assertThat(result.get("FailedAndUnresolvableNodes").isObject()).isTrue();
    assertThat(result.get("FailedAndUnresolvableNodes")).isEmpty();
  }

  @Test
  void filterWithFullNodesReturnsTheSentNodeObjects() throws Exception {
    HttpResponse<String> response = post("filter", argsWithNodes(resnetPod("vision", 0)));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode result = JSON.readTree(response.body());
    assertThat(result.get("NodeNames").isNull()).isTrue();
    String planned = scheduler.reservations().get("inference/vision").slot(0, 0).orElseThrow().node();
    JsonNode items = result.get("Nodes").get("items");
    assertThat(items).hasSize(1);
    Node sent = nodes.stream().filter(n -> n.getMetadata().getName().equals(planned)).findFirst().orElseThrow();
    assertThat(items.get(0)).isEqualTo(tree(sent));
    assertThat(result.get("Nodes").get("metadata").get("resourceVersion").asText()).isEqualTo("4242");
    assertThat(result.get("FailedNodes")).hasSize(names.size() - 1);
    assertThat(result.get("Error").asText()).isEmpty();
  }

  @Test
  void prioritizeScoresThePlannedNodeTen() throws Exception {
    Pod pod = resnetPod("vision", 0);
    post("filter", argsWithNames(pod, names));
    String planned = scheduler.reservations().get("inference/vision").slot(0, 0).orElseThrow().node();

    HttpResponse<String> response = post("prioritize", argsWithNames(pod, names));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode list = JSON.readTree(response.body());
    assertThat(list.isArray()).isTrue();
    assertThat(list).hasSize(names.size());
    for (JsonNode hp : list) {
      assertThat(fieldNames(hp)).containsExactly("Host", "Score");
      assertThat(hp.get("Score").asInt()).isEqualTo(hp.get("Host").asText().equals(planned) ? 10 : 0);
    }
  }

  @Test
  void prioritizeForAPlainGpuPodPrefersTheLeastValuableFreeGpu() throws Exception {
    Pod plain = KubeFixtures.plainGpuPod("notebook", "nvidia.com/gpu", 1);

    JsonNode list = JSON.readTree(post("prioritize", argsWithNodes(plain)).body());

    // capability importance: the T4 is worth least, the A100 most
    assertThat(list).extracting(h -> h.get("Host").asText() + "=" + h.get("Score").asInt())
        .containsExactly("t4-a=10", "a10-a=" + list.get(1).get("Score").asInt(), "a100-a=0");
    assertThat(list.get(1).get("Score").asInt()).isBetween(1, 9);
  }

  @Test
  void anUnplaceableServiceGetsRampasInfeasibleReasonNotAnError() throws Exception {
    // 70B parameters in FP16 do not fit one GPU, and maxStages is 1
    Pod pod = rampaPod("huge", 0, 0, service("llama2-70b", 1, 60_000, 1), "nvidia.com/gpu");

    HttpResponse<String> response = post("filter", argsWithNames(pod, names));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode result = JSON.readTree(response.body());
    assertThat(result.get("NodeNames")).isEmpty();
    assertThat(result.get("Error").asText()).isEmpty();
    assertThat(fieldNames(result.get("FailedNodes"))).containsExactlyInAnyOrderElementsOf(names);
    assertThat(result.get("FailedNodes").get("t4-a").asText()).startsWith("RAMPA INFEASIBLE (greedy): ").contains("maxStages is 1");
    assertThat(scheduler.reservations()).isEmpty();
  }

  @Test
  void aPodBreakingTheContractIsUnresolvableWithTheAnnotationNamed() throws Exception {
    Map<String, String> annotations = new java.util.HashMap<>(service("resnet50", 50, 500, 1));
    annotations.remove(PodContract.LATENCY_MS);
    Pod pod = rampaPod("vision", 0, 0, annotations, "nvidia.com/gpu");

    JsonNode result = JSON.readTree(post("filter", argsWithNames(pod, names)).body());

    assertThat(result.get("FailedNodes")).isEmpty();
    assertThat(result.get("FailedAndUnresolvableNodes").get("a10-a").asText())
        .isEqualTo("RAMPA pod contract: annotation rampa.io/slo-latency-ms is missing");
  }

  @Test
  void malformedRequestsGet400NamingTheField() throws Exception {
    Pod pod = resnetPod("vision", 0);
    ObjectNode lowerCase = JSON.createObjectNode();
    lowerCase.set("pod", tree(pod));
    lowerCase.set("nodenames", JSON.valueToTree(names));
    ObjectNode bothNull = JSON.createObjectNode();
    bothNull.set("Pod", tree(pod));
    bothNull.putNull("Nodes");
    bothNull.putNull("NodeNames");
    ObjectNode namesNotArray = (ObjectNode) JSON.readTree(argsWithNames(pod, names));
    namesNotArray.put("NodeNames", "t4-a");
    ObjectNode badQuantity = (ObjectNode) JSON.readTree(argsWithNames(pod, names));
    ((ObjectNode) badQuantity.at("/Pod/spec/containers/0/resources/limits")).put("nvidia.com/gpu", "one");
    ObjectNode noName = (ObjectNode) JSON.readTree(argsWithNodes(pod));
    ((ObjectNode) noName.at("/Nodes/items/1/metadata")).remove("name");

    Map<String, String> expected = new java.util.LinkedHashMap<>();
    expected.put("{not json", "body = (not JSON)");
    expected.put(lowerCase.toString(), "Pod = (missing; \"pod\" given): ExtenderArgs keys are capitalised");
    expected.put("{\"Nodes\":null,\"NodeNames\":[\"t4-a\"]}", "Pod = (missing): must be a JSON object");
    expected.put(bothNull.toString(), "Nodes, NodeNames = both null: exactly one must be set");
    expected.put(namesNotArray.toString(), "NodeNames = \"t4-a\": must be an array of node names");
    expected.put(badQuantity.toString(), "Pod.spec.containers[0].resources.limits[nvidia.com/gpu] = \"one\": an extended resource quantity must be a whole number");
    expected.put(noName.toString(), "Nodes.items[1].metadata.name = (missing): must be a non-empty string");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      HttpResponse<String> response = post("filter", e.getKey());
      assertThat(response.statusCode()).as(e.getValue()).isEqualTo(400);
      assertThat(response.body()).startsWith(e.getValue());
      assertThat(post("prioritize", e.getKey()).statusCode()).isEqualTo(400);
    }
    assertThat(scheduler.counters()).containsEntry("badRequests", 2L * expected.size());
  }

  @Test
  void healthStateMetricsAndWrongMethods() throws Exception {
    post("filter", argsWithNames(resnetPod("vision", 0), names));

    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    assertThat(get("/healthz").body()).isEqualTo("ok");
    JsonNode state = JSON.readTree(get("/state").body());
    assertThat(state.get("ledger").get("gpus").asInt()).isEqualTo(4);
    assertThat(state.get("ledger").get("freeWholeGpus").asInt()).isEqualTo(3);
    JsonNode reservation = state.get("reservations").get(0);
    assertThat(reservation.get("service").asText()).isEqualTo("inference/vision");
    assertThat(reservation.get("resource").asText()).isEqualTo("nvidia.com/gpu");
    assertThat(reservation.get("slots").get(0).get("pod").isNull()).isTrue();
    assertThat(reservation.get("expiresAt").asText()).isEqualTo("2026-12-01T12:02:00Z");
    assertThat(get("/metrics").body()).contains("rampa_extender_filter_calls_total 1", "rampa_extender_reservations_made_total 1",
        "rampa_extender_reservations 1");
    HttpResponse<String> getFilter = get("/scheduler/filter");
    assertThat(getFilter.statusCode()).isEqualTo(405);
    assertThat(get("/nope").statusCode()).isEqualTo(404);
  }

  @Test
  void unknownGpuProductsAreReportedByNameNotGuessed() throws Exception {
    scheduler.upsertNode(nodeInfo(gpuNode("nvl-a", "NVIDIA-H100-NVL", 2, 95830)));

    JsonNode state = JSON.readTree(get("/state").body());

    assertThat(state.get("nodeProblems").get("nvl-a").asText()).startsWith(
        "GPU product \"NVIDIA-H100-NVL\" (label nvidia.com/gpu.product) is not mapped to RAMPA's GPU catalog");
    assertThat(state.get("ledger").get("gpus").asInt()).isEqualTo(4);
  }
}
