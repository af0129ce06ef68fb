package org.rampa.domain;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;
import org.rampa.catalog.SharingCatalog;

/**
 * Who holds what in a cluster: an immutable ledger of {@link Allocation}s, keyed by service id.
 *
 * <p>Each GPU can carry several holdings as long as their shares sum to at most 1 and their memory
 * fits, so exclusive GPUs (share 1) and spatial sharing use one ledger. {@link #allocate} and
 * {@link #release} return new states; a refused allocation throws and leaves nothing changed.
 * {@link #version()} counts the changes, for optimistic concurrency ({@link ClusterStateHolder}).
 */
@Value.Immutable
@JsonSerialize(as = ImmutableClusterState.class)
@JsonDeserialize(as = ImmutableClusterState.class)
public abstract class ClusterState {

  /** Tolerance for shares that should sum to exactly 1 (three thirds, say). */
  static final double SHARE_EPSILON = 1e-9;

  public abstract Cluster cluster();

  public abstract Map<String, Allocation> allocations();

  @Value.Default
  public long version() {
    return 0;
  }

  public static ClusterState empty(Cluster cluster) {
    return ImmutableClusterState.builder().cluster(cluster).build();
  }

  /** Total share and memory held on each GPU that has any holding. */
  @Value.Lazy
  @JsonIgnore
  protected Map<String, Usage> usage() {
    Map<String, Usage> usage = new HashMap<>();
    for (Allocation a : allocations().values()) {
      for (Holding h : a.holdings()) {
        usage.merge(h.gpu(), new Usage(computeFraction(h), h.memoryBytes()), Usage::plus);
      }
    }
    return Collections.unmodifiableMap(usage);
  }

  /** The fraction of its GPU's compute {@code holding} takes. */
  public final double computeFraction(Holding holding) {
    return holding.placement().computeFraction(SharingCatalog.standard().partitioningFor(cluster().typeOf(holding.gpu())));
  }

  /** Fraction of the GPU's compute not held by anyone, in [0, 1]. */
  public final double freeShare(String gpuId) {
    Usage u = usage().get(gpuId);
    return u == null ? 1.0 : Math.max(0, 1.0 - u.share);
  }

  public final long freeMemoryBytes(String gpuId) {
    Usage u = usage().get(gpuId);
    long total = cluster().typeOf(gpuId).memoryBytes();
    return u == null ? total : total - u.memoryBytes;
  }

  /** True when nobody holds any part of the GPU. */
  public final boolean isFree(String gpuId) {
    return !usage().containsKey(gpuId);
  }

  /** Completely free GPUs, in cluster order (as {@link #capacity()} offers them today). */
  public final List<Gpu> freeGpus() {
    return capacity().gpus();
  }

  /** What a new service can use here: the view strategies and importance models ask. */
  @Value.Lazy
  @JsonIgnore
  public Capacity capacity() {
    return Capacity.of(this);
  }

  public final boolean holds(String serviceId) {
    return allocations().containsKey(serviceId);
  }

  /** Why {@code plan} cannot be allocated here; empty when it can. */
  public final List<String> conflicts(Plan plan) {
    return conflicts(Allocation.of(plan));
  }

  /** Why {@code allocation} cannot be added here; empty when it can. */
  public final List<String> conflicts(Allocation allocation) {
    List<String> conflicts = new ArrayList<>();
    if (holds(allocation.serviceId())) {
      conflicts.add("service \"" + allocation.serviceId() + "\" already holds resources; release it first");
    }
    Map<String, Usage> wanted = new LinkedHashMap<>();
    for (Holding h : allocation.holdings()) {
      if (!cluster().hasGpu(h.gpu())) {
        conflicts.add("GPU \"" + h.gpu() + "\" is not in the cluster");
        continue;
      }
      wanted.merge(h.gpu(), new Usage(computeFraction(h), h.memoryBytes()), Usage::plus);
    }
    wanted.forEach((gpu, w) -> {
      Usage held = usage().getOrDefault(gpu, Usage.NONE);
      if (held.share + w.share > 1 + SHARE_EPSILON) {
        conflicts.add(String.format(
            "GPU \"%s\": %.3f of it is held already, the plan asks for %.3f more", gpu, held.share, w.share));
      }
      long capacity = cluster().typeOf(gpu).memoryBytes();
      if (held.memoryBytes + w.memoryBytes > capacity) {
        conflicts.add(String.format(
            "GPU \"%s\": memory %d B held + %d B asked > %d B capacity", gpu, held.memoryBytes, w.memoryBytes, capacity));
      }
    });
    return conflicts;
  }

