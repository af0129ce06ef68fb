package org.rampa.solver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;

/**
 * Cheap necessary conditions checked before any solver runs, each a lower bound every plan must
 * meet. When one fails the request is infeasible on this state for a reason a scheduler engineer
 * can act on (free a larger GPU, relax the throughput, raise maxStages ...), and the message names
 * the numbers.
 */
final class FeasibilityPrechecks {
  private static final double GB = 1e9;

  private final ServiceRequest request;
  private final PerformanceModel performance;
  private final Model model;
  private final int batch;
  private final Slo slo;
  /** Free GPU count per free type, in cluster type order. */
  private final Map<GpuType, Integer> free = new LinkedHashMap<>();
  private final int totalGpus;

  FeasibilityPrechecks(ServiceRequest request, ClusterState state, PerformanceModel performance) {
    this.request = request;
    this.performance = performance;
    this.model = request.model();
    this.batch = request.slo().batchSize();
    this.slo = request.slo();
    Cluster cluster = state.cluster();
    this.totalGpus = cluster.gpus().size();
    for (GpuType t : cluster.gpuTypes()) {
      int n = 0;
      for (Gpu g : state.freeGpus()) {
        n += g.type().equals(t.name()) ? 1 : 0;
      }
      if (n > 0) {
        free.put(t, n);
      }
    }
  }

  /** The first failed check's explanation, or empty when every check passes. */
  Optional<String> firstFailure() {
    if (free.isEmpty()) {
      return Optional.of("no GPU is free: all " + totalGpus + " GPUs of the cluster are held, wholly or in part, "
          + "by other services (the exact planner uses only completely free GPUs)");
    }
    for (var check : List.<java.util.function.Supplier<Optional<String>>>of(
        this::memory, this::throughput, this::latencyFloor, this::gpuCount)) {
      Optional<String> failure = check.get();
      if (failure.isPresent()) {
        return failure;
      }
    }
    return Optional.empty();
  }

  private GpuType largestFree() {
    GpuType best = null;
    for (GpuType t : free.keySet()) {
      if (best == null || t.memoryBytes() > best.memoryBytes()) {
        best = t;
      }
    }
    return best;
  }

  /** Every layer must fit on some free GPU, and the model into maxStages of the largest ones. */
  private Optional<String> memory() {
    GpuType largest = largestFree();
    for (int l = 0; l < model.size(); l++) {
      long need = performance.stageMemoryBytes(model, l, l + 1, batch);
      if (need > largest.memoryBytes()) {
        return Optional.of(String.format(
            "layer %d (%s) alone needs %.2f GB at batch %d, but the largest free GPU (%s) has %.2f GB; "
                + "no stage can hold it", l, model.layer(l).name(), need / GB, batch, largest.name(), largest.memoryBytes() / GB));
      }
    }
    int stages = minimumStagesByMemory(largest.memoryBytes());
    if (stages > request.maxStages()) {
      return Optional.of(String.format(
          "the model needs %.2f GB at batch %d; on the largest free GPUs (%s, %.2f GB) that takes at least %d stages, "
              + "but maxStages is %d", performance.stageMemoryBytes(model, 0, model.size(), batch) / GB, batch,
          largest.name(), largest.memoryBytes() / GB, stages, request.maxStages()));
    }
    return Optional.empty();
  }

  /** Greedy packing into stages of {@code capacity} bytes: the fewest contiguous stages possible. */
  private int minimumStagesByMemory(long capacity) {
    int stages = 0;
    int from = 0;
    while (from < model.size()) {
      int to = from + 1;
      while (to < model.size() && performance.stageMemoryBytes(model, from, to + 1, batch) <= capacity) {
        to++;
      }
      stages++;
      from = to;
    }
    return stages;
  }

  private boolean meetsPeriod(double load) {
    return SloPredicate.meetsPeriod(load, slo);
  }

