package org.rampa.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.TemplatePartition;

/**
 * What a new service can use in a cluster state, derived from its ledger once: the one view that
 * strategies and importance models ask, instead of reading the ledger and each assuming "a
 * completely free GPU" on its own: the GPUs a new stage may take whole (nobody holds any part of
 * them and they have no MIG layout), grouped by type and node, and besides them the free compute
 * of GPUs in MPS mode, the free instances of MIG layouts and the free cores of NPUs partitioned by
 * templates. Strategies use the whole GPUs, and with sharing on also the rest
 * ({@code org.rampa.strategy.support.SharedSlotMenu}). Immutable; obtain it from {@link ClusterState#capacity()}.
 */
public final class Capacity {

  private final Cluster cluster;
  /** By cluster position: may a new stage take the GPU whole? */
  private final boolean[] free;
  private final List<Gpu> gpus;
  private final Map<String, Integer> countByType;
  private volatile Map<String, Map<String, List<Gpu>>> byTypeAndNode;
  private final Map<String, Double> freeMpsShares;
  private final Map<String, List<MigSlice>> freeMigInstances;
  private final Map<String, Integer> freeTemplateCores;

  private Capacity(Cluster cluster, boolean[] free, List<Gpu> gpus, Map<String, Integer> countByType, Map<String, Double> freeMpsShares,
      Map<String, List<MigSlice>> freeMigInstances, Map<String, Integer> freeTemplateCores) {
    this.cluster = cluster;
    this.free = free;
    this.gpus = gpus;
    this.countByType = countByType;
    this.freeMpsShares = freeMpsShares;
    this.freeMigInstances = freeMigInstances;
    this.freeTemplateCores = freeTemplateCores;
  }

  static Capacity of(ClusterState state) {
    Cluster cluster = state.cluster();
    boolean[] free = new boolean[cluster.gpus().size()];
    Map<String, Double> mps = new LinkedHashMap<>();
    Map<String, List<MigSlice>> mig = new LinkedHashMap<>();
    Map<String, Integer> templates = new LinkedHashMap<>();
    List<Gpu> all = cluster.gpus();
    for (int i = 0; i < all.size(); i++) {
      offer(state, all.get(i).id(), i, free, mps, mig, templates);
    }
    return build(cluster, free, frozen(mps), frozen(mig), frozen(templates));
  }

  /**
   * The capacity of {@code state}, which differs from the state this capacity was derived from only
   * on {@code touchedGpus}: equal to {@link #of} on it, at the cost of those GPUs and one scan of a
   * flag per GPU rather than a ledger lookup per GPU.
   */
  Capacity updated(ClusterState state, List<String> touchedGpus) {
    boolean[] nextFree = free.clone();
    boolean sharedChanged = false;
    for (String id : touchedGpus) {
      int i = cluster.indexOf(id);
      nextFree[i] = false;
      sharedChanged |= freeMpsShares.containsKey(id) || freeMigInstances.containsKey(id) || freeTemplateCores.containsKey(id);
    }
    Map<String, Double> mps = new LinkedHashMap<>();
    Map<String, List<MigSlice>> mig = new LinkedHashMap<>();
    Map<String, Integer> templates = new LinkedHashMap<>();
    for (String id : touchedGpus) {
      offer(state, id, cluster.indexOf(id), nextFree, mps, mig, templates);
    }
    if (!sharedChanged && mps.isEmpty() && mig.isEmpty() && templates.isEmpty()) {
      // only whole GPUs changed hands: the shared offers stay as they were
      return build(cluster, nextFree, freeMpsShares, freeMigInstances, freeTemplateCores);
    }
    // rare for whole-GPU work: rebuild the shared offers in cluster order from the old ones and the touched GPUs
    java.util.Set<String> touched = new java.util.HashSet<>(touchedGpus);
    java.util.TreeMap<Integer, String> ids = new java.util.TreeMap<>();
    for (String id : freeMpsShares.keySet()) {
      ids.put(cluster.indexOf(id), id);
    }
    for (String id : freeMigInstances.keySet()) {
      ids.put(cluster.indexOf(id), id);
    }
    for (String id : freeTemplateCores.keySet()) {
      ids.put(cluster.indexOf(id), id);
    }
    for (String id : touchedGpus) {
      ids.put(cluster.indexOf(id), id);
    }
    Map<String, Double> mpsAll = new LinkedHashMap<>();
    Map<String, List<MigSlice>> migAll = new LinkedHashMap<>();
    Map<String, Integer> templatesAll = new LinkedHashMap<>();
    for (String id : ids.values()) {
      if (touched.contains(id)) {
        copyIfPresent(mps, mpsAll, id);
        copyIfPresent(mig, migAll, id);
        copyIfPresent(templates, templatesAll, id);
      } else {
        copyIfPresent(freeMpsShares, mpsAll, id);
        copyIfPresent(freeMigInstances, migAll, id);
        copyIfPresent(freeTemplateCores, templatesAll, id);
      }
    }
    return build(cluster, nextFree, frozen(mpsAll), frozen(migAll), frozen(templatesAll));
  }

  private static <V> void copyIfPresent(Map<String, V> from, Map<String, V> to, String id) {
    V v = from.get(id);
    if (v != null) {
      to.put(id, v);
    }
  }

