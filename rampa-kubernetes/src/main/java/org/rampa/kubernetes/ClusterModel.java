package org.rampa.kubernetes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Node;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;

/**
 * Kubernetes nodes as a RAMPA {@link Cluster}: one RAMPA node per Kubernetes node whose GPU product
 * is known, with {@code nvidia.com/gpu.count} GPUs of its catalog type named {@code <node>/gpu<i>}.
 * The first {@code allocatable nvidia.com/gpu} of them are whole GPUs; the rest are in MIG mode and
 * carry the node's allocatable {@code nvidia.com/mig-<profile>} instances, packed into legal layouts
 * ({@link MigLayout}) largest first. The device plugin does not say which physical GPU an instance
 * lives on, and instances of one profile on one node are interchangeable to a pod, so any legal
 * packing describes the node as a pod sees it. A node whose facts RAMPA cannot use is left out with
 * the reason ({@link #problems()}), never guessed.
 */
public final class ClusterModel {

  /** The tolerance between the gpu.memory label and the catalog: NVML reports less than the nominal size (a T4: 15360 of 16384 MiB). */
  private static final double MEMORY_TOLERANCE = 0.10;

  private final Optional<Cluster> cluster;
  private final Map<String, List<MigSlice>> migLayouts;
  private final Map<String, String> problems;
  private final Set<String> cordoned;

  private ClusterModel(Optional<Cluster> cluster, Map<String, List<MigSlice>> migLayouts, Map<String, String> problems,
      Set<String> cordoned) {
    this.cluster = cluster;
    this.migLayouts = migLayouts;
    this.problems = problems;
    this.cordoned = cordoned;
  }

  public static ClusterModel of(Collection<NodeInfo> nodes, GpuProducts products, Link network) {
    Map<String, GpuType> types = new LinkedHashMap<>();
    List<Node> rampaNodes = new ArrayList<>();
    List<Gpu> gpus = new ArrayList<>();
    Map<String, List<MigSlice>> layouts = new LinkedHashMap<>();
    Map<String, String> problems = new LinkedHashMap<>();
    Set<String> cordoned = new LinkedHashSet<>();
    List<NodeInfo> sorted = new ArrayList<>(nodes);
    sorted.sort(Comparator.comparing(NodeInfo::name));
    for (NodeInfo n : sorted) {
      if (n.product().isEmpty()) {
        continue; // not a GPU node (or no feature discovery): nothing RAMPA places there
      }
      String why = problem(n, products);
      if (why != null) {
        problems.put(n.name(), why);
        continue;
      }
      String typeName = products.catalogType(n.product().get()).orElseThrow();
      GpuCatalog.Entry entry = GpuCatalog.standard().entry(typeName);
      int count = n.gpuCount().orElseGet(() -> n.wholeGpus().orElse(0));
      int whole = n.wholeGpus().orElse(n.migInstances().isEmpty() ? count : 0);
      Map<Integer, List<MigSlice>> packed = new LinkedHashMap<>();
      if (!n.migInstances().isEmpty()) {
        Optional<MigGeometry> geometry = entry.type().partitioning().mig();
        if (geometry.isEmpty()) {
          problems.put(n.name(), "advertises MIG instances " + n.migInstances() + " but RAMPA's catalog has no MIG geometry for " + typeName);
          continue;
        }
        String packError = pack(n.migInstances(), geometry.get(), whole, count, packed);
        if (packError != null) {
          problems.put(n.name(), packError);
          continue;
        }
      }
      types.putIfAbsent(typeName, entry.type());
      rampaNodes.add(Node.of(n.name(), entry.intraNodeLink()));
      if (!n.schedulable()) {
        cordoned.add(n.name());
      }
      for (int i = 0; i < count; i++) {
        String id = gpuId(n.name(), i);
        gpus.add(Gpu.of(id, typeName, n.name()));
        List<MigSlice> layout = packed.get(i);
        if (layout != null) {
          layouts.put(id, List.copyOf(layout));
        }
      }
    }
    Optional<Cluster> cluster = gpus.isEmpty() ? Optional.empty() : Optional.of(Cluster.builder()
        .gpuTypes(types.values()).nodes(rampaNodes).gpus(gpus).network(network).build());
    return new ClusterModel(cluster, Map.copyOf(layouts), Map.copyOf(problems), Set.copyOf(cordoned));
  }

