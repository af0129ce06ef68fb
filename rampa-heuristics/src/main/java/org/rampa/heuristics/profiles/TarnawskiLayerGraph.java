package org.rampa.heuristics.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rampa.domain.Invalid;
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

  public static TarnawskiLayerGraph read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(file.getFileName().toString().replace(".json", ""), in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read layer graph " + file, e);
    }
  }

  public static TarnawskiLayerGraph parse(String name, InputStream json) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(json);
    } catch (IOException e) {
      throw Invalid.value(name, "(unparsable)", "is not valid JSON: " + e.getMessage());
    }
    for (String field : List.of("nodes", "edges", "maxFPGAs", "maxSizePerFPGA")) {
      if (!root.has(field)) {
        throw Invalid.value(name + "." + field, "(missing)", "a Tarnawski layer graph needs this field",
            "the file is another format (throughput-inputs/LayerGraphs/*.json is expected)");
      }
    }
    List<Integer> ids = new ArrayList<>();
    List<Double> latency = new ArrayList<>();
    List<Long> size = new ArrayList<>();
    for (JsonNode n : root.get("nodes")) {
      ids.add(n.get("id").asInt());
      latency.add(n.get("fpgaLatency").asDouble());
      size.add(Math.round(n.get("size").asDouble()));
    }
    Map<Integer, Integer> index = Topological.inverse(ids);
    if (index.size() != ids.size()) {
      throw Invalid.value(name + ".nodes.id", ids, "node ids must be unique");
    }
    List<int[]> edges = new ArrayList<>();
    List<Double> costs = new ArrayList<>();
    for (JsonNode e : root.get("edges")) {
      Integer a = index.get(e.get("sourceId").asInt());
      Integer b = index.get(e.get("destId").asInt());
      if (a == null || b == null) {
        throw Invalid.value(name + ".edge", e.toString(), "refers to an unknown node id");
      }
      edges.add(new int[] {a, b});
      costs.add(e.get("cost").asDouble());
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
    return new TarnawskiLayerGraph(name, orderedIds, orderedLatency, orderedSize, tensors,
        root.get("maxFPGAs").asInt(), Math.round(root.get("maxSizePerFPGA").asDouble()));
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