  /** Records what GPU {@code id} at position {@code i} offers a new stage in {@code state}. */
  private static void offer(ClusterState state, String id, int i, boolean[] free, Map<String, Double> mps, Map<String, List<MigSlice>> mig,
      Map<String, Integer> templates) {
    switch (state.mode(id)) {
      case FREE -> free[i] = true;
      case MPS -> {
        double left = 1 + state.mpsOvercommit();
        for (Holding h : state.holdingsOn(id)) {
          left -= state.computeFraction(h);
        }
        if (left > 0) {
          mps.put(id, left);
        }
      }
      case MIG -> {
        List<MigSlice> rest = new ArrayList<>(state.migLayout(id));
        state.holdingsOn(id).forEach(h -> rest.remove(GpuRules.instance(h.placement())));
        if (!rest.isEmpty()) {
          mig.put(id, List.copyOf(rest));
        }
      }
      case TEMPLATES -> {
        GpuPartitioning parts = state.partitioning(id);
        int left = parts.npuCores();
        for (Holding h : state.holdingsOn(id)) {
          left -= parts.template(((TemplatePartition) h.placement()).template()).cores();
        }
        if (left > 0) {
          templates.put(id, left);
        }
      }
      default -> {
        // an exclusive GPU offers nothing a new stage could take
      }
    }
  }

  private static <V> Map<String, V> frozen(Map<String, V> map) {
    return Collections.unmodifiableMap(map);
  }

  /** A capacity of these flags and (unmodifiable) shared offers; the free GPUs and counts are read off the flags. */
  private static Capacity build(Cluster cluster, boolean[] free, Map<String, Double> mps, Map<String, List<MigSlice>> mig,
      Map<String, Integer> templates) {
    List<Gpu> all = cluster.gpus();
    List<Gpu> gpus = new ArrayList<>();
    int[] perType = new int[cluster.gpuTypes().size()];
    Map<String, Integer> typeIndex = new java.util.HashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      typeIndex.put(t.name(), typeIndex.size());
    }
    String lastType = null;
    int lastIndex = -1;
    for (int i = 0; i < free.length; i++) {
      if (free[i]) {
        Gpu g = all.get(i);
        gpus.add(g);
        // GPUs of a type mostly come in runs: look the type up when it changes
        if (!g.type().equals(lastType)) {
          lastType = g.type();
          lastIndex = typeIndex.get(lastType);
        }
        perType[lastIndex]++;
      }
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      int n = perType[typeIndex.get(t.name())];
      if (n > 0) {
        counts.put(t.name(), n);
      }
    }
    return new Capacity(cluster, free, List.copyOf(gpus), Collections.unmodifiableMap(counts), mps, mig, templates);
  }

  /** The GPUs a new stage may take whole, in cluster order. */
  public List<Gpu> gpus() {
    return gpus;
  }

  /** True when a new stage may take {@code gpuId} whole. */
  public boolean contains(String gpuId) {
    int i = cluster.indexOf(gpuId);
    return i >= 0 && free[i];
  }

  /** True when a new stage may take the GPU at position {@code clusterIndex} of the cluster's GPUs whole. */
  public boolean containsAt(int clusterIndex) {
    return free[clusterIndex];
  }

  /** How many nodes have a GPU a new stage may take whole. */
  public int nodeCount() {
    boolean[] seen = new boolean[cluster.nodes().size()];
    int[] nodeOf = cluster.nodePositions();
    int nodes = 0;
    for (int i = 0; i < free.length; i++) {
      if (free[i]) {
        int n = nodeOf[i];
        if (!seen[n]) {
          seen[n] = true;
          nodes++;
        }
      }
    }
    return nodes;
  }

  /** How many GPUs a new stage may take, of all types. */
  public int count() {
    return gpus.size();
  }

  /** How many GPUs of type {@code type} a new stage may take (0 for a type with none). */
  public int count(String type) {
    return countByType.getOrDefault(type, 0);
  }

  /** Per type that has any, in the cluster's type order, how many GPUs a new stage may take. */
  public Map<String, Integer> countByType() {
    return countByType;
  }

  /**
   * Per type that has any (cluster type order), per node that has some of it (in the order the
   * cluster lists its GPUs), the GPUs a new stage may take, in cluster order.
   */
  public Map<String, Map<String, List<Gpu>>> byTypeAndNode() {
    Map<String, Map<String, List<Gpu>>> grouped = byTypeAndNode;
    if (grouped == null) {
      // built on first use: the strategies that ask for it are the sharing ones
      Map<String, Map<String, List<Gpu>>> byType = new LinkedHashMap<>();
      for (GpuType t : cluster.gpuTypes()) {
        byType.put(t.name(), new LinkedHashMap<>());
      }
      for (Gpu g : gpus) {
        byType.get(g.type()).computeIfAbsent(g.node(), n -> new ArrayList<>()).add(g);
      }
      Map<String, Map<String, List<Gpu>>> frozen = new LinkedHashMap<>();
      byType.forEach((type, byNode) -> {
        if (!byNode.isEmpty()) {
          Map<String, List<Gpu>> nodes = new LinkedHashMap<>();
          byNode.forEach((node, list) -> nodes.put(node, List.copyOf(list)));
          frozen.put(type, Collections.unmodifiableMap(nodes));
        }
      });
      grouped = Collections.unmodifiableMap(frozen);
      byTypeAndNode = grouped;
    }
    return grouped;
  }

  /**
   * GPUs in MPS mode with compute left, in cluster order: the compute fraction a new MPS share or
   * CU mask may still take ({@code 1 + overcommit} less what is held).
   */
  public Map<String, Double> freeMpsShares() {
    return freeMpsShares;
  }

  /** GPUs in MIG mode with unheld instances of their layout, in cluster order: those instances. */
  public Map<String, List<MigSlice>> freeMigInstances() {
    return freeMigInstances;
  }

  /**
   * NPUs partitioned by templates with cores left, in cluster order: the AI cores a new template
   * may still take (the card's cores less those of the held templates).
   */
  public Map<String, Integer> freeTemplateCores() {
    return freeTemplateCores;
  }
}
