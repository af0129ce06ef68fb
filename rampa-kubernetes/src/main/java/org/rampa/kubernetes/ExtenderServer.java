package org.rampa.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Stage;

/**
 * The scheduler-extender HTTP endpoint kube-scheduler calls ({@code k8s.io/kube-scheduler/extender/v1}):
 * {@code POST <urlPrefix>/filter} and {@code POST <urlPrefix>/prioritize} with ExtenderArgs
 * {@code {"Pod", "Nodes", "NodeNames"}} (capitalised: the Go types carry no JSON tags), answering
 * ExtenderFilterResult {@code {"Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes",
 * "Error"}} and HostPriorityList {@code [{"Host", "Score"}]}; plus {@code GET /healthz}, {@code GET
 * /state} (the ledger, reservations and counters as JSON) and {@code GET /metrics} (Prometheus text).
 * A request kube-scheduler could not have sent gets 400 naming the field; a pod RAMPA cannot place
 * is a normal answer whose FailedNodes say why.
 */
public final class ExtenderServer implements AutoCloseable {

  /** Larger than any NodeList kube-scheduler sends for 5000 nodes; a bound on what one request may make us buffer. */
  static final int MAX_BODY_BYTES = 256 << 20;

  private final GangScheduler scheduler;
  private final HttpServer http;
  private final ExecutorService executor;
  private final ObjectMapper json = new ObjectMapper();

  private ExtenderServer(GangScheduler scheduler, HttpServer http, ExecutorService executor) {
    this.scheduler = scheduler;
    this.http = http;
    this.executor = executor;
  }

