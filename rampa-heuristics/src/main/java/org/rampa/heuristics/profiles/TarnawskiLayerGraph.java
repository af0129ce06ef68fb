package org.rampa.heuristics.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rampa.domain.Invalid;
import org.rampa.json.InputFiles;
import org.rampa.json.RampaJson;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.SplitProblem;
import org.rampa.split.TensorTransfer;

/**
 * A layer graph of Tarnawski et al. (NeurIPS 2020, "Efficient Algorithms for Device Placement of
 * DNN Graph Operators"), {@code throughput-inputs/LayerGraphs/*.json}: nodes with accelerator
 * latency {@code fpgaLatency} and memory {@code size}, edges with a transfer {@code cost}, the
 * accelerator count {@code maxFPGAs} and the memory cap {@code maxSizePerFPGA}.
 *
 * <p><b>Linearisation.</b> Kahn's topological sort, ties broken by the node {@code id} (in the
 * published graphs every edge goes from a smaller to a larger id, so the order is simply by id).
 *
 * <p><b>Transfers.</b> All edges leaving one node carry that node's output, one tensor (their costs
 * are equal in the published graphs; differing costs are imported as separate tensors). Under their
 * objective a tensor crossing a cut costs {@code cost} once on the device that produces it and once
 * on each distinct device that consumes it, serially with compute: {@link #costTable()} carries the
 * tensors and {@link #splitProblem(int)} uses {@link TransferMode#SERIAL}.
 *
 * @param name the graph's name (file name without ".json")
 * @param nodeIds node ids in the linear order
 * @param latencies accelerator latency per node, in the file's unit
 * @param sizes memory per node, in bytes
 * @param tensors one per producing node (and cost), consumers in the linear order
 * @param maxDevices the file's {@code maxFPGAs}
 * @param maxSizePerDevice the file's {@code maxSizePerFPGA}, in bytes
 */
