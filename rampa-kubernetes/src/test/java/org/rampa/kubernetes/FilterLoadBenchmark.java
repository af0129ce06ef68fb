package org.rampa.kubernetes;

import static org.rampa.kubernetes.KubeFixtures.JSON;
import static org.rampa.kubernetes.KubeFixtures.gpuNode;
import static org.rampa.kubernetes.KubeFixtures.nodeInfo;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;

/**
 * Load benchmark (a main class, not a test): 1000 GPU nodes of five types (5600 GPUs), the extender
 * on a local port, and rounds of 200 filter calls sent at once over HTTP: the first pods of 200 new
 * services (each plans and reserves), pods of services already reserved, and the same with the full
 * NodeList in every request (nodeCacheCapable false); before them, 200 calls one at a time (what one
 * kube-scheduler, which filters one pod per scheduling cycle, sends), for the service time alone. Prints p50/p99/max per round and checks that
 * no GPU is held twice and that every RAMPA pod was sent to its slot's node.
 *
 * <pre>
 * mvn -B -q -pl rampa-kubernetes -am test-compile \
 *     org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath \
 *     -Dmdep.outputFile=target/test.cp -Dmdep.includeScope=test
 * java -cp rampa-kubernetes/target/test-classes:rampa-kubernetes/target/classes:$(cat rampa-kubernetes/target/test.cp) \
 *     org.rampa.kubernetes.FilterLoadBenchmark
 * </pre>
 */
public final class FilterLoadBenchmark {

  private static final int NODES = 1000;
  private static final int CONCURRENT = 200;

  private FilterLoadBenchmark() {}

