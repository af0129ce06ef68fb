package org.rampa.examples.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Holding;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.SharingOptions;

/**
 * Fragmentation as capacity nobody can use: of the free capacity of a cluster state, in
 * GPU-equivalents, the part on which no service class of the workload could be served. A free piece
 * is a free whole GPU, the compute an MPS GPU has left, or an unheld instance of a MIG layout (its
 * {@link Placement#shareEquivalent share equivalent}); it is usable when some class, its whole model
 * as one stage with one replica on that piece alone, meets its SLO and fits its memory. On an MPS
 * GPU the class may take one of the share levels of the planners' menu
 * ({@link org.rampa.strategy.SharingOptions#mpsLevels()}) that fits the compute left, as the
 * planners do ({@link org.rampa.strategy.support.SharedSlotMenu}): 1/6 of a GPU left beside shares of 1/2
 * and 1/3 is stranded under the default levels 1/2, 1/3, 1/4, however small the classes.
 *
 * <p>The test is deliberately simple and says so in both directions: a pipeline could put one
 * stage on a piece too small for the whole model (so some capacity counted as stranded is not), and
 * interference from the piece's co-runners is ignored (so some counted as usable is not). It is the
 * same test for whole GPUs and for parts of GPUs, so sharing off and on are measured alike.
 *
 * <p>Thread-safe: the simulations of one experiment share one instance.
 */
public final class StrandedCapacity {

  /** Free and stranded GPU-equivalents of one state. */
  public record Sample(double freeGpuEquivalents, double strandedGpuEquivalents) {}

  /** Shares are searched to this precision; the smallest usable share is rounded up to it. */
  private static final double SHARE_RESOLUTION = 1.0 / 1024;

  /** What one class needs on an MPS share of one GPU type: at least this compute and this memory. */
  private record MpsNeed(double share, long memoryBytes) {}

  private final Cluster cluster;
  private final Map<String, Boolean> wholeUsable = new HashMap<>();
  private final Map<String, List<MpsNeed>> mpsNeeds = new HashMap<>();
  private final Map<String, Boolean> migUsable = new java.util.concurrent.ConcurrentHashMap<>();
  private final List<ServiceRequest> classes = new ArrayList<>();
  private final Map<String, String> gpuOfType = new LinkedHashMap<>();
  private final PerformanceModel performance = PerformanceModel.defaults();
  private final List<Double> mpsLevels;
  private final Map<String, Map<String, ClassNeed>> needs = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * What one class needs, alone, on one GPU of a type, by the same test as the sample: the smallest
   * MPS menu level that serves it (NaN when none does, or the type has no MPS) with the memory its
   * model takes there, the MIG profiles that serve it, and the smallest of these pieces in
   * GPU-equivalents (1: only the whole GPU).
   */
  public record ClassNeed(double mpsLevel, long memoryBytes, List<String> migProfiles, double smallestPiece) {}

  /** The test for {@code workload}'s classes on {@code cluster} with the default MPS levels. */
  public StrandedCapacity(Cluster cluster, WorkloadForecast workload) {
    this(cluster, workload, SharingOptions.DEFAULT_MPS_LEVELS);
  }

  /**
   * The test for {@code workload}'s classes on {@code cluster}, MPS shares taken at {@code mpsLevels}
   * (fractions in (0, 1)); the per-type answers are computed once.
   */
  public StrandedCapacity(Cluster cluster, WorkloadForecast workload, List<Double> mpsLevels) {
    this.cluster = cluster;
    this.mpsLevels = List.copyOf(mpsLevels);
    for (ServiceClass c : workload.classes()) {
      classes.add(c.template());
    }
    for (Gpu g : cluster.gpus()) {
      gpuOfType.putIfAbsent(g.type(), g.id());
    }
    for (GpuType t : cluster.gpuTypes()) {
      String gpu = gpuOfType.get(t.name());
      if (gpu == null) {
        continue;
      }
      GpuPartitioning partitioning = ClusterState.empty(cluster).partitioning(gpu);
      wholeUsable.put(t.name(), classes.stream().anyMatch(r -> serves(r, gpu, new Whole(), t.memoryBytes())));
      List<MpsNeed> needs = new ArrayList<>();
      if (partitioning.mps()) {
        for (ServiceRequest r : classes) {
          smallestShare(r, gpu, t).ifPresent(needs::add);
        }
      }
      mpsNeeds.put(t.name(), needs);
    }
  }

  /** The MPS menu levels the test takes shares at. */
  public List<Double> mpsLevels() {
    return mpsLevels;
  }

  /** The free and stranded capacity of {@code state}. */
  public Sample sample(ClusterState state) {
    double free = 0;
    double stranded = 0;
    var capacity = state.capacity();
    for (Gpu g : capacity.gpus()) {
      free += 1;
      stranded += wholeUsable.getOrDefault(g.type(), false) ? 0 : 1;
    }
    for (Map.Entry<String, Double> e : capacity.freeMpsShares().entrySet()) {
      double share = Math.min(1, e.getValue());
      free += share;
      stranded += usableOnMps(state, e.getKey(), share) ? 0 : share;
    }
    for (Map.Entry<String, List<MigSlice>> e : capacity.freeMigInstances().entrySet()) {
      GpuPartitioning partitioning = state.partitioning(e.getKey());
      for (MigSlice slice : e.getValue()) {
        double equivalent = Math.min(1, slice.shareEquivalent(partitioning));
        free += equivalent;
        stranded += usableOnMig(state, e.getKey(), slice) ? 0 : equivalent;
      }
    }
    return new Sample(free, stranded);
  }

