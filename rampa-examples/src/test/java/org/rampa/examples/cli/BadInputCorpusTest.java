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

  private record Case(String name, String[] args, String[] mentions) {}

  private final List<Case> cases = new ArrayList<>();

  private void bad(String name, String[] args, String... mentions) {
    cases.add(new Case(name, args, mentions));
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
    assertThat(cases).hasSizeGreaterThanOrEqualTo(100);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      BadInputs.Run r = assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> BadInputs.run(c.args()));
      assertClean(r, c.name());
      assertThat(r.code()).as(c.name() + ": " + r.err()).isEqualTo(2);
      for (String m : c.mentions()) {
        assertThat(r.err()).as(c.name()).contains(m);
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
    bad("vastpipe-e3: unknown margin kind", args("vastpipe-e3", "--out", out, "--margin-kind", "rates"), "--margin-kind = rates", "times or slo");
    bad("vastpipe-e3: unknown planner", args("vastpipe-e3", "--out", out, "--planners", "heuristic,magic"), "--planners = magic", "exact");
    bad("vastpipe-e3: learned planner (scale only)", args("vastpipe-e3", "--out", out, "--planners", "learned"), "--planners = learned");
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
    bad("vastpipe-e4: unknown preset", args("vastpipe-e4", "--out", out, "--preset", "huge"), "preset = huge");
    Path file = Files.writeString(dir.resolve("e4-file"), "x");
    bad("vastpipe-e4: --out a file", args("vastpipe-e4", "--out", file), "--out", "e4-file", "not a folder");
    bad("vastpipe-e4: a baseline with +sharing", args("vastpipe-e4", "--out", out, "--planners", "performance-first+sharing"),
        "performance-first+sharing", "whole GPUs only");
    bad("simulate: a strategy that cannot share with +sharing", args("simulate", "--out", out, "--planners", "first-fit+sharing"),
        "first-fit+sharing", "cannot share GPUs");
  }
}
