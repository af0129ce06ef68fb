package org.rampa.domain;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * A heterogeneous GPU cluster: GPU types, nodes, GPUs, and the network between nodes.
 *
 * <p>GPUs refer to their type by name and to their node by id, so a cluster document lists each
 * type once. Construction checks every reference and every id for uniqueness.
 *
 * @since 0.1.0
 */
@Value.Immutable
@JsonSerialize(as = ImmutableCluster.class)
@JsonDeserialize(as = ImmutableCluster.class)
public abstract class Cluster {

  public abstract List<GpuType> gpuTypes();

  public abstract List<Node> nodes();

  public abstract List<Gpu> gpus();

  /** The inter-node fabric (a uniform network: every pair of nodes sees this link). */
  public abstract Link network();

  @Value.Lazy
  @JsonIgnore
  protected Index index() {
    return new Index(this);
  }

  public final Gpu gpu(String gpuId) {
    Gpu gpu = index().gpus.get(gpuId);
    if (gpu == null) {
      throw Invalid.value("gpuId", gpuId, "no such GPU in the cluster");
    }
    return gpu;
  }

  public final boolean hasGpu(String gpuId) {
    return index().gpus.containsKey(gpuId);
  }

  /** The position in {@link #nodes()} of the node of the GPU at position {@code gpuPosition} of {@link #gpus()}. */
  public final int nodePositionOf(int gpuPosition) {
    return index().nodeOfGpu[gpuPosition];
  }

  /** {@link #nodePositionOf} of every GPU, in {@link #gpus()} order (a copy: for loops over thousands of GPUs). */
  public final int[] nodePositions() {
    return index().nodeOfGpu.clone();
  }

  /** The position in {@link #gpuTypes()} of every GPU's type, in {@link #gpus()} order (a copy, as {@link #nodePositions()}). */
  public final int[] typePositions() {
    return index().typeOfGpu.clone();
  }

  /** The positions in {@link #gpus()} of the GPUs of the node at position {@code nodePosition} of {@link #nodes()}, ascending (a copy). */
  public final int[] gpuPositionsOn(int nodePosition) {
    return index().gpusOfNode[nodePosition].clone();
  }

  /** {@link #nodePositions()} without the copy, for this package's own loops (never written). */
  final int[] nodePositionsView() {
    return index().nodeOfGpu;
  }

  /** {@link #typePositions()} without the copy, for this package's own loops (never written). */
  final int[] typePositionsView() {
    return index().typeOfGpu;
  }

  /** The position of {@code gpuId} in {@link #gpus()}, or -1 when the cluster has no such GPU. */
  public final int indexOf(String gpuId) {
    Integer i = index().positions.get(gpuId);
    return i == null ? -1 : i;
  }

  public final GpuType type(String typeName) {
    GpuType type = index().types.get(typeName);
    if (type == null) {
      throw Invalid.value("gpuType", typeName, "no such GPU type in the cluster");
    }
    return type;
  }

  public final GpuType typeOf(String gpuId) {
    GpuType type = index().typeByGpu.get(gpuId);
    return type != null ? type : type(gpu(gpuId).type()); // an unknown id: gpu() names it
  }

  public final Node node(String nodeId) {
    Node node = index().nodes.get(nodeId);
    if (node == null) {
      throw Invalid.value("nodeId", nodeId, "no such node in the cluster");
    }
    return node;
  }

  /** GPUs of one node in declaration order. */
  public final List<Gpu> gpusOn(String nodeId) {
    return index().gpusByNode.getOrDefault(nodeId, List.of());
  }

  /** The most GPUs a cluster may have: a hundred times the large preset, far beyond the strategies' tested range. */
  public static final int MAX_GPUS = 100_000;