  /** Why {@code n}'s GPUs cannot be used, or null when they can (MIG packing aside). */
  private static String problem(NodeInfo n, GpuProducts products) {
    String product = n.product().get();
    Optional<String> type = products.catalogType(product);
    if (type.isEmpty()) {
      return "GPU product \"" + product + "\" (label " + KubeJson.LABEL_PRODUCT + ") is not mapped to RAMPA's GPU catalog. "
          + "Maybe start the extender with --gpu-product " + product + "=<catalog type>";
    }
    int count = n.gpuCount().orElseGet(() -> n.wholeGpus().orElse(0));
    if (count < 1) {
      return "no GPUs: label " + KubeJson.LABEL_COUNT + " and allocatable " + KubeJson.GPU + " are both absent or 0";
    }
    if (count > org.rampa.catalog.ClusterPresets.MAX_GPUS_PER_NODE) {
      return "label " + KubeJson.LABEL_COUNT + " = " + count + ": RAMPA models at most "
          + org.rampa.catalog.ClusterPresets.MAX_GPUS_PER_NODE + " GPUs per node";
    }
    if (n.wholeGpus().orElse(0) > count) {
      return "allocatable " + KubeJson.GPU + " = " + n.wholeGpus().get() + " exceeds label " + KubeJson.LABEL_COUNT + " = " + count;
    }
    if (n.memoryMiB().isPresent()) {
      long catalogMiB = GpuCatalog.standard().type(type.get()).memoryBytes() >> 20;
      long label = n.memoryMiB().get();
      if (Math.abs(label - catalogMiB) > MEMORY_TOLERANCE * catalogMiB) {
        return "label " + KubeJson.LABEL_MEMORY + " = " + label + " MiB, but catalog type " + type.get() + " (product " + product
            + ") has " + catalogMiB + " MiB. Maybe map the product to the right type with --gpu-product";
      }
    }
    return null;
  }

  /** Packs the instances onto GPUs {@code [firstMig, count)}, largest first; a message when they do not fit. */
  private static String pack(Map<String, Integer> instances, MigGeometry geometry, int firstMig, int count,
      Map<Integer, List<MigSlice>> out) {
    List<MigProfile> wanted = new ArrayList<>();
    for (Map.Entry<String, Integer> e : instances.entrySet()) {
      MigProfile p = geometry.profiles().stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElse(null);
      if (p == null) {
        return "advertises " + KubeJson.MIG_PREFIX + e.getKey() + ", which " + geometry.name() + " does not have; it has "
            + geometry.profiles().stream().map(MigProfile::name).toList();
      }
      for (int k = 0; k < e.getValue(); k++) {
        wanted.add(p);
      }
    }
    wanted.sort(Comparator.comparingInt(MigProfile::memorySlices).reversed().thenComparing(MigProfile::name));
    for (MigProfile p : wanted) {
      boolean placed = false;
      for (int g = firstMig; g < count && !placed; g++) {
        List<MigSlice> layout = out.computeIfAbsent(g, x -> new ArrayList<>());
        for (int start : p.allowedStarts()) {
          layout.add(new MigSlice(p.name(), start));
          if (MigLayout.check(geometry, layout).isEmpty()) {
            placed = true;
            break;
          }
          layout.remove(layout.size() - 1);
        }
      }
      if (!placed) {
        return "its MIG instances " + instances + " do not fit the " + (count - firstMig) + " GPU(s) not advertised as whole "
            + KubeJson.GPU + " (" + geometry.name() + " geometry)";
      }
    }
    out.values().removeIf(List::isEmpty);
    return null;
  }

  public static String gpuId(String node, int index) {
    return node + "/gpu" + index;
  }

  /** The RAMPA cluster; empty when no node has usable GPUs. */
  public Optional<Cluster> cluster() {
    return cluster;
  }

  /**
   * Cordoned nodes ({@code spec.unschedulable}). They stay in the cluster, so the gangs and pods
   * already on them keep their GPUs, but nothing new is planned there.
   */
  public Set<String> cordoned() {
    return cordoned;
  }

  /** Nodes left out, with why. */
  public Map<String, String> problems() {
    return problems;
  }

  /** The empty ledger of this cluster with its MIG layouts configured. */
  public ClusterState emptyState() {
    // one build checks every layout once; configureMig per GPU would re-check all earlier ones each time
    return ImmutableClusterState.builder().cluster(cluster.orElseThrow()).migLayouts(migLayouts).build();
  }
}