  /** Every layer's stage must reach the throughput with all free GPUs of some type as replicas. */
  private Optional<String> throughput() {
    for (int l = 0; l < model.size(); l++) {
      long need = performance.stageMemoryBytes(model, l, l + 1, batch);
      double best = 0;
      GpuType bestType = null;
      for (Map.Entry<GpuType, Integer> e : free.entrySet()) {
        if (need > e.getKey().memoryBytes()) {
          continue;
        }
        double seconds = performance.layerSeconds(model.layer(l), e.getKey(), batch);
        if (meetsPeriod(seconds / e.getValue())) {
          best = -1;
          break;
        }
        double reachable = batch * e.getValue() / seconds;
        if (reachable > best) {
          best = reachable;
          bestType = e.getKey();
        }
      }
      if (best >= 0 && bestType != null) {
        return Optional.of(String.format(
            "layer %d (%s) takes %.4g s per batch of %d on %s; even with all %d free %s GPUs as replicas, a stage "
                + "holding it sustains at most %.4g req/s < required %.4g req/s",
            l, model.layer(l).name(), performance.layerSeconds(model.layer(l), bestType, batch), batch, bestType.name(),
            free.get(bestType), bestType.name(), best, slo.requiredThroughput()));
      }
    }
    return Optional.empty();
  }

  /** Per-layer fastest compute time among free types whose memory holds the layer. */
  private double[] fastestLayerSeconds() {
    double[] fastest = new double[model.size()];
    for (int l = 0; l < model.size(); l++) {
      long need = performance.stageMemoryBytes(model, l, l + 1, batch);
      fastest[l] = Double.POSITIVE_INFINITY;
      for (GpuType t : free.keySet()) {
        if (need <= t.memoryBytes()) {
          fastest[l] = Math.min(fastest[l], performance.layerSeconds(model.layer(l), t, batch));
        }
      }
    }
    return fastest;
  }

  /** Latency is at least every layer on its fastest free type plus the batching wait. */
  private Optional<String> latencyFloor() {
    double compute = 0;
    for (double s : fastestLayerSeconds()) {
      compute += s;
    }
    double wait = slo.batchingWaitSeconds();
    double floor = compute + wait;
    double bound = slo.latencyBoundSeconds();
    if (!SloPredicate.meetsLatency(floor, slo)) {
      return Optional.of(String.format(
          "latency floor %.4g s > bound %.4g s: even with every layer on its fastest free GPU type and free transfers, "
              + "one batch of %d needs %.4g s of compute%s", floor, bound, batch, compute,
          wait > 0 ? String.format(" plus %.4g s batching wait", wait) : ""));
    }
    return Optional.empty();
  }

  /**
   * A stage on r replicas is busy T/r per batch, so meeting the period P = b / lambda takes at
   * least T/P GPUs per stage and sum(T)/P in all; memory asks for a GPU per stage.
   */
  private Optional<String> gpuCount() {
    double compute = 0;
    for (double s : fastestLayerSeconds()) {
      compute += s;
    }
    double period = batch / slo.requiredThroughput();
    // replicas r of a stage need T/r <= the largest load the predicate admits; a hair less than the
    // quotient, so that a quotient whose exact value is whole never rounds up to one GPU too many
    int forThroughput = (int) Math.ceil(compute / SloPredicate.maxLoadSeconds(slo) * (1 - 1e-9));
    int forMemory = minimumStagesByMemory(largestFree().memoryBytes());
    int freeGpus = free.values().stream().mapToInt(Integer::intValue).sum();
    int needed = Math.max(forThroughput, forMemory);
    if (needed > freeGpus) {
      List<String> byType = new ArrayList<>();
      free.forEach((t, n) -> byType.add(n + " " + t.name()));
      return Optional.of(String.format(
          "not enough free GPUs: at least %d are needed (%d to sustain %.4g req/s, since one batch of %d needs %.4g s of "
              + "compute even on the fastest free types and the period is %.4g s; %d stages to fit memory), "
              + "but only %d are free (%s)", needed, forThroughput, slo.requiredThroughput(), batch, compute, period,
          forMemory, freeGpus, String.join(", ", byType)));
    }
    return Optional.empty();
  }
}
