package org.rampa.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * ({@link org.rampa.strategy.SharedSlotMenu}). Immutable; obtain it from {@link ClusterState#capacity()}.
 */
public final class Capacity {

  private final List<Gpu> gpus;
  private final Set<String> ids;
  private final Map<String, Integer> countByType;
  private final Map<String, Map<String, List<Gpu>>> byTypeAndNode;
  private final Map<String, Double> freeMpsShares;
  private final Map<String, List<MigSlice>> freeMigInstances;
  private final Map<String, Integer> freeTemplateCores;

  private Capacity(List<Gpu> gpus, Map<String, Integer> countByType, Map<String, Map<String, List<Gpu>>> byTypeAndNode,
      Map<String, Double> freeMpsShares, Map<String, List<MigSlice>> freeMigInstances, Map<String, Integer> freeTemplateCores) {
    this.gpus = gpus;
    this.freeMpsShares = freeMpsShares;
    this.freeMigInstances = freeMigInstances;
    this.freeTemplateCores = freeTemplateCores;
    this.ids = new HashSet<>();
    gpus.forEach(g -> ids.add(g.id()));
    this.countByType = countByType;
    this.byTypeAndNode = byTypeAndNode;
  }

  static Capacity of(ClusterState state) {
    Cluster cluster = state.cluster();
    List<Gpu> gpus = new ArrayList<>();
    Map<String, Map<String, List<Gpu>>> grouped = new LinkedHashMap<>();
    for (GpuType t : cluster.gpuTypes()) {
      grouped.put(t.name(), new LinkedHashMap<>());
    }
    Map<String, Double> mps = new LinkedHashMap<>();
    Map<String, List<MigSlice>> mig = new LinkedHashMap<>();
    Map<String, Integer> templates = new LinkedHashMap<>();
    for (Gpu g : cluster.gpus()) {
      switch (state.mode(g.id())) {
        case FREE -> {
          gpus.add(g);
          grouped.get(g.type()).computeIfAbsent(g.node(), n -> new ArrayList<>()).add(g);
        }
        case MPS -> {
          double free = 1 + state.mpsOvercommit();
          for (Holding h : state.holdingsOn(g.id())) {
            free -= state.computeFraction(h);
          }
          if (free > 0) {
            mps.put(g.id(), free);
          }
        }
        case MIG -> {
          List<MigSlice> rest = new ArrayList<>(state.migLayout(g.id()));
          state.holdingsOn(g.id()).forEach(h -> rest.remove(GpuRules.instance(h.placement())));
          if (!rest.isEmpty()) {
            mig.put(g.id(), List.copyOf(rest));
          }
        }
        case TEMPLATES -> {
          GpuPartitioning parts = state.partitioning(g.id());
          int free = parts.npuCores();
          for (Holding h : state.holdingsOn(g.id())) {
            free -= parts.template(((TemplatePartition) h.placement()).template()).cores();
          }
          if (free > 0) {
            templates.put(g.id(), free);
          }
        }
        default -> {
          // an exclusive GPU offers nothing a new stage could take
        }
      }
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, Map<String, List<Gpu>>> frozen = new LinkedHashMap<>();
    grouped.forEach((type, byNode) -> {
      if (byNode.isEmpty()) {
        return;
      }
      Map<String, List<Gpu>> nodes = new LinkedHashMap<>();
      byNode.forEach((node, list) -> nodes.put(node, List.copyOf(list)));
      frozen.put(type, Collections.unmodifiableMap(nodes));
      counts.put(type, byNode.values().stream().mapToInt(List::size).sum());
    });
    return new Capacity(List.copyOf(gpus), Collections.unmodifiableMap(counts), Collections.unmodifiableMap(frozen),
        Collections.unmodifiableMap(mps), Collections.unmodifiableMap(mig), Collections.unmodifiableMap(templates));
  }

  /** The GPUs a new stage may take whole, in cluster order. */
  public List<Gpu> gpus() {
    return gpus;
  }

  /** True when a new stage may take {@code gpuId} whole. */
  public boolean contains(String gpuId) {
    return ids.contains(gpuId);
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
    return byTypeAndNode;
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