public record TarnawskiLayerGraph(
    String name, List<Integer> nodeIds, List<Double> latencies, List<Long> sizes, List<TensorTransfer> tensors,
    int maxDevices, long maxSizePerDevice) {

  /** The device kind name used in the cost table. */
  public static final String DEVICE = "accelerator";

  public TarnawskiLayerGraph {
    nodeIds = List.copyOf(nodeIds);
    latencies = List.copyOf(latencies);
    sizes = List.copyOf(sizes);
    tensors = List.copyOf(tensors);
  }

  /** Reads a layer graph file (bounded, UTF-8); errors name the file and the JSON path. */
  public static TarnawskiLayerGraph read(Path file) {
    String text = InputFiles.readText(file);
    try {
      return parse(file.getFileName().toString().replace(".json", ""), new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Parses a layer graph; every field is required and typed (a wrong type is an error, never 0). */
  public static TarnawskiLayerGraph parse(String name, InputStream json) {
    JsonNode root;
    try {
      // RAMPA's mapper: a key given twice is an error there, as in every JSON input
      root = RampaJson.mapper().readTree(json);
    } catch (IOException e) {
      throw Invalid.value(name, "(unparsable)", "is not valid JSON: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw Invalid.value("$", root, "a Tarnawski layer graph is a JSON object",
          "the file is another format (throughput-inputs/LayerGraphs/*.json is expected)");
    }
    for (String field : List.of("nodes", "edges", "maxFPGAs", "maxSizePerFPGA")) {
      if (!root.has(field)) {
        throw Invalid.value("$." + field, "(missing)", "a Tarnawski layer graph needs this field",
            "the file is another format (throughput-inputs/LayerGraphs/*.json is expected)");
      }
    }
    List<Integer> ids = new ArrayList<>();
    List<Double> latency = new ArrayList<>();
    List<Long> size = new ArrayList<>();
    JsonNode nodes = array(root, "nodes");
    for (int i = 0; i < nodes.size(); i++) {
      String at = "$.nodes[" + i + "]";
      ids.add(integer(nodes.get(i), at, "id"));
      latency.add(measure(nodes.get(i), at, "fpgaLatency"));
      size.add(Math.round(measure(nodes.get(i), at, "size")));
    }
    Map<Integer, Integer> index = Topological.inverse(ids);
    if (index.size() != ids.size()) {
      throw Invalid.value("$.nodes[*].id", ids, "node ids must be unique");
    }
    List<int[]> edges = new ArrayList<>();
    List<Double> costs = new ArrayList<>();
    JsonNode edgeList = array(root, "edges");
    for (int k = 0; k < edgeList.size(); k++) {
      String at = "$.edges[" + k + "]";
      JsonNode e = edgeList.get(k);
      Integer a = index.get(integer(e, at, "sourceId"));
      Integer b = index.get(integer(e, at, "destId"));
      if (a == null || b == null) {
        throw Invalid.value(at, e.toString(), "refers to an unknown node id");
      }
      edges.add(new int[] {a, b});
      costs.add(measure(e, at, "cost"));
    }
    int[] order = Topological.sort(ids.size(), edges, (x, y) -> Integer.compare(ids.get(x), ids.get(y)), name);
    int[] position = new int[ids.size()];
    for (int p = 0; p < order.length; p++) {
      position[order[p]] = p;
    }
    // one tensor per (producer, cost): its consumers in the linear order
    Map<Integer, Map<Double, List<Integer>>> byProducer = new TreeMap<>();
    for (int k = 0; k < edges.size(); k++) {
      byProducer.computeIfAbsent(position[edges.get(k)[0]], x -> new LinkedHashMap<>())
          .computeIfAbsent(costs.get(k), x -> new ArrayList<>()).add(position[edges.get(k)[1]]);
    }
    List<TensorTransfer> tensors = new ArrayList<>();
    byProducer.forEach((producer, byCost) -> byCost.forEach((cost, consumers) ->
        tensors.add(new TensorTransfer(producer, consumers.stream().distinct().sorted().toList(), cost))));
    List<Integer> orderedIds = new ArrayList<>();
    List<Double> orderedLatency = new ArrayList<>();
    List<Long> orderedSize = new ArrayList<>();
    for (int v : order) {
      orderedIds.add(ids.get(v));
      orderedLatency.add(latency.get(v));
      orderedSize.add(size.get(v));
    }
    int maxDevices = integer(root, "$", "maxFPGAs");
    if (maxDevices < 1) {
      throw Invalid.value("$.maxFPGAs", maxDevices, "must be >= 1");
    }
    return new TarnawskiLayerGraph(name, orderedIds, orderedLatency, orderedSize, tensors,
        maxDevices, Math.round(measure(root, "$", "maxSizePerFPGA")));
  }

  private static JsonNode array(JsonNode parent, String field) {
    JsonNode v = parent.get(field);
    if (!v.isArray()) {
      throw Invalid.value("$." + field, v, "must be a JSON array");
    }
    return v;
  }

  private static JsonNode field(JsonNode parent, String at, String field) {
    if (parent == null || !parent.isObject()) {
      throw Invalid.value(at, parent, "must be a JSON object");
    }
    JsonNode v = parent.get(field);
    if (v == null || v.isNull()) {
      throw Invalid.value(at + "." + field, "(missing)", "is required");
    }
    return v;
  }

  private static int integer(JsonNode parent, String at, String name) {
    JsonNode v = field(parent, at, name);
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw Invalid.value(at + "." + name, v, "must be an integer");
    }
    return v.intValue();
  }

  /** A latency, size or cost: a finite number >= 0. */
  private static double measure(JsonNode parent, String at, String name) {
    JsonNode v = field(parent, at, name);
    if (!v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() < 0) {
      throw Invalid.value(at + "." + name, v, "must be a finite number >= 0");
    }
    return v.doubleValue();
  }

  /** Layer times on one accelerator kind ({@link #DEVICE}), memory = node sizes, per-tensor transfers. */
  public LayerCostTable costTable() {
    return LayerCostTable.withTensors("fpgaLatency", Map.of(DEVICE, latencies), sizes, tensors);
  }

  /** Their contiguous min-max-load problem on {@code k} identical accelerators with the file's memory cap. */
  public SplitProblem splitProblem(int k) {
    return SplitProblem.identical(costTable(), DEVICE, k, TransferMode.SERIAL).withMemoryCap(maxSizePerDevice);
  }
}