  /** A new state in which {@code plan}'s service holds what the plan needs. */
  public final ClusterState allocate(Plan plan) {
    return allocate(Allocation.of(plan));
  }

  /**
   * A new state in which {@code allocation}'s service holds its holdings; refused (nothing
   * changed) when the service holds something already or a GPU would be over-committed.
   */
  public final ClusterState allocate(Allocation allocation) {
    List<String> conflicts = conflicts(allocation);
    if (!conflicts.isEmpty()) {
      throw new AllocationRefusedException(allocation.serviceId(), conflicts);
    }
    return ImmutableClusterState.builder()
        .cluster(cluster())
        .putAllAllocations(allocations())
        .putAllocations(allocation.serviceId(), allocation)
        .version(version() + 1)
        .build();
  }

  /**
   * A new state in which every plan's service holds what its plan needs, in one step: all of them
   * or, if any conflicts with the state or with another of the plans, none.
   */
  public final ClusterState allocateAll(java.util.Collection<Plan> plans) {
    ClusterState probe = this;
    var builder = ImmutableClusterState.builder().cluster(cluster()).putAllAllocations(allocations());
    Map<String, Allocation> added = new LinkedHashMap<>();
    for (Plan plan : plans) {
      if (added.containsKey(plan.serviceId()) || holds(plan.serviceId())) {
        throw new AllocationRefusedException(plan.serviceId(), List.of("the service already holds resources or appears twice"));
      }
      added.put(plan.serviceId(), Allocation.of(plan));
    }
    builder.putAllAllocations(added).version(version() + 1);
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      // the combined ledger over-commits a GPU: find the first plan that does, for the message
      for (Plan plan : plans) {
        List<String> conflicts = probe.conflicts(plan);
        if (!conflicts.isEmpty()) {
          throw new AllocationRefusedException(plan.serviceId(), conflicts);
        }
        probe = probe.allocate(plan);
      }
      throw e;
    }
  }

  /** A new state without {@code serviceId}'s holdings. */
  public final ClusterState release(String serviceId) {
    if (!holds(serviceId)) {
      throw Invalid.value(
          "serviceId", serviceId, "holds nothing in this cluster state",
          "it was never admitted, was released already, or the state is an older version");
    }
    Map<String, Allocation> rest = new LinkedHashMap<>(allocations());
    rest.remove(serviceId);
    return ImmutableClusterState.builder().cluster(cluster()).allocations(rest).version(version() + 1).build();
  }

  @Value.Check
  protected void check() {
    allocations().forEach((id, a) -> {
      if (!id.equals(a.serviceId())) {
        throw Invalid.value("clusterState.allocations[" + id + "].serviceId", a.serviceId(), "must equal its key");
      }
    });
    usage().forEach((gpu, u) -> {
      if (!cluster().hasGpu(gpu)) {
        throw Invalid.value("clusterState.holdings.gpu", gpu, "is not in the cluster");
      }
      if (u.share > 1 + SHARE_EPSILON || u.memoryBytes > cluster().typeOf(gpu).memoryBytes()) {
        throw Invalid.value("clusterState.holdings[" + gpu + "]", u, "over-commits the GPU (share > 1 or memory > capacity)");
      }
    });
  }

  /** Share and memory held on one GPU. */
  protected static final class Usage {
    static final Usage NONE = new Usage(0, 0);
    final double share;
    final long memoryBytes;

    Usage(double share, long memoryBytes) {
      this.share = share;
      this.memoryBytes = memoryBytes;
    }

    Usage plus(Usage o) {
      return new Usage(share + o.share, memoryBytes + o.memoryBytes);
    }

    @Override
    public String toString() {
      return "share " + share + ", memory " + memoryBytes + " B";
    }
  }
}