  /**
   * Per GPU type of the cluster that can serve {@code r} (a class of the workload) alone on one GPU,
   * what it needs there; a type left out cannot, and a class no type serves needs a pipeline over
   * several GPUs. Computed once per class.
   */
  public Map<String, ClassNeed> needs(ServiceRequest r) {
    return needs.computeIfAbsent(r.id(), k -> {
      Map<String, ClassNeed> out = new LinkedHashMap<>();
      for (GpuType t : cluster.gpuTypes()) {
        String gpu = gpuOfType.get(t.name());
        // a piece never serves what the whole GPU does not (less compute, less memory)
        if (gpu == null || !serves(r, gpu, new Whole(), t.memoryBytes())) {
          continue;
        }
        GpuPartitioning partitioning = ClusterState.empty(cluster).partitioning(gpu);
        double smallest = 1;
        double level = Double.NaN;
        long memory = modelMemory(r);
        if (partitioning.mps()) {
          java.util.Optional<MpsNeed> need = smallestShare(r, gpu, t);
          if (need.isPresent()) {
            for (double l : mpsLevels) {
              if (l + 1e-9 >= need.get().share() && !(l >= level)) {
                level = l;
              }
            }
          }
          smallest = Double.isNaN(level) ? smallest : Math.min(smallest, level);
        }
        List<String> profiles = new ArrayList<>();
        if (partitioning.mig().isPresent()) {
          var geometry = partitioning.mig().get();
          for (var p : geometry.profiles()) {
            if (!p.allowedStarts().isEmpty() && serves(r, gpu, new MigSlice(p.name(), p.allowedStarts().get(0)), p.memoryBytes())) {
              profiles.add(p.name());
              smallest = Math.min(smallest, geometry.shareEquivalent(p));
            }
          }
        }
        out.put(t.name(), new ClassNeed(level, memory, List.copyOf(profiles), smallest));
      }
      return java.util.Collections.unmodifiableMap(out);
    });
  }

  private boolean usableOnMps(ClusterState state, String gpu, double share) {
    GpuPartitioning p = state.partitioning(gpu);
    List<Holding> holdings = state.holdingsOn(gpu);
    if (holdings.size() >= p.mpsClientLimit()) {
      return false;
    }
    long held = 0;
    for (Holding h : holdings) {
      held += h.memoryBytes();
    }
    // every MPS client, the newcomer included, costs its context memory besides its reservation
    long left = p.memoryBytes() - held - (holdings.size() + 1L) * p.mpsProcessOverheadBytes();
    // the largest menu level the compute left allows: every class it serves, a smaller level would too
    double level = 0;
    for (double l : mpsLevels) {
      if (l <= share + 1e-9) {
        level = Math.max(level, l);
      }
    }
    for (MpsNeed need : mpsNeeds.getOrDefault(state.cluster().typeOf(gpu).name(), List.of())) {
      if (need.share() <= level + 1e-9 && need.memoryBytes() <= left) {
        return true;
      }
    }
    return false;
  }

  private boolean usableOnMig(ClusterState state, String gpu, MigSlice slice) {
    String type = state.cluster().typeOf(gpu).name();
    return migUsable.computeIfAbsent(type + "|" + slice.profile(), k -> {
      String sample = gpuOfType.get(type);
      long memory = slice.memoryBytes(state.partitioning(gpu));
      return classes.stream().anyMatch(r -> serves(r, sample, slice, memory));
    });
  }

  /** The smallest MPS share (to {@link #SHARE_RESOLUTION}) on which {@code r} alone meets its SLO, if any. */
  private java.util.Optional<MpsNeed> smallestShare(ServiceRequest r, String gpu, GpuType type) {
    long memory = modelMemory(r);
    if (!serves(r, gpu, new MpsShare(1, memory), type.memoryBytes())) {
      return java.util.Optional.empty();
    }
    // stage time falls as the share grows (every tier of the share-time model), so the usable shares form an interval up to 1
    double lo = 0;
    double hi = 1;
    while (hi - lo > SHARE_RESOLUTION) {
      double mid = (lo + hi) / 2;
      if (serves(r, gpu, new MpsShare(mid, memory), type.memoryBytes())) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return java.util.Optional.of(new MpsNeed(hi, memory));
  }

  private long modelMemory(ServiceRequest r) {
    return performance.stageMemoryBytes(r.model(), 0, r.model().size(), r.slo().batchSize());
  }

  /** True when {@code r}'s whole model, one replica on {@code placement} of {@code gpu}, fits {@code memory} and meets the SLO alone. */
  private boolean serves(ServiceRequest r, String gpu, Placement placement, long memory) {
    if (modelMemory(r) > memory) {
      return false;
    }
    StageAssignment stage = new StageAssignment(0, r.model().size(), List.of(gpu), placement);
    return SloPredicate.meets(performance.estimate(r, List.of(stage), cluster), r.slo());
  }
}
