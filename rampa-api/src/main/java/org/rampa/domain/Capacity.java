package org.rampa.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigLayout;
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
  /** Counts of the flags: per type position, per node position, nodes with any, all. */
  private final int[] freeByType;
  private final int[] freeByNode;
  private final int nodesWithFree;
  private final int total;
  private final Map<String, Integer> countByType;
  /** Built on first use: a successor state asks for counts, not for a list of thousands of free GPUs. */
  private volatile List<Gpu> gpus;
  private volatile Map<String, Map<String, List<Gpu>>> byTypeAndNode;
  private final Map<String, Double> freeMpsShares;
  private final Map<String, List<MigSlice>> freeMigInstances;
  private final Map<String, Integer> freeTemplateCores;

  private Capacity(Cluster cluster, boolean[] free, int[] freeByType, int[] freeByNode, Map<String, Double> freeMpsShares,
      Map<String, List<MigSlice>> freeMigInstances, Map<String, Integer> freeTemplateCores) {
    this.cluster = cluster;
    this.free = free;
    this.freeByType = freeByType;
    this.freeByNode = freeByNode;
    int nodes = 0;
    for (int n : freeByNode) {
      nodes += n > 0 ? 1 : 0;
    }
    this.nodesWithFree = nodes;
    int all = 0;
    Map<String, Integer> counts = new LinkedHashMap<>();
    List<GpuType> types = cluster.gpuTypes();
    for (int t = 0; t < types.size(); t++) {
      all += freeByType[t];
      if (freeByType[t] > 0) {
        counts.put(types.get(t).name(), freeByType[t]);
      }
    }
    this.total = all;
    this.countByType = Collections.unmodifiableMap(counts);
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
    int[] byType = new int[cluster.gpuTypes().size()];
    int[] byNode = new int[cluster.nodes().size()];
    int[] typeOf = cluster.typePositionsView();
    int[] nodeOf = cluster.nodePositionsView();
    for (int i = 0; i < free.length; i++) {
      if (free[i]) {
        byType[typeOf[i]]++;
        byNode[nodeOf[i]]++;
      }
    }
    return new Capacity(cluster, free, byType, byNode, frozen(mps), frozen(mig), frozen(templates));
  }

  /**
   * The capacity of {@code state}, which differs from the state this capacity was derived from only
   * on {@code touchedGpus}: equal to {@link #of} on it, at the cost of those GPUs and one scan of a
   * flag per GPU rather than a ledger lookup per GPU.
   */
  Capacity updated(ClusterState state, List<String> touchedGpus) {
    boolean[] nextFree = free.clone();
    int[] byType = freeByType.clone();
    int[] byNode = freeByNode.clone();
    int[] nodeOf = cluster.nodePositionsView();
    int[] typeOf = cluster.typePositionsView();
    boolean sharedChanged = false;
    // a GPU may be listed more than once (several changes since the predecessor): each flag and count moves once
    for (String id : touchedGpus) {
      int i = cluster.indexOf(id);
      if (nextFree[i]) {
        nextFree[i] = false;
        byType[typeOf[i]]--;
        byNode[nodeOf[i]]--;
      }
      sharedChanged |= freeMpsShares.containsKey(id) || freeMigInstances.containsKey(id) || freeTemplateCores.containsKey(id);
    }
    Map<String, Double> mps = new LinkedHashMap<>();
    Map<String, List<MigSlice>> mig = new LinkedHashMap<>();
    Map<String, Integer> templates = new LinkedHashMap<>();
    for (String id : touchedGpus) {
      int i = cluster.indexOf(id);
      if (!nextFree[i]) {
        offer(state, id, i, nextFree, mps, mig, templates);
        if (nextFree[i]) {
          byType[typeOf[i]]++;
          byNode[nodeOf[i]]++;
        }
      }
    }
    if (!sharedChanged && mps.isEmpty() && mig.isEmpty() && templates.isEmpty()) {
      // only whole GPUs changed hands: the shared offers stay as they were
      return new Capacity(cluster, nextFree, byType, byNode, freeMpsShares, freeMigInstances, freeTemplateCores);
    }
    // rare for whole-GPU work: rebuild the shared offers in cluster order from the old ones and the touched GPUs
    int[] positions = touchedGpus.stream().mapToInt(cluster::indexOf).distinct().sorted().toArray();
    return new Capacity(cluster, nextFree, byType, byNode, frozen(merged(cluster, freeMpsShares, mps, positions)),
        frozen(merged(cluster, freeMigInstances, mig, positions)), frozen(merged(cluster, freeTemplateCores, templates, positions)));
  }

  /**
   * The offers of one kind after a change, in cluster order: {@code old}'s (in cluster order) for
   * the GPUs not touched, {@code now}'s for those at the {@code touched} positions (ascending). One
   * merge of the two orders: each old entry is looked up once, instead of sorting every GPU with an
   * offer and looking each up in all three maps (that was most of a derived capacity on a
   * 1000-GPU cluster whose shared offers changed).
   */
  private static <V> Map<String, V> merged(Cluster cluster, Map<String, V> old, Map<String, V> now, int[] touched) {
    Map<String, V> out = new LinkedHashMap<>();
    int t = 0;
    for (Map.Entry<String, V> e : old.entrySet()) {
      int i = cluster.indexOf(e.getKey());
      for (; t < touched.length && touched[t] < i; t++) {
        copyIfPresent(now, out, cluster.gpus().get(touched[t]).id());
      }
      if (t < touched.length && touched[t] == i) {
        copyIfPresent(now, out, e.getKey());
        t++;
      } else {
        out.put(e.getKey(), e.getValue());
      }
    }
    for (; t < touched.length; t++) {
      copyIfPresent(now, out, cluster.gpus().get(touched[t]).id());
    }
    return out;
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
        state.holdingsOn(id).forEach(h -> rest.remove(MigLayout.instanceOf(h.placement())));
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

  /** The GPUs a new stage may take whole, in cluster order. */
  public List<Gpu> gpus() {
    List<Gpu> list = gpus;
    if (list == null) {
      List<Gpu> all = cluster.gpus();
      Gpu[] out = new Gpu[total];
      int n = 0;
      for (int i = 0; i < free.length; i++) {
        if (free[i]) {
          out[n++] = all.get(i);
        }
      }
      list = List.of(out);
      gpus = list;
    }
    return list;
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
    return nodesWithFree;
  }

  /** How many GPUs a new stage may take, of all types. */
  public int count() {
    return total;
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
      for (Gpu g : gpus()) {
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
