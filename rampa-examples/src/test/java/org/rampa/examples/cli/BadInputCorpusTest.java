package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.rampa.examples.cli.BadInputs.assertClean;
import static org.rampa.examples.cli.BadInputs.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad-input corpus of the command line: every case must exit 2 with one message that names
 * the offending field (or option, file, line, JSON path) and no stack trace, and must fail before
 * any real work (a time bound guards against inputs that would run or allocate without end).
 * Cases run in-process through {@link RampaCli#run}.
 */
class BadInputCorpusTest {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  @TempDir
  Path dir;

  private record Case(String name, String[] args, int code, String[] mentions) {}

  private final List<Case> cases = new ArrayList<>();

  private void bad(String name, String[] args, String... mentions) {
    cases.add(new Case(name, args, RampaCli.BAD_INPUT, mentions));
  }

  /** A plan {@code rampa verify} must find invalid: exit 3, the violations on stdout. */
  private void invalid(String name, String[] args, String... mentions) {
    cases.add(new Case(name, args, RampaCli.PLAN_INVALID, mentions));
  }

  private static String[] args(Object... parts) {
    return Stream.of(parts).map(String::valueOf).toArray(String[]::new);
  }

  @TestFactory
  Stream<DynamicTest> everyBadInputExitsTwoNamingTheProblem() throws Exception {
    planCases();
    splitCases();
    simulateCases();
    colocateCases();
    trainCases();
    vastpipeCases();
    colocateExperimentCases();
    vastpipeE4Cases();
    int earlier = cases.size();
    issue20Cases();
    assertThat(cases.size() - earlier).as("cases of issue 20 (new commands and inputs)").isGreaterThanOrEqualTo(150);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      BadInputs.Run r = assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> BadInputs.run(c.args()));
      assertClean(r, c.name());
      assertThat(r.code()).as(c.name() + ": " + r.err() + r.out()).isEqualTo(c.code());
      String answer = c.code() == RampaCli.PLAN_INVALID ? r.out() : r.err();
      for (String m : c.mentions()) {
        assertThat(answer).as(c.name()).contains(m);
      }
    }));
  }

  /** The one case that needs its own JVM: the natives load once per JVM, and this one must fail to. */
  @Test
  void anUnusableTemporaryDirectoryExitsTwoWithTheFix() throws Exception {
    Path problem = doc("exact", d -> d.put("strategy", "exact"));
    Path missing = dir.resolve("no-tmp");
    String javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(javaBinary, "-Djava.io.tmpdir=" + missing, "-cp", System.getProperty("java.class.path"),
        RampaCli.class.getName(), "plan", problem.toString())).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the CLI ends").isTrue();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(output).isEqualTo(2);
    assertThat(output).contains("rampa: the OR-Tools native libraries did not load")
        .contains("java.io.tmpdir = " + missing).contains("-Djava.io.tmpdir=").doesNotContain("\tat ");
  }

  /** A UTF-8 byte-order mark (Windows editors write one) is not part of the first header or key: accepted everywhere. */
  @Test
  void aByteOrderMarkIsAcceptedAndHarmlessOptionsOnlyWarn() throws Exception {
    Path workload = write(dir, "bom-workload.json", "\uFEFF" + BadInputs.WORKLOAD);
    Path trace = write(dir, "bom-trace.csv", "\uFEFF" + BadInputs.TRACE);
    BadInputs.Run replay = BadInputs.run("simulate", "--planners", "first-fit", "--workload", workload.toString(), "--trace", trace.toString(),
        "--out", dir.resolve("bom-out").toString());
    assertThat(replay.code()).as(replay.err()).isZero();
    Path problem = write(dir, "bom-problem.json", "\uFEFF" + BadInputs.problem());
    assertThat(BadInputs.run("plan", problem.toString()).code()).isZero();
    Path cluster = write(dir, "bom-cluster.csv", "\uFEFF" + BadInputs.CLUSTER_CSV);
    Path demand = write(dir, "bom-demand.csv", "\uFEFF" + BadInputs.DEMAND_CSV);
    Path file = write(dir, "bom-not-a-folder", "x");
    BadInputs.Run csv = BadInputs.run("colocate", "--cluster-file", cluster.toString(), "--demand", demand.toString(), "--out", file.toString());
    assertThat(csv.err()).as("both CSVs read; only --out stops the run").startsWith("rampa: --out = ");
    BadInputs.Run warned = BadInputs.run("simulate", "--planners", "first-fit", "--loads", "4", "--arrivals", "5", "--seeds", "1", "--no-bound",
        "--full", "--out", dir.resolve("warn-out").toString());
    assertThat(warned.code()).as(warned.err()).isZero();
    assertThat(warned.err()).contains("rampa: warning: --no-bound", "--full");
  }

  // ---- plan ----------------------------------------------------------------------------------

  private Path doc(String name, Consumer<ObjectNode> change) {
    ObjectNode d = BadInputs.problem();
    change.accept(d);
    return write(dir, name + ".json", d.toString());
  }

  private void planBad(String name, Consumer<ObjectNode> change, String... mentions) {
    bad("plan: " + name, args("plan", doc(name.replaceAll("[^a-zA-Z0-9]", "_"), change)), mentions);
  }

  private static ObjectNode at(ObjectNode d, String path) {
    JsonNode n = d;
    for (String p : path.split("\\.")) {
      n = p.matches("\\d+") ? n.get(Integer.parseInt(p)) : n.get(p);
    }
    return (ObjectNode) n;
  }

  private void planCases() {
    Path problemFile = doc("valid", d -> {});
    assertThat(BadInputs.run("plan", problemFile.toString()).code()).as("the valid problem plans").isZero();
    String valid = problemFile.toString();

    bad("plan: missing file", args("plan", dir.resolve("missing.json")), "missing.json", "does not exist");
    bad("plan: a directory", args("plan", dir), "is a directory");
    bad("plan: not UTF-8", args("plan", writeBytes("latin1.json", new byte[] {'{', (byte) 0xE9, '}'})), "latin1.json", "not UTF-8");
    bad("plan: empty file", args("plan", write(dir, "empty.json", "")), "empty.json", "$");
    bad("plan: truncated JSON", args("plan", write(dir, "truncated.json", "{\"cluster\": {")), "truncated.json");
    bad("plan: a JSON array", args("plan", write(dir, "array.json", "[1, 2]")), "ProblemDocument", "$");
    bad("plan: trailing tokens", args("plan", write(dir, "trailing.json", BadInputs.problem() + " {}")), "trailing");
    bad("plan: two arguments", args("plan", valid, valid), "Unmatched argument");
    bad("plan: no argument", args("plan"), "PROBLEM.json");
    bad("plan: unknown option", args("plan", "--fast", valid), "--fast");

    planBad("unknown top-level field", d -> d.put("strategyy", "exact"), "$.strategyy", "strategyy");
    planBad("unknown field in options", d -> at(d, "options").put("timelimit", "PT1S"), "$.options.timelimit");
    planBad("unknown field in request", d -> at(d, "request").put("slos", 1), "$.request.slos");
    planBad("strategy null", d -> d.putNull("strategy"), "$.strategy", "null");
    planBad("strategy a number", d -> d.put("strategy", 12), "$.strategy");
    planBad("strategy unknown", d -> d.put("strategy", "exactt"), "strategy = exactt");
    planBad("strategy empty", d -> d.put("strategy", ""), "strategy = ");
    planBad("options null", d -> d.putNull("options"), "$.options", "null");
    planBad("options an array", d -> d.set("options", JSON.arrayNode()), "$.options");
    planBad("timeLimit huge", d -> at(d, "options").put("timeLimit", "PT1000000000000000S"), "options.timeLimit", "at most PT24H");
    planBad("timeLimit two days", d -> at(d, "options").put("timeLimit", "P2D"), "options.timeLimit", "at most PT24H");
    planBad("timeLimit zero", d -> at(d, "options").put("timeLimit", "PT0S"), "options.timeLimit");
    planBad("timeLimit negative", d -> at(d, "options").put("timeLimit", "-PT1S"), "options.timeLimit");
    planBad("timeLimit text", d -> at(d, "options").put("timeLimit", "ten seconds"), "$.options.timeLimit");
    planBad("relativeGap 1.5", d -> at(d, "options").put("relativeGap", 1.5), "options.relativeGap = 1.5");
    planBad("relativeGap negative", d -> at(d, "options").put("relativeGap", -0.1), "options.relativeGap");
    planBad("relativeGap a string", d -> at(d, "options").put("relativeGap", "0.1"), "$.options.relativeGap");
    planBad("seed fractional", d -> at(d, "options").put("seed", 1.5), "$.options.seed");
    planBad("transfers unknown", d -> at(d, "options").put("transfers", "FAST"), "$.options.transfers", "FAST");
    planBad("extra null", d -> at(d, "options").putNull("extra"), "$.options.extra");
    planBad("allocations null", d -> d.putNull("allocations"), "$.allocations");
    planBad("allocations a list", d -> d.set("allocations", JSON.arrayNode()), "$.allocations");
    planBad("request missing", d -> d.remove("request"), "request");
    planBad("request null", d -> d.putNull("request"), "$.request");
    planBad("cluster missing", d -> d.remove("cluster"), "cluster");
    planBad("request id blank", d -> at(d, "request").put("id", " "), "id");
    planBad("maxStages zero", d -> at(d, "request").put("maxStages", 0), "maxStages", "0");
    planBad("maxStages fractional", d -> at(d, "request").put("maxStages", 2.5), "$.request.maxStages");
    planBad("batchSize zero", d -> at(d, "request.slo").put("batchSize", 0), "slo.batchSize = 0");
    planBad("batchSize a string", d -> at(d, "request.slo").put("batchSize", "4"), "$.request.slo.batchSize");
    planBad("throughput negative", d -> at(d, "request.slo").put("requiredThroughput", -1), "requiredThroughput");
    planBad("throughput infinite", d -> at(d, "request.slo").put("requiredThroughput", new java.math.BigDecimal("1e999")), "requiredThroughput");
    planBad("latency bound negative", d -> at(d, "request.slo").put("latencyBound", "-PT1S"), "latencyBound");
    planBad("latency bound a bare number", d -> at(d, "request.slo").put("latencyBound", 5), "$.request.slo.latencyBound", "ISO-8601");
    planBad("latency bound not ISO-8601", d -> at(d, "request.slo").put("latencyBound", "200ms"), "$.request.slo.latencyBound", "200ms");
    planBad("latency bound of centuries", d -> at(d, "request.slo").put("latencyBound", "PT3000000H"), "slo.latencyBound", "at most PT24H");
    planBad("network latency of centuries", d -> at(d, "cluster.network").put("latency", "PT3000000H"), "latency", "at most PT1H");
    planBad("node link latency of a day", d -> at(d, "cluster.nodes.0.intraLink").put("latency", "P1D"), "latency = PT24H");
    planBad("layer overhead of centuries", d -> at(d, "cluster.gpuTypes.0").put("layerOverhead", "PT3000000H"), "layerOverhead");
    planBad("slo missing", d -> at(d, "request").remove("slo"), "slo");
    planBad("model without layers", d -> at(d, "request.model").set("layers", JSON.arrayNode()), "layers");
    planBad("fractional byte count", d -> at(d, "request.model.layers.0").put("weightBytes", 1.5), "$.request.model.layers[0].weightBytes");
    planBad("byte count a string", d -> at(d, "request.model.layers.0").put("weightBytes", "12"), "$.request.model.layers[0].weightBytes");
    planBad("byte count negative", d -> at(d, "request.model.layers.1").put("weightBytes", -5), "weightBytes", "-5");
    planBad("byte count beyond long", d -> at(d, "request.model.layers.1").put("weightBytes", new java.math.BigInteger("99999999999999999999")), "$.request.model.layers[1].weightBytes");
    planBad("flops infinite", d -> at(d, "request.model.layers.1").put("flopsPerSample", new java.math.BigDecimal("1e999")), "flopsPerSample");
    planBad("flops null", d -> at(d, "request.model.layers.1").putNull("flopsPerSample"), "$.request.model.layers[1].flopsPerSample");
    planBad("layer input out of range", d -> ((ArrayNode) at(d, "request.model.layers.2").get("inputs")).add(99), "inputs");
    planBad("importance unknown GPU type", d -> at(d, "importanceByType").put("T44", 3.0), "importance.byType[T44]", "no GPU type T44");
    planBad("importance negative", d -> at(d, "importanceByType").put("T4", -1.0), "importance.byType[T4] = -1.0");
    planBad("importance huge", d -> at(d, "importanceByType").put("A10", 1e308), "importance.byType[A10] = 1.0E308");
    planBad("maxStages huge", d -> at(d, "request").put("maxStages", 2_000_000_000), "maxStages = 2000000000", "1024");
    for (String strategy : org.rampa.strategy.Strategies.available()) {
      planBad("request id held, strategy " + strategy, d -> {
        d.put("strategy", strategy);
        d.set("allocations", BadInputs.tree("{\"bert\": {\"serviceId\": \"bert\", \"holdings\": "
            + "[{\"gpu\": \"node000-gpu0\", \"memoryBytes\": 1000}]}}"));
      }, "request.id = bert", "already held");
    }
    planBad("importance null weight", d -> at(d, "importanceByType").putNull("T4"), "$.importanceByType");
    planBad("importance a string weight", d -> at(d, "importanceByType").put("T4", "high"), "$.importanceByType");
    planBad("cluster without GPUs", d -> at(d, "cluster").set("gpus", JSON.arrayNode()), "cluster.gpus");
    planBad("GPU of an unknown type", d -> at(d, "cluster.gpus.0").put("type", "T44"), "T44");
    planBad("GPU on an unknown node", d -> at(d, "cluster.gpus.0").put("node", "node999"), "node999");
    planBad("duplicate GPU id", d -> at(d, "cluster.gpus.1").put("id", at(d, "cluster.gpus.0").get("id").asText()), "cluster.gpus.id");
    planBad("GPU memory fractional", d -> at(d, "cluster.gpuTypes.0").put("memoryBytes", 1.6e10 + 0.5), "$.cluster.gpuTypes[0].memoryBytes");
    planBad("network bandwidth zero", d -> at(d, "cluster.network").put("bandwidthBytesPerSecond", 0), "bandwidth");
  }

  private Path writeBytes(String name, byte[] bytes) {
    try {
      return Files.write(dir.resolve(name), bytes);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  // ---- split ---------------------------------------------------------------------------------

  private void splitCases() {
    Path pd = write(dir, "ok.graph.txt", BadInputs.PIPEDREAM);
    Path tg = write(dir, "ok-graph.json", BadInputs.TARNAWSKI);
    assertThat(BadInputs.run("split", "--pipedream", pd.toString(), "--devices", "2").code()).as("the valid profile splits").isZero();
    assertThat(BadInputs.run("split", "--tarnawski", tg.toString(), "--devices", "2").code()).as("the valid graph splits").isZero();

    bad("split: no source", args("split", "--devices", 2), "--model");
    bad("split: two sources", args("split", "--model", "resnet50", "--pipedream", pd, "--devices", 2), "mutually exclusive");
    bad("split: no --devices", args("split", "--model", "resnet50"), "--devices");
    bad("split: --devices -1", args("split", "--model", "resnet50", "--devices", -1), "--devices = -1", "[1, 1024]");
    bad("split: --devices 0", args("split", "--model", "resnet50", "--devices", 0), "--devices = 0");
    bad("split: --devices huge", args("split", "--model", "resnet50", "--devices", 2_000_000_000), "--devices = 2000000000");
    bad("split: --devices beyond long", args("split", "--model", "resnet50", "--devices", "99999999999999999999"), "--devices");
    bad("split: --devices empty type", args("split", "--model", "resnet50", "--devices", "A10,,T4"), "--devices", "empty");
    bad("split: --devices unknown type", args("split", "--model", "resnet50", "--devices", "A10,T44"), "--devices = T44");
    bad("split: --devices too many types", args("split", "--model", "resnet50", "--devices", String.join(",", java.util.Collections.nCopies(1025, "T4"))),
        "--devices", "at most 1024");
    bad("split: --devices list for a profile", args("split", "--pipedream", pd, "--devices", "A10,T4"), "--devices", "device count");
    bad("split: --transfers unknown", args("split", "--model", "resnet50", "--devices", 2, "--transfers", "fast"), "--transfers = fast");
    bad("split: unknown catalog model", args("split", "--model", "resnet5", "--devices", 2), "resnet5");
    bad("split: missing model file", args("split", "--model", dir.resolve("m.json"), "--devices", 2), "m.json", "does not exist");
    bad("split: bad model file", args("split", "--model", write(dir, "model.json", "{\"name\": \"m\", \"layers\": [{}]}"), "--devices", 2),
        "model.json", "$.layers[0]");
    bad("split: --training without --pipedream", args("split", "--model", "bert-base", "--devices", 2, "--training"), "--training", "--pipedream");

    pipedream("missing file", null, "does not exist");
    pipedream("empty file", "", "no operators");
    pipedream("dash for a time", BadInputs.PIPEDREAM.replace("forward_compute_time=1.500", "forward_compute_time=-"),
        "line 2 forward_compute_time = -", "not a number");
    pipedream("negative time", BadInputs.PIPEDREAM.replace("backward_compute_time=2.000", "backward_compute_time=-2.0"),
        "line 2 backward_compute_time = -2.0");
    pipedream("time of centuries", BadInputs.PIPEDREAM.replace("forward_compute_time=1.500", "forward_compute_time=1e300"),
        "line 2 forward_compute_time = 1e300", "3600000 ms");
    pipedream("infinite size", BadInputs.PIPEDREAM.replace("parameter_size=23296.000", "parameter_size=1e999"), "line 2 parameter_size");
    pipedream("bad activation list", BadInputs.PIPEDREAM.replace("[1000.000; 2000.000]", "[1000.000; -]"), "line 2 activation_size = -");
    pipedream("metrics missing", BadInputs.PIPEDREAM.replace(", parameter_size=0.000\n", "\n"), "line 1", "parameter_size");
    pipedream("not a node line", "hello\n", "line 1", "node line");
    pipedream("bad edge line", BadInputs.PIPEDREAM + "\tnode1 node3\n", "line 6", "edge line");
    pipedream("edge to an unknown node", BadInputs.PIPEDREAM + "\tnode3 -- node9\n", "node9");
    pipedream("duplicate node", BadInputs.PIPEDREAM.replace("node3 -- ReLU", "node2 -- ReLU"), "unique");
    pipedream("cycle", BadInputs.PIPEDREAM + "\tnode3 -- node1\n", "cycle");
    bad("split: pipedream not UTF-8", args("split", "--pipedream", writeBytes("latin1.graph.txt", new byte[] {'n', (byte) 0xE9, '\n'}),
        "--devices", 2), "latin1.graph.txt", "not UTF-8");

    tarnawski("node without id", t -> ((ObjectNode) t.get("nodes").get(1)).remove("id"), "$.nodes[1].id", "required");
    tarnawski("node id a string", t -> ((ObjectNode) t.get("nodes").get(1)).put("id", "two"), "$.nodes[1].id", "integer");
    tarnawski("node id fractional", t -> ((ObjectNode) t.get("nodes").get(1)).put("id", 2.5), "$.nodes[1].id");
    tarnawski("latency a string", t -> ((ObjectNode) t.get("nodes").get(0)).put("fpgaLatency", "fast"), "$.nodes[0].fpgaLatency");
    tarnawski("latency negative", t -> ((ObjectNode) t.get("nodes").get(0)).put("fpgaLatency", -1.0), "$.nodes[0].fpgaLatency");
    tarnawski("size null", t -> ((ObjectNode) t.get("nodes").get(2)).putNull("size"), "$.nodes[2].size");
    tarnawski("edge without cost", t -> ((ObjectNode) t.get("edges").get(0)).remove("cost"), "$.edges[0].cost", "required");
    tarnawski("edge cost a string", t -> ((ObjectNode) t.get("edges").get(1)).put("cost", "0.2"), "$.edges[1].cost");
    tarnawski("edge to an unknown node", t -> ((ObjectNode) t.get("edges").get(1)).put("destId", 9), "$.edges[1]", "unknown node");
    tarnawski("edge without source", t -> ((ObjectNode) t.get("edges").get(1)).remove("sourceId"), "$.edges[1].sourceId");
    tarnawski("duplicate node ids", t -> ((ObjectNode) t.get("nodes").get(2)).put("id", 1), "$.nodes[*].id", "unique");
    tarnawski("nodes not a list", t -> t.put("nodes", 3), "$.nodes", "array");
    tarnawski("maxFPGAs missing", t -> t.remove("maxFPGAs"), "$.maxFPGAs");
    tarnawski("maxFPGAs zero", t -> t.put("maxFPGAs", 0), "$.maxFPGAs = 0");
    tarnawski("memory cap a string", t -> t.put("maxSizePerFPGA", "16GB"), "$.maxSizePerFPGA");
    bad("split: tarnawski not an object", args("split", "--tarnawski", write(dir, "list.json", "[]"), "--devices", 2), "$", "JSON object");
    bad("split: tarnawski not JSON", args("split", "--tarnawski", write(dir, "text.json", "nodes:"), "--devices", 2), "not valid JSON");
    bad("split: tarnawski a directory", args("split", "--tarnawski", dir, "--devices", 2), "is a directory");
  }

  private void pipedream(String name, String content, String... mentions) {
    Path file = content == null ? dir.resolve("absent.graph.txt") : write(dir, name.replace(' ', '_') + ".graph.txt", content);
    bad("split: pipedream " + name, args("split", "--pipedream", file, "--devices", 2), mentions);
  }

  private void tarnawski(String name, Consumer<ObjectNode> change, String... mentions) {
    ObjectNode t = (ObjectNode) BadInputs.tree(BadInputs.TARNAWSKI);
    change.accept(t);
    Path file = write(dir, name.replace(' ', '_') + "-graph.json", t.toString());
    List<String> m = new ArrayList<>(List.of(mentions));
    m.add(file.toString());
    bad("split: tarnawski " + name, args("split", "--tarnawski", file, "--devices", 2), m.toArray(String[]::new));
  }

  // ---- simulate ------------------------------------------------------------------------------

  /** A small, fast simulate command line; {@code options} are pairs that add to or replace its defaults. */
  private String[] simulate(Object... options) {
    java.util.Map<String, Object> a = new java.util.LinkedHashMap<>();
    a.put("--planners", "first-fit");
    a.put("--loads", "4");
    a.put("--arrivals", "5");
    a.put("--out", dir.resolve("out"));
    for (int i = 0; i < options.length; i += 2) {
      a.put((String) options[i], options[i + 1]);
    }
    if (a.containsKey("--trace")) { // a trace gives the arrivals and the load: the sweep's options do not apply
      a.remove("--loads");
      a.remove("--arrivals");
    }
    List<Object> line = new ArrayList<>(List.of("simulate"));
    a.forEach((k, v) -> {
      line.add(k);
      line.add(v);
    });
    return args(line.toArray());
  }

  // ---- train and evaluate-policy ------------------------------------------------------------

  private void trainCases() {
    Path out = dir.resolve("policy.json");
    Path file = write(dir, "a-file", "x");
    bad("train: --gpus 0", args("train", "--gpus", 0, "--out", out), "--gpus = 0", "[1, 4096]");
    bad("train: --gpus huge", args("train", "--gpus", 100_000, "--out", out), "--gpus = 100000");
    bad("train: --episodes 0", args("train", "--episodes", 0, "--out", out), "--episodes = 0");
    bad("train: --rollouts 1", args("train", "--rollouts", 1, "--out", out), "--rollouts = 1", "baseline");
    bad("train: --mixes-per-update 0", args("train", "--mixes-per-update", 0, "--out", out), "--mixes-per-update = 0");
    bad("train: --learning-rate 0", args("train", "--learning-rate", 0, "--out", out), "--learning-rate", "learningRate = 0.0");
    bad("train: --entropy NaN", args("train", "--entropy", "NaN", "--out", out), "--entropy", "entropyBonus = NaN");
    bad("train: --hidden 0", args("train", "--hidden", "0", "--out", out), "--hidden", "hidden[0] = 0");
    bad("train: --hidden too deep", args("train", "--hidden", "4,4,4,4,4", "--out", out), "--hidden = [4, 4, 4, 4, 4]");
    bad("train: --top-k 0", args("train", "--top-k", 0, "--out", out), "--top-k = 0");
    bad("train: --mix-family unknown", args("train", "--mix-family", "e3", "--out", out), "--mix-family = e3", "parvagpu, e2 or both");
    bad("train: --out in a missing folder", args("train", "--out", dir.resolve("missing/policy.json")), "--out", "does not exist");
    bad("train: --out under a file", args("train", "--out", file.resolve("policy.json")), "--out", "does not exist");
    bad("evaluate-policy: --gpus 0", args("evaluate-policy", "--gpus", 0, "--out", dir.resolve("e.csv")), "--gpus = 0");
    bad("evaluate-policy: --mixes 0", args("evaluate-policy", "--mixes", 0, "--out", dir.resolve("e.csv")), "--mixes = 0");
    bad("evaluate-policy: --time-limit negative", args("evaluate-policy", "--time-limit", "-PT1S", "--out", dir.resolve("e.csv")), "--time-limit");
    bad("evaluate-policy: --policy not JSON", args("evaluate-policy", "--policy", file, "--out", dir.resolve("e.csv")), "--policy", "a-file");
    bad("evaluate-policy: --policy missing", args("evaluate-policy", "--policy", dir.resolve("none.json"), "--out", dir.resolve("e.csv")),
        "none.json");
  }

  private void simulateCases() {
    Path workload = write(dir, "workload.json", BadInputs.WORKLOAD);
    Path trace = write(dir, "trace.csv", BadInputs.TRACE);
    BadInputs.Run ok = BadInputs.run(simulate("--workload", workload, "--trace", trace));
    assertThat(ok.code()).as("the valid workload and trace simulate: " + ok.err()).isZero();
    Path file = write(dir, "a-file", "x");

    bad("simulate: --arrivals -1", simulate("--arrivals", -1), "--arrivals = -1");
    bad("simulate: --arrivals 0", simulate("--arrivals", 0), "--arrivals = 0");
    bad("simulate: --arrivals huge", simulate("--arrivals", 2_000_000_000), "--arrivals = 2000000000", "1000000");
    bad("simulate: --arrivals text", simulate("--arrivals", "many"), "--arrivals", "many");
    bad("simulate: --loads negative", simulate("--loads", -1), "--loads = -1.0");
    bad("simulate: --loads zero", simulate("--loads", "8,0"), "--loads = 0.0");
    bad("simulate: --loads NaN", simulate("--loads", "NaN"), "--loads = NaN");
    bad("simulate: --loads infinite", simulate("--loads", "Infinity"), "--loads = Infinity");
    bad("simulate: --loads huge", simulate("--loads", "2e6"), "--loads = 2000000.0");
    bad("simulate: --loads too many", simulate("--loads", String.join(",", java.util.Collections.nCopies(101, "4"))), "--loads", "100");
    bad("simulate: --loads text", simulate("--loads", "8,x"), "--loads", "x");
    bad("simulate: --lifetime negative", simulate("--lifetime", -1), "--lifetime = -1.0");
    bad("simulate: --lifetime zero", simulate("--lifetime", 0), "--lifetime = 0.0");
    bad("simulate: --lifetime infinite", simulate("--lifetime", "Infinity"), "--lifetime = Infinity");
    bad("simulate: --lifetime NaN", simulate("--lifetime", "NaN"), "--lifetime = NaN");
    bad("simulate: --lifetime huge", simulate("--lifetime", "1e9"), "--lifetime = 1.0E9");
    bad("simulate: --time-limit huge", simulate("--time-limit", "PT1000000000000000S"), "--time-limit", "timeLimit", "at most PT24H");
    bad("simulate: --time-limit zero", simulate("--time-limit", "PT0S"), "--time-limit", "timeLimit = PT0S");
    bad("simulate: --time-limit negative", simulate("--time-limit", "-PT2S"), "timeLimit");
    bad("simulate: --time-limit text", simulate("--time-limit", "2s"), "--time-limit", "2s", "ISO-8601");
    bad("simulate: --seed text", simulate("--seed", "one"), "--seed");
    bad("simulate: unknown planner", simulate("--planners", "fastest"), "planner = fastest");
    bad("simulate: --planners trailing comma", simulate("--planners", "first-fit,"), "first-fit,");
    bad("simulate: --loads trailing comma", simulate("--loads", "8,16,"), "--loads", "16,");
    bad("simulate: unknown RAMPA strategy", simulate("--planners", "rampa-magic/uniform"), "strategy = magic");
    bad("simulate: unknown importance", simulate("--planners", "rampa-greedy/cheap"), "rampa-greedy/cheap");
    bad("simulate: unknown preset", simulate("--preset", "medium"), "preset = medium", "small, large");
    bad("simulate: missing preset file", simulate("--preset", dir.resolve("cluster.json")), "cluster.json", "does not exist");
    bad("simulate: preset a directory", simulate("--preset", dir), "is a directory");
    bad("simulate: preset not a cluster", simulate("--preset", workload), "$.classes");
    bad("simulate: --out empty", simulate("--out", ""), "--out", "empty");
    bad("simulate: --workload empty path", simulate("--workload", ""), "file", "empty");
    bad("plan: empty path", args("plan", ""), "file", "empty");
    Path blocked = dir.resolve("blocked");
    try {
      Files.createDirectories(blocked.resolve("admission.csv"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    bad("simulate: --out holds a folder named like an output", simulate("--out", blocked), "--out", "admission.csv", "cannot be overwritten");
    bad("simulate: --out a file", simulate("--out", file), "--out", "a-file", "not a folder");
    bad("simulate: --out under a file", simulate("--out", file.resolve("sub")), "--out", "Not a directory");
    if (Files.isDirectory(Path.of("/proc/self"))) { // Linux: procfs refuses new files, even to root
      bad("simulate: --out under an uncreatable folder", simulate("--out", "/proc/rampa/out"), "--out = /proc/rampa/out", "cannot be created");
      bad("simulate: --out an unwritable folder", simulate("--out", "/proc"), "--out = /proc", "not writable");
    }
    if (Files.exists(Path.of("/dev/zero"))) {
      bad("simulate: never-ending workload", simulate("--workload", "/dev/zero"), "/dev/zero", "larger than 64 MiB");
    }

    workload("empty document", "{}", "classes");
    workload("no classes", "{\"classes\": []}", "workload.classes", "at least one class");
    workload("classes null", "{\"classes\": null}", "$.classes");
    workload("a null class", "{\"classes\": [null]}", "classes[0]");
    workload("unknown field", BadInputs.WORKLOAD.replace("\"tokens\": 0,", "\"tokens\": 0, \"token\": 1,"), "$.classes[0].token");
    workload("missing batch", BadInputs.WORKLOAD.replace("\"batch\": 8, ", ""), "$.classes[0]", "batch");
    workload("batch zero", BadInputs.WORKLOAD.replace("\"batch\": 8", "\"batch\": 0"), "$.classes[0]", "batch = 0");
    workload("batch huge", BadInputs.WORKLOAD.replace("\"batch\": 8", "\"batch\": 100000"), "batch = 100000");
    workload("batch fractional", BadInputs.WORKLOAD.replace("\"batch\": 8", "\"batch\": 8.5"), "$.classes[0].batch");
    workload("weight zero", BadInputs.WORKLOAD.replace("\"weight\": 2", "\"weight\": 0"), "$.classes[1]", "weight = 0.0");
    workload("weight a string", BadInputs.WORKLOAD.replace("\"weight\": 2", "\"weight\": \"2\""), "$.classes[1].weight");
    workload("phase unknown", BadInputs.WORKLOAD.replace("\"phase\": \"prefill\"", "\"phase\": \"train\""), "phase = train");
    workload("slo unknown", BadInputs.WORKLOAD.replace("\"LOOSE\"", "\"LAX\""), "$.classes[0].slo", "LAX");
    workload("slo null", BadInputs.WORKLOAD.replace("\"LOOSE\"", "null"), "$.classes[0].slo");
    workload("model unknown", BadInputs.WORKLOAD.replace("\"bert-base\"", "\"bert-bass\""), "bert-bass");
    workload("tokens huge", BadInputs.WORKLOAD.replace("\"tokens\": 128", "\"tokens\": 100000"), "tokens 100000", "sequenceLength = 100000");
    workload("tokens zero for prefill", BadInputs.WORKLOAD.replace("\"tokens\": 128", "\"tokens\": 0"), "bert-base.tokens = 0");
    workload("tokens for a whole model", BadInputs.WORKLOAD.replace("\"tokens\": 0", "\"tokens\": 64"), "resnet50.tokens = 64", "phase model");
    workload("decode of an encoder", BadInputs.WORKLOAD.replace("\"phase\": \"prefill\"", "\"phase\": \"decode\""), "bert-base", "no decode phase");
    workload("maxStages zero", BadInputs.WORKLOAD.replace("\"maxStages\": 2}\n", "\"maxStages\": 0}\n"), "maxStages = 0");
    workload("not JSON", "classes: []", "$");

    trace("wrong header", "time,class,lifetime\n1,0,10\n", "header");
    trace("empty file", "", "header", "empty");
    trace("two fields", "arrival_s,class,lifetime_s\n1.0,0\n", "line 2", "3 fields");
    trace("NaN arrival", "arrival_s,class,lifetime_s\n NaN,0,10\n", "line 2 arrival_s = NaN");
    trace("infinite lifetime", "arrival_s,class,lifetime_s\n1.0,0,Infinity\n", "line 2 lifetime_s = Infinity");
    trace("negative lifetime", "arrival_s,class,lifetime_s\n1.0,0,-5\n", "line 2 lifetime_s = -5.0");
    trace("huge lifetime", "arrival_s,class,lifetime_s\n1.0,0,1e300\n", "line 2 lifetime_s");
    trace("text time", "arrival_s,class,lifetime_s\n1.0,0,10\nsoon,0,10\n", "line 3 arrival_s = soon", "not a number");
    trace("class text", "arrival_s,class,lifetime_s\n1.0,zero,10\n", "line 2 class = zero");
    trace("class fractional", "arrival_s,class,lifetime_s\n1.0,0.5,10\n", "line 2 class = 0.5");
    trace("class out of range", "arrival_s,class,lifetime_s\n1.0,7,10\n", "line 2 class = 7");
    trace("out of order", "arrival_s,class,lifetime_s\n2.0,0,10\n1.0,0,10\n", "line 3 arrival_s = 1.0", "time order");
    trace("negative arrival", "arrival_s,class,lifetime_s\n-1.0,0,10\n", "line 2 arrival_s = -1.0");
    bad("simulate: trace missing", simulate("--workload", workload, "--trace", dir.resolve("none.csv")), "none.csv", "does not exist");
  }

  private void workload(String name, String content, String... mentions) {
    Path file = write(dir, "workload-" + name.replace(' ', '_') + ".json", content);
    bad("simulate: workload " + name, simulate("--workload", file), mentions);
  }

  private void trace(String name, String content, String... mentions) {
    Path workload = dir.resolve("workload.json");
    Path file = write(dir, "trace-" + name.replace(' ', '_') + ".csv", content);
    bad("simulate: trace " + name, simulate("--workload", workload, "--trace", file), mentions);
  }


  private void colocateCases() {
    bad("colocate: scenario 0", args("colocate", "--parvagpu-scenario", 0), "--parvagpu-scenario = 0", "[1, 6]");
    bad("colocate: scenario 7", args("colocate", "--parvagpu-scenario", 7), "--parvagpu-scenario = 7");
    bad("colocate: scenario not a number", args("colocate", "--parvagpu-scenario", "one"), "--parvagpu-scenario", "one");
    bad("colocate: unknown planner", args("colocate", "--parvagpu-scenario", 1, "--planner", "magic"), "--planner = magic", "exact");
    bad("colocate: unknown objective", args("colocate", "--parvagpu-scenario", 1, "--objective", "fast"), "--objective = fast", "min-gpus");
    bad("colocate: --gpus 0", args("colocate", "--parvagpu-scenario", 1, "--gpus", 0), "--gpus = 0");
    bad("colocate: --gpus huge", args("colocate", "--parvagpu-scenario", 1, "--gpus", 2_000_000), "--gpus = 2000000");
    bad("colocate: --time-limit-s 0", args("colocate", "--parvagpu-scenario", 1, "--time-limit-s", 0), "--time-limit-s = 0");
    bad("colocate: --time-limit-s NaN", args("colocate", "--parvagpu-scenario", 1, "--time-limit-s", "NaN"), "--time-limit-s = NaN");
    bad("colocate: --margin not a margin", args("colocate", "--parvagpu-scenario", 1, "--margin", "lots"), "--margin = lots", "default");
    bad("colocate: --margin negative", args("colocate", "--parvagpu-scenario", 1, "--margin", "-0.1"), "--margin = -0.1", "[0, 10.0]");
    bad("colocate: --margin not a margin in experiment mode", args("colocate", "--margin", "lots"), "--margin = lots", "default");
  }

  private void vastpipeCases() throws Exception {
    String out = dir.resolve("e1").toString();
    bad("vastpipe-e1: no --out", args("vastpipe-e1"), "--out");
    bad("vastpipe-e1: --slo-scenario 0", args("vastpipe-e1", "--out", out, "--slo-scenario", 0), "--slo-scenario = 0", "[1, 6]");
    bad("vastpipe-e1: --slo-scenario 7", args("vastpipe-e1", "--out", out, "--slo-scenario", 7), "--slo-scenario = 7");
    bad("vastpipe-e1: --mixes 0", args("vastpipe-e1", "--out", out, "--mixes", 0), "--mixes = 0", "[1, 220]");
    bad("vastpipe-e1: --mixes too many", args("vastpipe-e1", "--out", out, "--mixes", 221), "--mixes = 221");
    bad("vastpipe-e1: --exclusive-processes 0", args("vastpipe-e1", "--out", out, "--exclusive-processes", 0), "--exclusive-processes = 0", "[1, 3]");
    bad("vastpipe-e1: --exclusive-processes 4", args("vastpipe-e1", "--out", out, "--exclusive-processes", 4), "--exclusive-processes = 4");
    bad("vastpipe-e1: --time-limit-s 0", args("vastpipe-e1", "--out", out, "--time-limit-s", 0), "--time-limit-s = 0");
    bad("vastpipe-e1: --time-limit-s NaN", args("vastpipe-e1", "--out", out, "--time-limit-s", "NaN"), "--time-limit-s = NaN");
    Path file = Files.writeString(dir.resolve("e1-file"), "x");
    bad("vastpipe-e1: --out a file", args("vastpipe-e1", "--out", file), "--out", "e1-file", "not a folder");
    Path blocked = Files.createDirectories(dir.resolve("e1-blocked").resolve("e1.csv")).getParent();
    bad("vastpipe-e1: --out holds a folder named like an output", args("vastpipe-e1", "--out", blocked), "--out", "e1.csv", "cannot be overwritten");
    bad("vastpipe-e1: --source unknown", args("vastpipe-e1", "--out", out, "--source", "mi300"), "--source = mi300", "parvagpu", "muxserve", "modelled");
    bad("vastpipe-e1: --slo-scale below 1", args("vastpipe-e1", "--out", out, "--slo-scale", 0.5), "--slo-scale = 0.5", "[1, 1000]");
    bad("vastpipe-e1: --slo-scale NaN", args("vastpipe-e1", "--out", out, "--slo-scale", "NaN"), "--slo-scale = NaN");
    bad("vastpipe-e1: --max-segments 2", args("vastpipe-e1", "--out", out, "--max-segments", 2), "--max-segments = 2", "[3, 6]");
    bad("vastpipe-e1: --max-segments 7", args("vastpipe-e1", "--out", out, "--max-segments", 7), "--max-segments = 7");
    bad("vastpipe-e1: --mixes beyond muxserve's 10", args("vastpipe-e1", "--out", out, "--source", "muxserve", "--mixes", 11), "--mixes = 11", "[1, 10]");
    vastpipeE3Cases();
  }

  private void vastpipeE3Cases() throws Exception {
    String out = dir.resolve("e3").toString();
    bad("vastpipe-e3: no --out", args("vastpipe-e3"), "--out");
    bad("vastpipe-e3: --seeds 0", args("vastpipe-e3", "--out", out, "--seeds", 0), "--seeds = 0", "[1, 1000]");
    bad("vastpipe-e3: --seeds too many", args("vastpipe-e3", "--out", out, "--seeds", 1001), "--seeds = 1001");
    bad("vastpipe-e3: --first-seed negative", args("vastpipe-e3", "--out", out, "--first-seed", -1), "--first-seed = -1");
    bad("vastpipe-e3: --draws 0", args("vastpipe-e3", "--out", out, "--draws", 0), "--draws = 0", "[1, 1000]");
    bad("vastpipe-e3: --margins negative", args("vastpipe-e3", "--out", out, "--margins", "0,-5"), "--margins = -5.0", "[0, 100)");
    bad("vastpipe-e3: --margins 100", args("vastpipe-e3", "--out", out, "--margins", 100), "--margins = 100.0");
    bad("vastpipe-e3: --margins NaN", args("vastpipe-e3", "--out", out, "--margins", "NaN"), "--margins = NaN");
    bad("vastpipe-e3: --margins not a number", args("vastpipe-e3", "--out", out, "--margins", "ten"), "--margins", "ten");
    bad("vastpipe-e3: unknown family", args("vastpipe-e3", "--out", out, "--family", "llama"), "--family = llama", "analytic or parvagpu");
    bad("vastpipe-e3: unknown objective", args("vastpipe-e3", "--out", out, "--objective", "max-weighted-throughput"),
        "--objective = max-weighted-throughput", "min-gpus or max-scale");
    bad("vastpipe-e3: --gpus 0", args("vastpipe-e3", "--out", out, "--gpus", 0), "--gpus = 0", "[1, 100000]");
    bad("vastpipe-e3: unknown margin kind", args("vastpipe-e3", "--out", out, "--margin-kind", "rates"), "--margin-kind = rates", "times, slo or tiers");
    bad("vastpipe-e3: tiers margin over 10x", args("vastpipe-e3", "--out", out, "--margin-kind", "tiers", "--margins", "0,1100"), "--margins = 1100.0",
        "[0, 1000]");
    bad("vastpipe-e3: unknown planner", args("vastpipe-e3", "--out", out, "--planners", "heuristic,magic"), "--planners = magic", "exact");
    bad("vastpipe-e3: --time-limit-s 0", args("vastpipe-e3", "--out", out, "--time-limit-s", 0), "--time-limit-s = 0");
    bad("vastpipe-e3: --threads 0", args("vastpipe-e3", "--out", out, "--threads", 0), "--threads = 0", "[1, 256]");
    Path file = Files.writeString(dir.resolve("e3-file"), "x");
    bad("vastpipe-e3: --out a file", args("vastpipe-e3", "--out", file), "--out", "e3-file", "not a folder");
    Path blocked = Files.createDirectories(dir.resolve("e3-blocked").resolve("e3-replays.csv")).getParent();
    bad("vastpipe-e3: --out holds a folder named like an output", args("vastpipe-e3", "--out", blocked), "--out", "e3-replays.csv",
        "cannot be overwritten");
  }

  private void colocateExperimentCases() throws Exception {
    String out = dir.resolve("e2").toString();
    bad("colocate: unknown cluster preset", args("colocate", "--cluster", "mars", "--out", out), "--cluster = mars", "a100");
    bad("colocate: --batch-caps 0", args("colocate", "--batch-caps", 0, "--out", out), "--batch-caps = 0", "[1, 128]");
    bad("colocate: --batch-caps 256", args("colocate", "--batch-caps", 256, "--out", out), "--batch-caps = 256");
    bad("colocate: --small-batch-shares 1.5", args("colocate", "--small-batch-shares", 1.5, "--out", out), "--small-batch-shares = 1.5", "[0, 1]");
    bad("colocate: --services 0", args("colocate", "--services", 0, "--out", out), "--services = 0", "MIN-MAX");
    bad("colocate: --services reversed", args("colocate", "--services", "400-100", "--out", out), "--services = 400-100");
    bad("colocate: --services words", args("colocate", "--services", "many", "--out", out), "--services = many");
    bad("colocate: --seeds 0", args("colocate", "--seeds", 0, "--out", out), "--seeds = 0", "[1, 100]");
    bad("colocate: --seeds 101", args("colocate", "--seeds", 101, "--out", out), "--seeds = 101");
    bad("colocate: unknown planner in --planners", args("colocate", "--planners", "heuristic,magic", "--out", out), "--planners = magic", "exact");
    bad("colocate: --threads 0", args("colocate", "--threads", 0, "--out", out), "--threads = 0");
    bad("colocate: experiment --time-limit-s 0", args("colocate", "--time-limit-s", 0, "--out", out), "--time-limit-s = 0");
    bad("colocate: --cluster-file missing", args("colocate", "--cluster-file", dir.resolve("none.csv"), "--out", out), "none.csv", "does not exist");
    Path noHeader = write(dir, "cluster-no-header.csv", "A100-SXM4-80GB,4\n");
    bad("colocate: cluster file without header", args("colocate", "--cluster-file", noHeader, "--out", out), "cluster-no-header.csv", "gpu_type,count");
    Path badType = write(dir, "cluster-bad-type.csv", "gpu_type,count\nA9000,4\n");
    bad("colocate: cluster file unknown type", args("colocate", "--cluster-file", badType, "--out", out), "line 2", "gpu_type = A9000");
    Path badCount = write(dir, "cluster-bad-count.csv", "gpu_type,count\nL4,-3\n");
    bad("colocate: cluster file negative count", args("colocate", "--cluster-file", badCount, "--out", out), "line 2", "count = -3");
    Path badModel = write(dir, "demand-bad-model.csv", "model,rate,slo_ms,max_batch\nresnet50,10,50,8\nalexnet,10,50,8\n");
    bad("colocate: demand file unknown model", args("colocate", "--cluster", "hetero", "--demand", badModel, "--out", out), "demand[1].model = alexnet",
        "resnet50");
    Path badRate = write(dir, "demand-bad-rate.csv", "model,rate,slo_ms,max_batch\nresnet50,0,50,8\n");
    bad("colocate: demand file zero rate", args("colocate", "--cluster", "hetero", "--demand", badRate, "--out", out), "line 2", "rate = 0");
    Path badBatch = write(dir, "demand-bad-batch.csv", "model,rate,slo_ms,max_batch\nresnet50,10,50,300\n");
    bad("colocate: demand file batch too large", args("colocate", "--cluster", "hetero", "--demand", badBatch, "--out", out), "max_batch = 300");
    Path shortRow = write(dir, "demand-short.csv", "model,rate,slo_ms,max_batch\nresnet50,10\n");
    bad("colocate: demand file short row", args("colocate", "--cluster", "hetero", "--demand", shortRow, "--out", out), "line 2", "4 comma-separated");
    Path notRaw = write(dir, "not-e2.csv", "a,b\n1,2\n");
    bad("colocate: --from-csv not an e2.csv", args("colocate", "--from-csv", notRaw, "--out", out), "not-e2.csv", "header");
    Path file = Files.writeString(dir.resolve("e2-file"), "x");
    bad("colocate: experiment --out a file", args("colocate", "--cluster", "hetero", "--out", file), "--out", "e2-file", "not a folder");
  }

  private void vastpipeE4Cases() throws Exception {
    String out = dir.resolve("e4").toString();
    bad("vastpipe-e4: --seeds 0", args("vastpipe-e4", "--out", out, "--seeds", 0), "--seeds = 0", "[1, 1000]");
    bad("vastpipe-e4: --arrivals 0", args("vastpipe-e4", "--out", out, "--arrivals", 0), "--arrivals = 0");
    bad("vastpipe-e4: --loads 0", args("vastpipe-e4", "--out", out, "--loads", "16,0"), "--loads = 0", "(0, ");
    bad("vastpipe-e4: --loads NaN", args("vastpipe-e4", "--out", out, "--loads", "NaN"), "--loads = NaN");
    bad("vastpipe-e4: --lifetime 0", args("vastpipe-e4", "--out", out, "--lifetime", 0), "--lifetime = 0");
    bad("vastpipe-e4: --threads 0", args("vastpipe-e4", "--out", out, "--threads", 0), "--threads = 0");
    bad("vastpipe-e4: unknown workload", args("vastpipe-e4", "--out", out, "--workloads", "standard,heavy"), "--workloads = heavy",
        "standard, light");
    bad("vastpipe-e4: unknown planner", args("vastpipe-e4", "--out", out, "--planners", "rampa-greedy/magic"), "--planners",
        "rampa-greedy/magic");
    bad("vastpipe-e4: --time-limit PT0S", args("vastpipe-e4", "--out", out, "--time-limit", "PT0S"), "--time-limit");
    bad("vastpipe-e4: --margin lots", args("vastpipe-e4", "--out", out, "--margin", "lots"), "--margin = lots", "none, default");
    bad("vastpipe-e4: --margin -0.1", args("vastpipe-e4", "--out", out, "--margin", "-0.1"), "--margin = -0.1", "[0, 10");
    bad("vastpipe-e4: --defrag-trigger sometimes", args("vastpipe-e4", "--out", out, "--with-moves", "--defrag-budget", 2, "--defrag-trigger",
        "sometimes"), "--defrag-trigger = sometimes", "departure, refusal or hybrid");
    bad("vastpipe-e4: --defrag-room free", args("vastpipe-e4", "--out", out, "--with-moves", "--defrag-budget", 2, "--defrag-room", "free"),
        "--defrag-room = free", "alone or guarded");
    bad("vastpipe-e4: --defrag-forecast all", args("vastpipe-e4", "--out", out, "--with-moves", "--defrag-budget", 2, "--defrag-forecast",
        "all"), "--defrag-forecast = all", "pieces or pipelines");
    bad("vastpipe-e4: a defragmentation policy without a budget", args("vastpipe-e4", "--out", out, "--with-moves", "--defrag-room", "guarded"),
        "--defrag-budget = 0", "--defrag-room", "add --defrag-budget 2");
    bad("simulate: --margin lots", args("simulate", "--out", out, "--margin", "lots"), "--margin = lots", "none, default");
    bad("vastpipe-e4: --mig-layouts on a type without MIG", args("vastpipe-e4", "--out", out, "--mig-layouts", "T4=1g.10gb@0"),
        "--mig-layouts = T4=1g.10gb@0", "has no MIG geometry", "Maybe");
    bad("vastpipe-e4: --mig-layouts illegal start", args("vastpipe-e4", "--out", out, "--mig-layouts", "A100-SXM4-80GB=3g.40gb@1"),
        "--mig-layouts", "3g.40gb@1", "MIG_START");
    bad("vastpipe-e4: unknown preset", args("vastpipe-e4", "--out", out, "--preset", "huge"), "preset = huge");
    Path file = Files.writeString(dir.resolve("e4-file"), "x");
    bad("vastpipe-e4: --out a file", args("vastpipe-e4", "--out", file), "--out", "e4-file", "not a folder");
    bad("vastpipe-e4: a baseline with +sharing", args("vastpipe-e4", "--out", out, "--planners", "performance-first+sharing"),
        "performance-first+sharing", "whole GPUs only");
    bad("simulate: a strategy that cannot share with +sharing", args("simulate", "--out", out, "--planners", "first-fit+sharing"),
        "first-fit+sharing", "cannot share GPUs");
  }

  // ---- issue 20: output paths, modes, duplicates, limits, predict, JSON keys, policies, verify --

  private void issue20Cases() throws Exception {
    outputPathCases();
    modeCases();
    duplicateValueCases();
    limitCases();
    predictCases();
    duplicateKeyCases();
    policyCases();
    verifyCases();
  }

  private static final String E2_HEADER = "cluster,regime,small_share,batch_cap,seed,services,planner,status,scale,gain_over_exclusive,bound,"
      + "gap_to_bound,seconds,hit_time_limit,gpus_used,gpus_needed,needed_seconds,unusable_slices,idle_compute,reconfigured_gpus,layouts\n";

  /** Every command checks its output path before any work, the same way (OutputPaths). */
  private void outputPathCases() throws Exception {
    Path file = write(dir, "out-is-a-file", "x");
    Path e2 = write(dir, "header-only-e2.csv", E2_HEADER);
    boolean procfs = Files.isDirectory(Path.of("/proc/self"));
    record Folder(String command, String output, java.util.function.Function<Object, String[]> line) {}
    List<Folder> folders = List.of(
        new Folder("vastpipe-e1", "e1.csv", o -> args("vastpipe-e1", "--mixes", 1, "--out", o)),
        new Folder("vastpipe-e3", "e3-plans.csv", o -> args("vastpipe-e3", "--seeds", 1, "--out", o)),
        new Folder("vastpipe-e4", "e4.csv", o -> args("vastpipe-e4", "--seeds", 1, "--out", o)),
        new Folder("colocate", "e2.csv", o -> args("colocate", "--cluster", "hetero", "--seeds", 1, "--out", o)),
        new Folder("colocate --from-csv", "e2-summary.csv", o -> args("colocate", "--from-csv", e2, "--out", o)));
    for (Folder f : folders) {
      bad(f.command() + ": --out empty", f.line().apply(""), "--out", "empty");
      if (procfs) {
        bad(f.command() + ": --out uncreatable", f.line().apply("/proc/rampa/out"), "--out = /proc/rampa/out", "cannot be created");
      }
      Path blocked = Files.createDirectories(dir.resolve("blocked-" + f.command().replaceAll("[^a-z0-9]", "")).resolve(f.output())).getParent();
      bad(f.command() + ": --out holds a folder named " + f.output(), f.line().apply(blocked), "--out", f.output(), "cannot be overwritten");
    }
    bad("colocate --from-csv: --out a file", args("colocate", "--from-csv", e2, "--out", file), "--out", "not a folder");

    Path curveDir = Files.createDirectories(dir.resolve("curve-blocked.json").resolveSibling("curve-blocked-curve.csv"));
    for (String command : List.of("train", "evaluate-policy")) {
      bad(command + ": --out /", args(command, "--out", "/"), "--out = /", "names a folder");
      bad(command + ": --out an existing folder", args(command, "--out", dir), "--out = " + dir, "names a folder");
      bad(command + ": --out empty", args(command, "--out", ""), "--out", "empty");
      if (procfs) {
        bad(command + ": --out in procfs", args(command, "--out", "/proc/rampa.json"), "--out = /proc/rampa.json", "not writable");
      }
    }
    bad("train: --out's curve CSV is a folder", args("train", "--out", dir.resolve("curve-blocked.json")), "--out", curveDir.toString(),
        "cannot be overwritten");
    bad("evaluate-policy: --out in a missing folder", args("evaluate-policy", "--out", dir.resolve("nowhere/e.csv")), "--out", "does not exist");
    bad("evaluate-policy: --out under a file", args("evaluate-policy", "--out", file.resolve("e.csv")), "--out", "does not exist");
  }

  /** An option the chosen mode does not use is an error naming it. */
  private void modeCases() throws Exception {
    Path cluster = write(dir, "mode-cluster.csv", "gpu_type,count\nL4,4\n");
    Path demand = write(dir, "mode-demand.csv", "model,rate,slo_ms,max_batch\nresnet50,10,50,8\n");
    Path e2 = write(dir, "mode-e2.csv", E2_HEADER);
    Object[][] experimentOnly = {{"--cluster", "npu"}, {"--cluster-file", cluster}, {"--demand", demand}, {"--from-csv", e2},
        {"--batch-caps", 8}, {"--small-batch-shares", 0.5}, {"--services", "100-150"}, {"--planners", "heuristic"}, {"--seeds", 0},
        {"--seed", 3}, {"--threads", 2}, {"--out", "/proc/x"}};
    for (Object[] o : experimentOnly) {
      bad("colocate: scenario mode refuses " + o[0], args("colocate", "--parvagpu-scenario", 1, o[0], o[1]), o[0] + " = ", "does not apply",
          "--parvagpu-scenario");
    }
    bad("colocate: scenario mode refuses --gpus-needed", args("colocate", "--parvagpu-scenario", 1, "--gpus-needed"), "--gpus-needed",
        "does not apply");
    String out = dir.resolve("mode-out").toString();
    bad("colocate: experiment mode refuses --planner", args("colocate", "--planner", "best-fit", "--out", out), "--planner = best-fit",
        "does not apply", "--planners");
    bad("colocate: experiment mode refuses --objective", args("colocate", "--objective", "max-profit", "--out", out), "--objective = max-profit",
        "does not apply");
    bad("colocate: experiment mode refuses --gpus", args("colocate", "--gpus", 0, "--out", out), "--gpus = 0", "does not apply");
    Object[][] planning = {{"--seeds", 3}, {"--planners", "heuristic"}, {"--cluster", "hetero"}, {"--time-limit-s", 5}, {"--batch-caps", 8},
        {"--demand", demand}};
    for (Object[] o : planning) {
      bad("colocate: --from-csv refuses " + o[0], args("colocate", "--from-csv", e2, o[0], o[1], "--out", out), o[0] + " = ", "--from-csv");
    }
    Object[][] generation = {{"--seeds", 3}, {"--services", "10-20"}, {"--batch-caps", 8}, {"--small-batch-shares", 0.5}, {"--seed", 7}};
    for (Object[] o : generation) {
      bad("colocate: --demand refuses " + o[0], args("colocate", "--cluster", "hetero", "--demand", demand, o[0], o[1], "--out", out),
          o[0] + " = ", "--demand");
    }
    bad("colocate: --cluster-file with --cluster", args("colocate", "--cluster-file", cluster, "--cluster", "a100", "--out", out),
        "--cluster = a100", "--cluster-file");
    Path workload = write(dir, "mode-workload.json", BadInputs.WORKLOAD);
    Path trace = write(dir, "mode-trace.csv", BadInputs.TRACE);
    Object[][] sweep = {{"--loads", "4,8"}, {"--arrivals", 10}, {"--seeds", 3}, {"--lifetime", 60}};
    for (Object[] o : sweep) {
      bad("simulate: --trace refuses " + o[0], args("simulate", "--planners", "first-fit", "--workload", workload, "--trace", trace, o[0], o[1],
          "--out", dir.resolve("out")), o[0] + " = ", "--trace");
    }
    String e1 = dir.resolve("mode-e1").toString();
    Object[][] sources = {{"parvagpu", "--slo-scale", 5}, {"parvagpu", "--max-segments", 4}, {"muxserve", "--slo-scenario", 2},
        {"muxserve", "--exclusive-processes", 2}, {"muxserve", "--time-limit-s", 5}, {"modelled", "--slo-scenario", 3}};
    for (Object[] o : sources) {
      bad("vastpipe-e1: --source " + o[0] + " refuses " + o[1], args("vastpipe-e1", "--out", e1, "--source", o[0], o[1], o[2]), o[1] + " = ",
          "--source " + o[0]);
    }
  }

  /** A list option names each value once: a repeat would count as a second seed or series. */
  private void duplicateValueCases() throws Exception {
    Path e2 = write(dir, "dup-e2.csv", E2_HEADER);
    String out = dir.resolve("dup-out").toString();
    bad("simulate: --planners twice", simulate("--planners", "first-fit,first-fit"), "--planners = first-fit", "twice");
    bad("simulate: --loads twice", simulate("--loads", "4,8,4"), "--loads = 4.0", "twice");
    bad("vastpipe-e4: --planners twice", args("vastpipe-e4", "--out", out, "--planners", "performance-first,performance-first"),
        "--planners = performance-first", "twice");
    bad("vastpipe-e4: --workloads twice", args("vastpipe-e4", "--out", out, "--workloads", "light,light"), "--workloads = light", "twice");
    bad("vastpipe-e4: --loads twice", args("vastpipe-e4", "--out", out, "--loads", "16,16"), "--loads = 16.0", "twice");
    bad("colocate: --planners twice", args("colocate", "--planners", "heuristic,heuristic", "--out", out), "--planners = heuristic", "twice");
    bad("colocate: --cluster twice", args("colocate", "--cluster", "a100,a100", "--out", out), "--cluster = a100", "twice");
    bad("colocate: --batch-caps twice", args("colocate", "--batch-caps", "8,8", "--out", out), "--batch-caps = 8", "twice");
    bad("colocate: --small-batch-shares twice", args("colocate", "--small-batch-shares", "0.5,0.5", "--out", out), "--small-batch-shares = 0.5",
        "twice");
    bad("colocate: --from-csv twice", args("colocate", "--from-csv", e2 + "," + e2, "--out", out), "--from-csv", "twice");
    bad("vastpipe-e3: --planners twice", args("vastpipe-e3", "--out", out, "--planners", "exact,heuristic,exact"), "--planners = exact", "twice");
    bad("vastpipe-e3: --margins twice", args("vastpipe-e3", "--out", out, "--margins", "0,5,5"), "--margins = 5.0", "twice");
    bad("evaluate-policy: --gpus twice", args("evaluate-policy", "--gpus", "32,32", "--out", dir.resolve("dup.csv")), "--gpus = 32", "twice");
    for (int cap : new int[] {3, 5, 6, 12, 100}) {
      bad("colocate: --batch-caps " + cap + " (not a power of two)", args("colocate", "--batch-caps", cap, "--out", out), "--batch-caps = " + cap,
          "power of two");
    }
    bad("colocate: scenario --time-limit-s rounds to 0", args("colocate", "--parvagpu-scenario", 1, "--time-limit-s", "1e-12"),
        "--time-limit-s = 1.0E-12", "rounds to no time");
    bad("colocate: experiment --time-limit-s below a millisecond", args("colocate", "--time-limit-s", "1e-4", "--out", out),
        "--time-limit-s = 1.0E-4");
    bad("vastpipe-e1: --time-limit-s rounds to 0", args("vastpipe-e1", "--out", out, "--time-limit-s", "1e-12"), "--time-limit-s = 1.0E-12",
        "rounds to no time");
    bad("vastpipe-e1: --time-limit-s the smallest double", args("vastpipe-e1", "--out", out, "--time-limit-s", "4.9e-324"), "--time-limit-s");
    bad("vastpipe-e3: --time-limit-s rounds to 0", args("vastpipe-e3", "--out", out, "--time-limit-s", "1e-9"), "--time-limit-s = 1.0E-9");
  }

  /** Documented limits of the CSV inputs and of train, enforced. */
  private void limitCases() {
    String out = dir.resolve("limit-out").toString();
    StringBuilder many = new StringBuilder("gpu_type,count\n");
    for (int i = 0; i < 11; i++) {
      many.append(i % 2 == 0 ? "L4" : "A10").append(",100000\n");
    }
    cluster("1.1 million GPUs over several lines", many.toString(), "line 3", "count = 100000", "more than the 100000");
    cluster("one line over 100 000", "gpu_type,count\nL4,100001\n", "line 2", "count = 100001");
    cluster("count fractional", "gpu_type,count\nL4,2.5\n", "line 2", "count = 2.5");
    cluster("count missing", "gpu_type,count\nL4,\n", "line 2", "count = ");
    cluster("only the header", "gpu_type,count\n", "--cluster-file", "lists no GPU type");
    cluster("a byte-order mark before a wrong header", "\uFEFFgpu,count\nL4,2\n", "must start with the header");
    demand("rate 1e308", "resnet50,1e308,50,8", "line 2", "rate = 1e308", "1000000");
    demand("rate 1e7", "resnet50,1e7,50,8", "line 2", "rate = 1e7");
    demand("rate NaN", "resnet50,NaN,50,8", "line 2", "rate = NaN");
    demand("rate Infinity", "resnet50,Infinity,50,8", "line 2", "rate = Infinity");
    demand("slo_ms 1e-9", "resnet50,10,1e-9,8", "line 2", "slo_ms = 1e-9", "0.001");
    demand("slo_ms zero", "resnet50,10,0,8", "line 2", "slo_ms = 0");
    demand("slo_ms of days", "resnet50,10,1e10,8", "line 2", "slo_ms = 1e10");
    demand("slo_ms negative", "resnet50,10,-5,8", "line 2", "slo_ms = -5");
    demand("max_batch zero", "resnet50,10,50,0", "line 2", "max_batch = 0");
    bad("train: --episodes ten million", args("train", "--episodes", 10_000_000, "--out", dir.resolve("p.json")), "--episodes = 10000000", "100000");
    bad("train: --episodes just over the bound", args("train", "--episodes", 100_001, "--out", dir.resolve("p.json")), "--episodes = 100001");
    bad("train: --episodes x --gpus beyond the budget", args("train", "--gpus", 4096, "--episodes", 2000, "--out", dir.resolve("p.json")),
        "--episodes = 2000", "--gpus 4096", "episodes x GPUs");
    bad("plan: a MIG layout on an L4", args("plan", doc("mig-on-l4", d -> d.set("migLayouts", BadInputs.tree(
        "{\"node001-gpu0\": [{\"kind\": \"mig\", \"profile\": \"1g.10gb\", \"start\": 0}]}")))), "migLayouts[node001-gpu0]", "A10", "no MIG geometry");
  }

  private void cluster(String name, String content, String... mentions) {
    Path file = write(dir, "cluster-" + name.replaceAll("[^a-zA-Z0-9]", "_") + ".csv", content);
    bad("colocate: cluster file " + name, args("colocate", "--cluster-file", file, "--out", dir.resolve("limit-out")), mentions);
  }

  private void demand(String name, String line, String... mentions) {
    Path file = write(dir, "demand-" + name.replaceAll("[^a-zA-Z0-9]", "_") + ".csv", "model,rate,slo_ms,max_batch\n" + line + "\n");
    List<String> m = new ArrayList<>(List.of(mentions));
    m.add(file.toString());
    bad("colocate: demand file " + name, args("colocate", "--cluster", "hetero", "--demand", file, "--out", dir.resolve("limit-out")),
        m.toArray(String[]::new));
  }

  /** Impossible or meaningless what-ifs are refused, naming the option. */
  private void predictCases() {
    String a100 = "A100-SXM4-80GB";
    predict("MPS shares summing to 2", "--co-runners = 3", "sum to 2.0", "--gpu", a100, "--mps", 0.5, "--co-runners", 3);
    predict("MPS shares summing past 1", "--co-runners = 2", "sum to", "--gpu", a100, "--mps", 0.34, "--co-runners", 2);
    bad("predict: four llama2-13b quarters overfill the memory", args("predict", "--model", "llama2-13b", "--gpu", a100, "--mps", 0.25,
        "--co-runners", 3), "--co-runners = 3", "more than the card's");
    predict("7g with co-runners", "--co-runners = 3", "only 0 fit beside 7g.80gb@0", "--gpu", a100, "--mig", "7g.80gb", "--co-runners", 3);
    predict("3g with two co-runners", "--co-runners = 2", "only 1 fit", "--gpu", a100, "--mig", "3g.40gb", "--co-runners", 2);
    predict("1g with seven co-runners", "--co-runners = 7", "only 6 fit", "--gpu", a100, "--mig", "1g.10gb", "--co-runners", 7);
    predict("MIG processes with co-runners", "--co-runners = 2", "only 0 fit", "--gpu", a100, "--runtime", "pytorch-eager", "--mig", "7g.80gb", "--mps-processes", 2,
        "--co-runners", 2);
    predict("template vir08 with a co-runner", "--co-runners = 1", "16 cores", "--gpu", "NPU-8C-64GB", "--template", "vir08", "--co-runners", 1);
    predict("template vir04 with two co-runners", "--co-runners = 2", "12 cores", "--gpu", "NPU-8C-64GB", "--template", "vir04", "--co-runners", 2);
    predict("CU mask 60 with two co-runners", "--co-runners = 2", "sum to 1.5", "--gpu", "MI100", "--cu-mask", 60, "--co-runners", 2);
    predict("CU mask 120 with a co-runner", "--co-runners = 1", "sum to 2.0", "--gpu", "MI100", "--cu-mask", 120, "--co-runners", 1);
    predict("whole GPU with a co-runner", "--co-runners = 1", "held alone", "--gpu", a100, "--co-runners", 1);
    predict("--mps 1.0 with a co-runner", "--co-runners = 1", "held alone", "--gpu", a100, "--mps", "1.0", "--co-runners", 1);
    predict("--mps the smallest double", "--mps = 4.9E-324", "at least 1 %", "--gpu", a100, "--mps", "4.9e-324");
    predict("--mps 0.001", "--mps = 0.001", "at least 1 %", "--gpu", a100, "--mps", 0.001);
    predict("--mps 0.009", "--mps = 0.009", "active-thread percentage", "--gpu", a100, "--mps", 0.009);
    bad("predict: bert --mps the smallest double", args("predict", "--model", "bert-base", "--gpu", a100, "--mps", "4.9e-324"), "--mps = 4.9E-324");
    predict("resnet50 prefill", "--phase = prefill", "resnet50 is not a transformer", "--gpu", a100, "--phase", "prefill");
    predict("resnet50 decode", "--phase = decode", "not a transformer", "--gpu", a100, "--phase", "decode", "--tokens", 64);
    predict("--tokens for the whole model", "--tokens = 64", "prefill or decode", "--gpu", a100, "--tokens", 64);
    predict("--mps-processes without --mig", "--mps-processes = 2", "MIG slice only", "--gpu", a100, "--mps", 0.5, "--mps-processes", 2);
  }

  private void predict(String name, String first, String second, Object... options) {
    List<Object> line = new ArrayList<>(List.of("predict", "--model", "resnet50"));
    line.addAll(List.of(options));
    bad("predict: " + name, args(line.toArray()), first, second);
  }

  /** A key given twice is an error in every JSON input, not "the last one wins". */
  private void duplicateKeyCases() {
    String problem = BadInputs.problem().toString();
    duplicateKey("plan: strategy twice", "plan", problem, "\"strategy\":\"greedy\"", "\"strategy\":\"exact\",\"strategy\":\"greedy\"", "strategy");
    duplicateKey("plan: batchSize twice", "plan", problem, "\"batchSize\":4", "\"batchSize\":0,\"batchSize\":4", "batchSize");
    duplicateKey("plan: a GPU id twice in one object", "plan", problem, "\"id\":\"node000-gpu0\"", "\"id\":\"x\",\"id\":\"node000-gpu0\"", "id");
    duplicateKey("plan: an importance weight twice", "plan", problem, "\"T4\":2.0", "\"T4\":2.0,\"T4\":0.5", "T4");
    String workload = BadInputs.WORKLOAD.replace("\"batch\": 8", "\"batch\": 0, \"batch\": 8");
    bad("simulate: workload with batch twice", simulate("--workload", write(dir, "dup-workload.json", workload)), "batch", "Duplicate");
    String graph = BadInputs.TARNAWSKI.replace("\"maxFPGAs\": 4", "\"maxFPGAs\": 4, \"maxFPGAs\": 2");
    bad("split: tarnawski with maxFPGAs twice", args("split", "--tarnawski", write(dir, "dup-graph.json", graph), "--devices", 2), "maxFPGAs",
        "Duplicate");
  }

  private void duplicateKey(String name, String command, String document, String find, String replace, String key) {
    assertThat(document).as(name).contains(find);
    Path file = write(dir, "dup-" + name.replaceAll("[^a-zA-Z0-9]", "_") + ".json", document.replaceFirst(java.util.regex.Pattern.quote(find),
        java.util.regex.Matcher.quoteReplacement(replace)));
    bad(name, args(command, file), key, "Duplicate");
  }

  /** evaluate-policy --policy: the weights document is checked, naming the file and field, before any work. */
  private void policyCases() throws Exception {
    String shipped = BadInputs.shippedPolicy();
    policy("format twice", shipped.replaceFirst("\"format\" : ", "\"format\" : \"x\", \"format\" : "), "format", "Duplicate");
    policy("unknown format", shipped.replace("rampa-candidate-policy/1", "rampa-candidate-policy/9"), "rampa-candidate-policy/9");
    policy("unknown field", shipped.replaceFirst("\"hidden\"", "\"hiden\" : [1], \"hidden\""), "hiden");
    policy("truncated", shipped.substring(0, shipped.length() / 2), "policy");
    policy("hidden null", shipped.replaceFirst("\"hidden\" : \\[ 24, 12 \\]", "\"hidden\" : null"), "hidden");
    policy("too few parameters", shipped.replaceFirst("\"parameters\" : \\[ [^,]+,", "\"parameters\" : ["), "parameters");
    policy("a byte-order mark and a duplicate", "\uFEFF" + shipped.replaceFirst("\"hidden\"", "\"hidden\" : [1], \"hidden\""), "hidden",
        "Duplicate");
  }

  private void policy(String name, String content, String... mentions) {
    Path file = write(dir, "policy-" + name.replaceAll("[^a-zA-Z0-9]", "_") + ".json", content);
    List<String> m = new ArrayList<>(List.of(mentions));
    m.add("--policy");
    m.add(file.toString());
    bad("evaluate-policy: policy " + name, args("evaluate-policy", "--policy", file, "--mixes", 1, "--gpus", 1, "--out", dir.resolve("e.csv")),
        m.toArray(String[]::new));
  }

  /** rampa verify: unreadable inputs exit 2; every broken rule of a readable plan exits 3 and is listed. */
  private void verifyCases() {
    Path problem = doc("verify-problem", d -> {});
    BadInputs.Run planned = BadInputs.run("plan", problem.toString());
    assertThat(planned.code()).as(planned.err()).isZero();
    ObjectNode result = (ObjectNode) BadInputs.tree(planned.out());
    ObjectNode plan = (ObjectNode) result.get("plan");
    Path resultFile = write(dir, "verify-result.json", result.toString());
    Path planFile = write(dir, "verify-plan.json", plan.toString());
    assertThat(BadInputs.run("verify", "--problem", problem.toString(), "--plan", resultFile.toString()).code()).as("a result verifies").isZero();
    assertThat(BadInputs.run("verify", "--problem", problem.toString(), "--plan", planFile.toString()).code()).as("a plan verifies").isZero();
    String gpu = plan.get("stages").get(0).get("gpus").get(0).asText();

    bad("verify: no --plan", args("verify", "--problem", problem), "--plan");
    bad("verify: no --problem", args("verify", "--plan", planFile), "--problem");
    bad("verify: plan missing", args("verify", "--problem", problem, "--plan", dir.resolve("none.json")), "none.json", "does not exist");
    bad("verify: plan a folder", args("verify", "--problem", problem, "--plan", dir), "is a directory");
    bad("verify: plan not JSON", args("verify", "--problem", problem, "--plan", write(dir, "plan-text.json", "stages:")), "--plan", "not valid JSON");
    bad("verify: plan an array", args("verify", "--problem", problem, "--plan", write(dir, "plan-array.json", "[]")), "--plan", "JSON object");
    bad("verify: result without a plan", args("verify", "--problem", problem, "--plan",
        write(dir, "plan-infeasible.json", "{\"status\": \"INFEASIBLE\", \"plan\": null}")), "--plan", "INFEASIBLE", "no plan");
    bad("verify: problem missing", args("verify", "--problem", dir.resolve("nope.json"), "--plan", planFile), "nope.json", "does not exist");
    bad("verify: problem with a key twice", args("verify", "--problem", write(dir, "verify-dup.json",
        BadInputs.problem().toString().replaceFirst("\"strategy\":", "\"strategy\":\"dp\",\"strategy\":")), "--plan", planFile), "strategy", "Duplicate");
    planEdit("unknown field", p -> p.put("stagess", 1), 2, "$.stagess");
    planEdit("no stages", p -> p.set("stages", JSON.arrayNode()), 2, "stages", "at least one stage");
    planEdit("stages null", p -> p.putNull("stages"), 2, "$.stages");
    planEdit("stage gpus a string", p -> ((ObjectNode) p.get("stages").get(0)).put("gpus", gpu), 2, "$.stages[0].gpus");
    planEdit("period a bare number", p -> p.put("period", 0.002), 2, "$.period", "ISO-8601");
    planEdit("placement unknown kind", p -> ((ObjectNode) p.get("stages").get(0)).set("placement", BadInputs.tree("{\"kind\": \"half\"}")), 2,
        "$.stages[0].placement", "half");
    planEdit("serviceId twice", null, 2, "serviceId", "Duplicate");

    planEdit("for another service", p -> p.put("serviceId", "gpt"), 3, "WRONG_SERVICE", "gpt");
    planEdit("a layer short", p -> ((ObjectNode) p.get("stages").get(0)).put("to", p.get("stages").get(0).get("to").asInt() - 1), 3, "COVERAGE");
    planEdit("on an unknown GPU", p -> ((ArrayNode) p.get("stages").get(0).get("gpus")).set(0, JSON.textNode("node999-gpu0")), 3, "UNKNOWN_GPU",
        "node999-gpu0");
    planEdit("replicas of two types", p -> ((ArrayNode) p.get("stages").get(0).get("gpus")).add(gpu.equals("node000-gpu0") ? "node003-gpu0"
        : "node000-gpu0"), 3, "MIXED_REPLICA_TYPES");
    planEdit("reserving 1 byte", p -> ((ObjectNode) p.get("stages").get(0)).put("memoryBytes", 1), 3, "MEMORY", "reserves 1 B");
    planEdit("claiming a period of 100 s", p -> p.put("period", "PT100S"), 3, "PREDICTION_MISMATCH", "period");
    planEdit("claiming a throughput it lacks", p -> p.put("throughput", 1e9), 3, "PREDICTION_MISMATCH", "throughput");
    planEdit("a MIG slice on a GPU without MIG", p -> ((ObjectNode) p.get("stages").get(0)).set("placement",
        BadInputs.tree("{\"kind\": \"mig\", \"profile\": \"1g.10gb\", \"start\": 0}")), 3, "PLACEMENT", "no MIG geometry");
    Path held = doc("verify-held", d -> d.set("allocations", BadInputs.tree("{\"other\": {\"serviceId\": \"other\", \"holdings\": "
        + "[{\"gpu\": \"" + gpu + "\", \"memoryBytes\": 1000}]}}")));
    invalid("verify: a GPU someone holds", args("verify", "--problem", held, "--plan", planFile), "RESOURCE_CONFLICT", gpu);
    Path fast = doc("verify-fast", d -> at(d, "request.slo").put("requiredThroughput", 1e6));
    invalid("verify: below the required throughput", args("verify", "--problem", fast, "--plan", planFile), "THROUGHPUT", "required");
    Path tight = doc("verify-tight", d -> at(d, "request.slo").put("latencyBound", "PT0.000001S"));
    invalid("verify: over the latency bound", args("verify", "--problem", tight, "--plan", planFile), "LATENCY", "bound");
    Path oneStage = doc("verify-max-stages", d -> at(d, "request").put("maxStages", 1));
    ObjectNode split = plan.deepCopy();
    ObjectNode second = ((ObjectNode) split.get("stages").get(0)).deepCopy();
    int layers = second.get("to").asInt();
    ((ObjectNode) split.get("stages").get(0)).put("to", layers / 2);
    second.put("from", layers / 2);
    ((ArrayNode) split.get("stages")).add(second);
    invalid("verify: more stages than maxStages", args("verify", "--problem", oneStage, "--plan", write(dir, "verify-split.json", split.toString())),
        "TOO_MANY_STAGES", "maxStages 1");
  }

  /** A copy of the verify plan changed by {@code change} (null: its serviceId written twice), checked with {@code code}. */
  private void planEdit(String name, Consumer<ObjectNode> change, int code, String... mentions) {
    Path problem = dir.resolve("verify-problem.json");
    ObjectNode plan = (ObjectNode) BadInputs.tree(Files.exists(dir.resolve("verify-plan.json")) ? read(dir.resolve("verify-plan.json")) : "{}");
    String text;
    if (change == null) {
      text = plan.toString().replaceFirst("\"serviceId\":", "\"serviceId\":\"x\",\"serviceId\":");
    } else {
      change.accept(plan);
      text = plan.toString();
    }
    Path file = write(dir, "verify-" + name.replaceAll("[^a-zA-Z0-9]", "_") + ".json", text);
    String[] line = args("verify", "--problem", problem, "--plan", file);
    if (code == RampaCli.PLAN_INVALID) {
      invalid("verify: a plan " + name, line, mentions);
    } else {
      bad("verify: a plan " + name, line, mentions);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