  /** Starts serving on {@code address} (port 0: any free port) with {@code threads} request threads. */
  public static ExtenderServer start(GangScheduler scheduler, InetSocketAddress address, int threads) throws IOException {
    HttpServer http = HttpServer.create(address, 1024);
    ExecutorService executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "rampa-extender");
      t.setDaemon(true);
      return t;
    });
    ExtenderServer server = new ExtenderServer(scheduler, http, executor);
    http.createContext("/", server::handle);
    http.setExecutor(executor);
    http.start();
    return server;
  }

  public int port() {
    return http.getAddress().getPort();
  }

  @Override
  public void close() {
    http.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String verb = path.substring(path.lastIndexOf('/') + 1);
      String method = exchange.getRequestMethod();
      try {
        switch (verb) {
          case "filter", "prioritize" -> {
            if (!method.equals("POST")) {
              send(exchange, 405, "text/plain", verb + " takes POST, not " + method);
              return;
            }
            JsonNode args = readArgs(exchange);
            Object answer = verb.equals("filter") ? filter(args) : prioritize(args);
            send(exchange, 200, "application/json", json.writeValueAsString(answer));
          }
          case "healthz" -> send(exchange, 200, "text/plain", "ok");
          case "state" -> send(exchange, 200, "application/json", json.writerWithDefaultPrettyPrinter().writeValueAsString(state()));
          case "metrics" -> send(exchange, 200, "text/plain; version=0.0.4", metrics());
          default -> send(exchange, 404, "text/plain", "no such endpoint: " + path
              + "; this extender serves POST <urlPrefix>/filter, POST <urlPrefix>/prioritize, GET /healthz, /state, /metrics");
        }
      } catch (BadRequestException e) {
        scheduler.count("badRequests");
        send(exchange, 400, "text/plain", e.getMessage());
      } catch (RuntimeException e) {
        // a bug: say so rather than answer something kube-scheduler would act on
        scheduler.count("internalErrors");
        send(exchange, 500, "text/plain", "internal error: " + e);
      }
    }
  }

  private JsonNode readArgs(HttpExchange exchange) throws IOException {
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readNBytes(MAX_BODY_BYTES + 1);
    }
    if (body.length > MAX_BODY_BYTES) {
      throw new BadRequestException("body", "more than " + MAX_BODY_BYTES + " bytes", "too large for an ExtenderArgs");
    }
    JsonNode args;
    try {
      args = json.readTree(body);
    } catch (JsonProcessingException e) {
      throw new BadRequestException("body", "(not JSON)", "must be an ExtenderArgs JSON object: " + e.getOriginalMessage());
    }
    if (args == null || !args.isObject()) {
      throw new BadRequestException("body", args, "must be an ExtenderArgs JSON object {\"Pod\", \"Nodes\", \"NodeNames\"}");
    }
    if (!args.has("Pod") && args.has("pod")) {
      throw new BadRequestException("Pod", "(missing; \"pod\" given)", "ExtenderArgs keys are capitalised: Pod, Nodes, NodeNames");
    }
    return args;
  }

  /** The candidate node names, and the node objects by name when kube-scheduler sent them (nodeCacheCapable false). */
  private record Candidates(List<String> names, Map<String, JsonNode> objects, JsonNode nodeList) {}

  private Candidates candidates(JsonNode args) {
    JsonNode nodes = args.get("Nodes");
    JsonNode names = args.get("NodeNames");
    boolean hasNodes = nodes != null && !nodes.isNull();
    boolean hasNames = names != null && !names.isNull();
    if (hasNodes == hasNames) {
      throw new BadRequestException("Nodes, NodeNames", hasNodes ? "both set" : "both null",
          "exactly one must be set: NodeNames when the extender is nodeCacheCapable, else Nodes");
    }
    List<String> list = new ArrayList<>();
    Map<String, JsonNode> objects = new LinkedHashMap<>();
    if (hasNames) {
      if (!names.isArray()) {
        throw new BadRequestException("NodeNames", names, "must be an array of node names");
      }
      for (int i = 0; i < names.size(); i++) {
        list.add(KubeJson.requireText(names.get(i), "NodeNames[" + i + "]"));
      }
      return new Candidates(list, objects, null);
    }
    KubeJson.requireObject(nodes, "Nodes");
    JsonNode items = nodes.get("items");
    if (items == null || !items.isArray()) {
      throw new BadRequestException("Nodes.items", items == null ? "(missing)" : items, "must be an array of v1.Node");
    }
    List<NodeInfo> infos = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      NodeInfo info = KubeJson.node(items.get(i), "Nodes.items[" + i + "]");
      infos.add(info);
      list.add(info.name());
      objects.put(info.name(), items.get(i));
    }
    // the objects kube-scheduler sends are its own cache: as current as the watch, so they update the cluster
    infos.forEach(scheduler::upsertNode);
    return new Candidates(list, objects, nodes);
  }

  private PodInfo pod(JsonNode args) {
    return KubeJson.pod(args.get("Pod"), "Pod");
  }

  private ObjectNode filter(JsonNode args) {
    PodInfo pod = pod(args);
    Candidates c = candidates(args);
    GangScheduler.FilterDecision d = scheduler.filter(pod, c.names());
    ObjectNode out = json.createObjectNode();
    if (c.nodeList() != null) {
      // the NodeList as sent, items cut to those that pass (copying the 1000 items only to drop them was most of a request's time)
      ObjectNode list = json.createObjectNode();
      c.nodeList().fields().forEachRemaining(f -> {
        if (!f.getKey().equals("items")) {
          list.set(f.getKey(), f.getValue());
        }
      });
      ArrayNode items = list.putArray("items");
      d.passed().forEach(n -> items.add(c.objects().get(n)));
      out.set("Nodes", list);
      out.putNull("NodeNames");
    } else {
      out.putNull("Nodes");
      ArrayNode names = out.putArray("NodeNames");
      d.passed().forEach(names::add);
    }
    ObjectNode failed = out.putObject("FailedNodes");
    d.failed().forEach(failed::put);
    ObjectNode unresolvable = out.putObject("FailedAndUnresolvableNodes");
    d.unresolvable().forEach(unresolvable::put);
    out.put("Error", "");
    return out;
  }

  private ArrayNode prioritize(JsonNode args) {
    PodInfo pod = pod(args);
    Candidates c = candidates(args);
    ArrayNode out = json.createArrayNode();
    scheduler.prioritize(pod, c.names()).forEach((host, score) -> out.addObject().put("Host", host).put("Score", score));
    return out;
  }

  private ObjectNode state() {
    ObjectNode out = json.createObjectNode();
    out.put("time", scheduler.config().clock().instant().toString());
    scheduler.ledger().ifPresentOrElse(s -> ledger(out.putObject("ledger"), s), () -> out.putNull("ledger"));
    ObjectNode problems = out.putObject("nodeProblems");
    scheduler.nodeProblems().forEach(problems::put);
    ArrayNode reservations = out.putArray("reservations");
    scheduler.reservations().values().stream()
        .sorted(java.util.Comparator.comparing(Reservation::createdAt))
        .forEach(r -> reservation(reservations.addObject(), r));
    ArrayNode released = out.putArray("released");
    scheduler.released().forEach(r -> released.addObject().put("service", r.service()).put("why", r.why()).put("at", r.at().toString()));
    ObjectNode counters = out.putObject("counters");
    scheduler.counters().forEach(counters::put);
    return out;
  }

  private static void ledger(ObjectNode out, ClusterState s) {
    out.put("version", s.version());
    out.put("nodes", s.cluster().nodes().size());
    out.put("gpus", s.cluster().gpus().size());
    out.put("freeWholeGpus", s.capacity().count());
    out.put("freeMigInstances", s.capacity().freeMigInstances().values().stream().mapToInt(List::size).sum());
  }

  private void reservation(ObjectNode out, Reservation r) {
    out.put("service", r.service().id());
    out.put("strategy", r.plan().strategy());
    out.put("resource", r.service().resource());
    out.put("createdAt", r.createdAt().toString());
    r.unboundSince().ifPresentOrElse(t -> {
      out.put("unboundSince", t.toString());
      out.put("expiresAt", t.plus(scheduler.config().reservationTtl()).toString());
    }, () -> out.putNull("unboundSince"));
    out.put("cost", r.plan().cost());
    out.put("throughput", r.plan().throughput());
    out.put("latencyMs", r.plan().latency().toNanos() / 1e6);
    ArrayNode slots = out.putArray("slots");
    List<Stage> stages = r.plan().stages();
    r.slots().forEach((key, s) -> {
      ObjectNode o = slots.addObject();
      o.put("stage", s.stage()).put("replica", s.replica()).put("node", s.node()).put("gpu", s.gpu())
          .put("placement", s.placement().label())
          .put("layers", "[" + stages.get(s.stage()).from() + ", " + stages.get(s.stage()).to() + ")");
      String pod = r.boundPods().get(key);
      if (pod == null) {
        o.putNull("pod");
      } else {
        o.put("pod", pod);
      }
    });
  }

  private String metrics() {
    StringBuilder b = new StringBuilder();
    scheduler.counters().forEach((name, value) -> {
      String metric = "rampa_extender_" + name.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT) + "_total";
      b.append("# TYPE ").append(metric).append(" counter\n").append(metric).append(' ').append(value).append('\n');
    });
    b.append("# TYPE rampa_extender_reservations gauge\nrampa_extender_reservations ")
        .append(scheduler.reservations().size()).append('\n');
    return b.toString();
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type + (type.contains("charset") ? "" : "; charset=utf-8"));
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