  @Value.Check
  protected void check() {
    if (gpus().isEmpty()) {
      throw Invalid.value("cluster.gpus", "[]", "a cluster needs at least one GPU");
    }
    if (gpus().size() > MAX_GPUS) {
      throw Invalid.value("cluster.gpus", gpus().size() + " GPUs", "must be at most " + MAX_GPUS);
    }
    index(); // validates references and uniqueness
  }

  /** Lookup tables, built once per cluster. */
  protected static final class Index {
    final Map<String, GpuType> types = new LinkedHashMap<>();
    final Map<String, Node> nodes = new LinkedHashMap<>();
    final Map<String, Gpu> gpus = new LinkedHashMap<>();
    final Map<String, Integer> positions = new java.util.HashMap<>();
    /** Each GPU's type by GPU id: one look-up where {@code type(gpu(id).type())} takes two, on the hottest path of a large cluster's placement. */
    final Map<String, GpuType> typeByGpu = new java.util.HashMap<>();
    final Map<String, List<Gpu>> gpusByNode;
    final int[] nodeOfGpu;
    final int[] typeOfGpu;
    final int[][] gpusOfNode;

    Index(Cluster c) {
      for (GpuType t : c.gpuTypes()) {
        if (types.put(t.name(), t) != null) {
          throw Invalid.value("cluster.gpuTypes.name", t.name(), "GPU type names must be unique");
        }
      }
      for (Node n : c.nodes()) {
        if (nodes.put(n.id(), n) != null) {
          throw Invalid.value("cluster.nodes.id", n.id(), "node ids must be unique");
        }
      }
      Map<String, List<Gpu>> byNode = new LinkedHashMap<>();
      for (Gpu g : c.gpus()) {
        positions.put(g.id(), positions.size());
        if (gpus.put(g.id(), g) != null) {
          throw Invalid.value("cluster.gpus.id", g.id(), "GPU ids must be unique");
        }
        if (!nodes.containsKey(g.node())) {
          throw Invalid.value(
              "gpu[" + g.id() + "].node", g.node(), "refers to an unknown node",
              "add a node with id \"" + g.node() + "\" to cluster.nodes");
        }
        if (!types.containsKey(g.type())) {
          throw Invalid.value(
              "gpu[" + g.id() + "].type", g.type(), "refers to an unknown GPU type",
              "add the type to cluster.gpuTypes (see GpuCatalog) or check its spelling; known: " + types.keySet());
        }
        byNode.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(g);
      }
      byNode.replaceAll((k, v) -> Collections.unmodifiableList(v));
      Map<String, Integer> nodePositions = new java.util.HashMap<>();
      for (Node n : c.nodes()) {
        nodePositions.put(n.id(), nodePositions.size());
      }
      Map<String, Integer> typePositions = new java.util.HashMap<>();
      for (GpuType t : c.gpuTypes()) {
        typePositions.put(t.name(), typePositions.size());
      }
      nodeOfGpu = new int[c.gpus().size()];
      typeOfGpu = new int[c.gpus().size()];
      for (int i = 0; i < nodeOfGpu.length; i++) {
        nodeOfGpu[i] = nodePositions.get(c.gpus().get(i).node());
        typeOfGpu[i] = typePositions.get(c.gpus().get(i).type());
        typeByGpu.put(c.gpus().get(i).id(), types.get(c.gpus().get(i).type()));
      }
      int[] perNode = new int[c.nodes().size()];
      for (int n : nodeOfGpu) {
        perNode[n]++;
      }
      gpusOfNode = new int[perNode.length][];
      for (int n = 0; n < perNode.length; n++) {
        gpusOfNode[n] = new int[perNode[n]];
        perNode[n] = 0;
      }
      for (int i = 0; i < nodeOfGpu.length; i++) {
        gpusOfNode[nodeOfGpu[i]][perNode[nodeOfGpu[i]]++] = i;
      }
      gpusByNode = Collections.unmodifiableMap(byNode);
    }
  }

  public static ImmutableCluster.Builder builder() {
    return ImmutableCluster.builder();
  }
}
