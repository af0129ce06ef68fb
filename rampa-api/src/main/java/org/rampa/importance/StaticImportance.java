package org.rampa.importance;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;

/**
 * User-given weights per GPU type, optionally overridden per GPU; 1 for anything not named. The
 * names are checked against a cluster where one is known ({@link #requireNamesIn}, called by
 * {@code Rampa}'s planner, {@code PlacementProblem} and {@code ProblemDocument}): a misspelt type
 * would otherwise weigh 1.
 */
public final class StaticImportance implements ImportanceModel {

  /** The largest weight accepted: a plan's cost sums weights, and solvers need it finite and well-scaled. */
  public static final double MAX_WEIGHT = 1e9;

  private final Map<String, Double> byType;
  private final Map<String, Double> byGpu;

  private StaticImportance(Map<String, Double> byType, Map<String, Double> byGpu) {
    requireWeights("importance.byType", byType);
    requireWeights("importance.byGpu", byGpu);
    this.byType = Map.copyOf(byType);
    this.byGpu = Map.copyOf(byGpu);
  }

  private static void requireWeights(String field, Map<String, Double> weights) {
    Objects.requireNonNull(weights, field);
    weights.forEach((k, w) -> {
      if (k == null || w == null) {
        throw Invalid.value(field + "[" + k + "]", w, "names and weights must not be null");
      }
      if (!(w >= 0 && w <= MAX_WEIGHT)) {
        throw Invalid.value(field + "[" + k + "]", w, "must lie in [0, " + MAX_WEIGHT + "]", "weights are relative: scale them down");
      }
    });
  }

  /** Every GPU costs 1: the plan of fewest (whole) GPUs is the cheapest. */
  public static StaticImportance uniform() {
    return new StaticImportance(Map.of(), Map.of());
  }

  public static StaticImportance byType(Map<String, Double> weights) {
    return new StaticImportance(weights, Map.of());
  }

  /** These weights with some GPUs' weights overridden. */
  public StaticImportance withGpuWeights(Map<String, Double> weights) {
    Map<String, Double> merged = new HashMap<>(byGpu);
    merged.putAll(Objects.requireNonNull(weights, "importance.byGpu"));
    return new StaticImportance(byType, merged);
  }

  /** Throws naming the first weighted GPU type or GPU that {@code cluster} does not have. */
  public void requireNamesIn(Cluster cluster) {
    Set<String> types = new TreeSet<>(cluster.gpuTypes().stream().map(GpuType::name).toList());
    for (String t : new TreeSet<>(byType.keySet())) {
      if (!types.contains(t)) {
        throw Invalid.value("importance.byType[" + t + "]", byType.get(t), "the cluster has no GPU type " + t,
            "use one of " + types);
      }
    }
    // the cluster's own index, and sorting only to name the first missing GPU: a set of the cluster's GPU ids, or a
    // sorted copy of 1 000 per-GPU weights, made here cost a tenth of a short dp decision on every placement problem
    Optional<String> missing = byGpu.keySet().stream().filter(g -> !cluster.hasGpu(g)).min(Comparator.naturalOrder());
    if (missing.isPresent()) {
      throw Invalid.value("importance.byGpu[" + missing.get() + "]", byGpu.get(missing.get()), "the cluster has no GPU " + missing.get());
    }
  }

  @Override
  public String name() {
    return "static";
  }

  @Override
  public GpuCosts evaluate(ClusterState state) {
    return new GpuCosts() {
      @Override
      public double of(String gpu) {
        Double w = byGpu.get(gpu);
        return w != null ? w : byType.getOrDefault(state.cluster().gpu(gpu).type(), 1.0);
      }

      @Override
      public double ofGpu(Gpu gpu) {
        Double w = byGpu.isEmpty() ? null : byGpu.get(gpu.id());
        return w != null ? w : byType.getOrDefault(gpu.type(), 1.0);
      }

      @Override
      public OptionalDouble ofType(String type) {
        // a weight for a single GPU sets it apart from the rest of its type
        return byGpu.isEmpty() ? OptionalDouble.of(byType.getOrDefault(type, 1.0)) : OptionalDouble.empty();
      }
    };
  }
}
