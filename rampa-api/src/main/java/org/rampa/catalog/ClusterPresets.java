package org.rampa.catalog;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Link;
import org.rampa.domain.Node;

/**
 * Built-in heterogeneous clusters of catalog GPUs: servers of 4 GPUs of one type, linked by their
 * scale-up fabric (or PCIe), nodes linked by a 100 Gb/s network (12.5 GB/s, 10 µs: a typical
 * datacentre fabric, an assumption rather than a measurement).
 *
 * <p>This class is the presets' only definition: their GPU types come from the calibrated {@link
 * GpuCatalog}, so a JSON copy of a preset ({@code RampaJson.write(ClusterPresets.small())}) is
 * derived from it, never kept beside it.
 */
public final class ClusterPresets {

  public static final Link NETWORK_100G = Link.of("ethernet-100G", 12.5e9, Duration.ofNanos(10_000));

  /** The four generations both presets mix, oldest first. */
  public static final String[] MIXED_TYPES = {"T4", "A10", "A100-SXM4-80GB", "H100-SXM5-80GB"};

  /** Servers hold at most this many GPUs: more is a typo (checked before the GPUs are generated). */
  public static final int MAX_GPUS_PER_NODE = 64;

  private ClusterPresets() {}

  /** 48 GPUs on 12 nodes: 4 nodes of T4, 4 of A10, 2 of A100-80GB, 2 of H100 (a paper-sized testbed). */
  public static Cluster small() {
    return mixed(new int[] {4, 4, 2, 2}, 4);
  }

  /** 1000 GPUs on 250 nodes: 100 nodes of T4, 75 of A10, 50 of A100-80GB, 25 of H100. */
  public static Cluster large() {
    return mixed(new int[] {100, 75, 50, 25}, 4);
  }

  /** The names {@link #named} knows. */
  public static List<String> names() {
    return List.of("small", "large");
  }

  /** The preset called {@code name}: {@code "small"} or {@code "large"}. */
  public static Cluster named(String name) {
    return switch (name) {
      case "small" -> small();
      case "large" -> large();
      default -> throw Invalid.value("preset", name, "must be one of " + names());
    };
  }

  /** {@code nodesPerType[i]} nodes of {@link #MIXED_TYPES}[i], each with {@code gpusPerNode} GPUs. */
  public static Cluster mixed(int[] nodesPerType, int gpusPerNode) {
    Objects.requireNonNull(nodesPerType, "nodesPerType");
    if (nodesPerType.length != MIXED_TYPES.length) {
      throw Invalid.value("nodesPerType.length", nodesPerType.length, "must be " + MIXED_TYPES.length + " (one count per type)");
    }
    Map<String, Integer> nodes = new LinkedHashMap<>();
    for (int i = 0; i < MIXED_TYPES.length; i++) {
      nodes.put(MIXED_TYPES[i], nodesPerType[i]);
    }
    return of(nodes, gpusPerNode, NETWORK_100G);
  }

  /**
   * A cluster with the given number of nodes per catalog GPU type, {@code gpusPerNode} GPUs each
   * (at most {@link #MAX_GPUS_PER_NODE}; at most {@link Cluster#MAX_GPUS} GPUs in all).
   */
  public static Cluster of(Map<String, Integer> nodesPerType, int gpusPerNode, Link network) {
    Objects.requireNonNull(nodesPerType, "nodesPerType");
    Objects.requireNonNull(network, "network");
    if (gpusPerNode < 1 || gpusPerNode > MAX_GPUS_PER_NODE) {
      throw Invalid.value("gpusPerNode", gpusPerNode, "must lie in [1, " + MAX_GPUS_PER_NODE + "]");
    }
    long total = 0;
    for (Map.Entry<String, Integer> e : nodesPerType.entrySet()) {
      if (e.getValue() == null || e.getValue() < 0) {
        throw Invalid.value("nodesPerType[" + e.getKey() + "]", e.getValue(), "must be a node count >= 0");
      }
      total += (long) e.getValue() * gpusPerNode;
    }
    if (total > Cluster.MAX_GPUS) {
      throw Invalid.value("nodesPerType", nodesPerType, "describes " + total + " GPUs, more than " + Cluster.MAX_GPUS);
    }
    GpuCatalog catalog = GpuCatalog.standard();
    var b = Cluster.builder().network(network);
    int n = 0;
    for (Map.Entry<String, Integer> e : nodesPerType.entrySet()) {
      GpuCatalog.Entry entry = catalog.entry(e.getKey());
      GpuType type = entry.type();
      if (e.getValue() > 0) {
        b.addGpuTypes(type);
      }
      for (int i = 0; i < e.getValue(); i++, n++) {
        String node = String.format("node%03d", n);
        b.addNodes(Node.of(node, entry.intraNodeLink()));
        for (int g = 0; g < gpusPerNode; g++) {
          b.addGpus(Gpu.of(node + "-gpu" + g, type.name(), node));
        }
      }
    }
    return b.build();
  }
}