  public static void main(String[] args) throws Exception {
    List<Node> nodes = new ArrayList<>();
    String[][] kinds = {
        {"Tesla-T4", "4", "15360"}, {"NVIDIA-A10", "4", "23028"}, {"NVIDIA-L4", "4", "23034"},
        {"NVIDIA-A100-SXM4-80GB", "8", "81920"}, {"NVIDIA-H100-80GB-HBM3", "8", "81559"}};
    for (int i = 0; i < NODES; i++) {
      String[] k = kinds[i % kinds.length];
      nodes.add(gpuNode(String.format(Locale.ROOT, "node-%04d", i), k[0], Integer.parseInt(k[1]), Long.parseLong(k[2])));
    }
    List<String> names = nodes.stream().map(n -> n.getMetadata().getName()).toList();
    KubeFixtures.ManualClock clock = new KubeFixtures.ManualClock();
    GangScheduler scheduler = KubeFixtures.scheduler(clock, Duration.ofMinutes(2));
    nodes.forEach(n -> scheduler.upsertNode(nodeInfo(n)));
    JsonNode nodeList = tree(KubeFixtures.nodeList(nodes));
    ExecutorService clientPool = Executors.newFixedThreadPool(CONCURRENT);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(clientPool).build();
    try (ExtenderServer server = ExtenderServer.start(scheduler, new InetSocketAddress("127.0.0.1", 0), 16)) {
      URI filter = URI.create("http://127.0.0.1:" + server.port() + "/filter");
      System.out.printf(Locale.ROOT, "cluster: %d nodes, %d GPUs; %d concurrent filter calls per round; %d cores; load average %.1f%n",
          NODES, scheduler.ledger().orElseThrow().cluster().gpus().size(), CONCURRENT,
          Runtime.getRuntime().availableProcessors(), java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

      // warm-up: JIT the whole path, then let those reservations expire
      round(http, filter, services("warm", 1), names, null, scheduler);
      clock.advance(Duration.ofMinutes(3));
      scheduler.maintain();

      // one call at a time, as one kube-scheduler sends them (it filters one pod per scheduling cycle): service time
      List<Pod> serial = services("serial", 3);
      report("one at a time: new services, NodeNames", sequential(http, filter, serial, names, scheduler));
      report("one at a time: reserved services, NodeNames", sequential(http, filter, serial, names, scheduler));

      List<Pod> fresh = services("svc", 2);
      report("new services (each plans and reserves), NodeNames", round(http, filter, fresh, names, null, scheduler));
      List<Pod> again = fresh.stream().map(p -> rampaPod(p.getMetadata().getLabels().get(PodContract.SERVICE), 0, 0,
          p.getMetadata().getAnnotations(), "nvidia.com/gpu")).toList();
      report("reserved services, NodeNames", round(http, filter, again, names, null, scheduler));
      report("reserved services, full Nodes (1000 v1.Node per request)", round(http, filter, again, names, nodeList, scheduler));
      checkNoDoubleBooking(scheduler);
      System.out.println("counters: " + scheduler.counters());
      System.out.printf(Locale.ROOT, "load average at the end %.1f%n",
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    } finally {
      clientPool.shutdownNow();
    }
  }

  /** One pod (stage 0) of each of 200 services, a seeded mix of models and SLOs. */
  private static List<Pod> services(String prefix, long seed) {
    Random random = new Random(seed);
    String[] models = {"resnet50", "bert-large", "llama2-7b", "llama2-13b"};
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < CONCURRENT; i++) {
      String model = models[random.nextInt(models.length)];
      double throughput = model.startsWith("llama") ? 0.5 + random.nextInt(8) : 20 + random.nextInt(200);
      pods.add(rampaPod(prefix + "-" + i, 0, 0, service(model, throughput, 5000, 4), "nvidia.com/gpu"));
    }
    return pods;
  }

  /** Sends the pods' filter calls one after another; returns each call's latency in ms. */
  private static double[] sequential(HttpClient http, URI filter, List<Pod> pods, List<String> names, GangScheduler scheduler)
      throws Exception {
    double[] ms = new double[pods.size()];
    for (int i = 0; i < pods.size(); i++) {
      long start = System.nanoTime();
      round(http, filter, List.of(pods.get(i)), names, null, scheduler);
      ms[i] = (System.nanoTime() - start) / 1e6;
    }
    return ms;
  }

  /** Sends every pod's filter call at once; returns each call's latency in ms, checking each answer. */
  private static double[] round(HttpClient http, URI filter, List<Pod> pods, List<String> names, JsonNode nodeList,
      GangScheduler scheduler) throws Exception {
    List<String> bodies = new ArrayList<>();
    for (Pod pod : pods) {
      ObjectNode args = JSON.createObjectNode();
      args.set("Pod", tree(pod));
      if (nodeList == null) {
        args.putNull("Nodes");
        args.set("NodeNames", JSON.valueToTree(names));
      } else {
        args.set("Nodes", nodeList);
        args.putNull("NodeNames");
      }
      bodies.add(args.toString());
    }
    double[] ms = new double[pods.size()];
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    long[] sent = new long[pods.size()];
    for (int i = 0; i < pods.size(); i++) {
      int index = i;
      sent[i] = System.nanoTime();
      calls.add(http.sendAsync(HttpRequest.newBuilder(filter).POST(HttpRequest.BodyPublishers.ofString(bodies.get(i))).build(),
          HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> ms[index] = (System.nanoTime() - sent[index]) / 1e6));
    }
    for (int i = 0; i < pods.size(); i++) {
      HttpResponse<String> response = calls.get(i).get();
      if (response.statusCode() != 200) {
        throw new IllegalStateException("filter answered " + response.statusCode() + ": " + response.body());
      }
      JsonNode result = JSON.readTree(response.body());
      String service = "inference/" + pods.get(i).getMetadata().getLabels().get(PodContract.SERVICE);
      Reservation r = scheduler.reservations().get(service);
      JsonNode passed = nodeList == null ? result.get("NodeNames") : result.get("Nodes").get("items");
      if (r == null) {
        if (passed.size() != 0) {
          throw new IllegalStateException(service + " has no reservation but passed " + passed);
        }
        continue;
      }
      String planned = r.slot(0, 0).orElseThrow().node();
      String got = passed.size() == 1 ? (nodeList == null ? passed.get(0).asText() : passed.get(0).at("/metadata/name").asText()) : null;
      if (!planned.equals(got)) {
        throw new IllegalStateException(service + " is reserved on " + planned + " but filter passed " + passed);
      }
    }
    return ms;
  }

  private static void checkNoDoubleBooking(GangScheduler scheduler) {
    Map<String, String> owner = new HashMap<>();
    for (Reservation r : scheduler.reservations().values()) {
      for (Reservation.Slot s : r.slots().values()) {
        String before = owner.put(s.gpu(), r.service().id());
        if (before != null) {
          throw new IllegalStateException("GPU " + s.gpu() + " reserved by " + before + " and " + r.service().id());
        }
      }
    }
    ClusterState ledger = scheduler.ledger().orElseThrow();
    int held = 0;
    for (Gpu g : ledger.cluster().gpus()) {
      int holders = ledger.holdingsOn(g.id()).size();
      if (holders > 1) {
        throw new IllegalStateException("GPU " + g.id() + " has " + holders + " holdings in the ledger");
      }
      held += holders;
    }
    if (held != owner.size()) {
      throw new IllegalStateException("the ledger holds " + held + " GPUs, the reservations " + owner.size());
    }
    System.out.printf(Locale.ROOT, "no double-booking: %d services hold %d distinct GPUs, each held once in the ledger (version %d)%n",
        scheduler.reservations().size(), owner.size(), ledger.version());
  }

  private static void report(String what, double[] ms) {
    double[] s = ms.clone();
    Arrays.sort(s);
    System.out.printf(Locale.ROOT, "%-60s p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  (%d calls)%n",
        what, quantile(s, 0.50), quantile(s, 0.99), s[s.length - 1], s.length);
  }

  /** The nearest-rank quantile of sorted values. */
  private static double quantile(double[] sorted, double q) {
    return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
