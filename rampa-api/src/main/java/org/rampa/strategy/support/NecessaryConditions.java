package org.rampa.strategy.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.rampa.domain.Capacity;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageCursor;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;

/**
 * Cheap necessary conditions every plan of a {@link PlacementProblem} must meet, shared by every
 * strategy so that the same condition reads the same everywhere. When one fails the request is
 * infeasible on this state (a proof under the performance model and {@link SloPredicate}), for a
 * reason a scheduler engineer can act on (free a larger GPU, relax the throughput, raise
 * maxStages ...); the message names the numbers.
 *
 * <p>The conditions, in the order they are checked: some GPU is free; every layer fits on the
 * largest free GPU; the model fits in maxStages stages of the largest free type; its weights and
 * state fit on the maxStages largest free GPUs; every layer's stage reaches the throughput with
 * all free GPUs of some type as replicas; the latency floor (every layer on its fastest free type
 * that holds it, transfers free) is within the bound; and there are enough free GPUs for the
 * compute the period asks for and the stages memory asks for.
 */
public final class NecessaryConditions {
  private static final double GB = 1e9;
  /** Relative slack on the GPU-count bound so that rounding of a whole quotient never proves infeasibility. */
  private static final double ROUNDING = 1e-9;

  private final ServiceRequest request;
  private final PerformanceModel performance;
  private final Model model;
  private final int batch;
  private final Slo slo;
  private final int totalGpus;
  /** Free GPU count per free type, in cluster type order. */
  private final Map<GpuType, Integer> free = new LinkedHashMap<>();
  /** The memory of every free GPU, largest first, as the free counts of the distinct memory sizes (two longs per size). */
  private final List<long[]> freeMemoryLargestFirst = new ArrayList<>();
  /** Per layer, the memory of a stage holding it alone. */
  private final long[] layerMemory;

  private NecessaryConditions(PlacementProblem problem) {
    this.request = problem.request();
    this.performance = problem.performance();
    this.model = request.model();
    this.batch = request.slo().batchSize();
    this.slo = request.slo();
    ClusterState state = problem.state();
    this.totalGpus = state.cluster().gpus().size();
    Capacity capacity = state.capacity();
    capacity.countByType().forEach((type, n) -> free.put(state.cluster().type(type), n));
    // by type, not by GPU: a large cluster has thousands of free GPUs and a handful of types
    free.forEach((type, n) -> freeMemoryLargestFirst.add(new long[] {type.memoryBytes(), n}));
    freeMemoryLargestFirst.sort((a, b) -> Long.compare(b[0], a[0]));
    this.layerMemory = new long[model.size()];
    for (int l = 0; l < model.size(); l++) {
      layerMemory[l] = performance.cursor(model, batch, l, List.of()).add().memoryBytes();
    }
  }

  /**
   * The first condition that fails for a strategy planning with {@code sharing}, or empty. The one
   * place that decides which conditions apply: they reason about completely free whole GPUs, so
   * with sharing on (stages may also sit on shares of partly used GPUs, with other memory and speed)
   * none of them is a proof, and none is checked; the strategy's own search or relaxation decides,
   * and its reason speaks of the shares.
   */
  public static Optional<String> firstFailure(PlacementProblem problem, SharingOptions sharing) {
    return sharing.enabled() ? Optional.empty() : firstFailure(problem);
  }

  /** The first condition that fails when only whole free GPUs may be used, explained, or empty when every condition holds. */
  public static Optional<String> firstFailure(PlacementProblem problem) {
    NecessaryConditions c = new NecessaryConditions(problem);
    if (c.free.isEmpty()) {
      return Optional.of("no GPU is free: all " + c.totalGpus + " GPUs of the cluster are held, wholly or in part, "
          + "by other services (strategies use only completely free GPUs)");
    }
    for (Supplier<Optional<String>> check : List.<Supplier<Optional<String>>>of(
        c::largestLayer, c::stagesForMemory, c::weightsOnLargestGpus, c::throughput, c::latencyFloor, c::gpuCount)) {
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

  /** Every layer must fit on some free GPU. */
  private Optional<String> largestLayer() {
    GpuType largest = largestFree();
    for (int l = 0; l < model.size(); l++) {
      if (layerMemory[l] > largest.memoryBytes()) {
        return Optional.of(String.format(
            "layer %d (%s) alone needs %.2f GB at batch %d, but the largest free GPU (%s) has %.2f GB; no stage can hold it",
            l, model.layer(l).name(), layerMemory[l] / GB, batch, largest.name(), largest.memoryBytes() / GB));
      }
    }
    return Optional.empty();
  }

  /** The model must fit into maxStages stages on GPUs of the largest free type. */
  private Optional<String> stagesForMemory() {
    GpuType largest = largestFree();
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
    StageCursor stage = null;
    for (int l = 0; l < model.size(); l++) {
      if (stage == null || stage.add().memoryBytes() > capacity) {
        stage = performance.cursor(model, batch, l, List.of()).add();
        stages++;
      }
    }
    return stages;
  }

  /**
   * Every stage holds the weights and state of its layers, on distinct GPUs, so all of them must
   * fit on the maxStages largest free GPUs together.
   */
  private Optional<String> weightsOnLargestGpus() {
    StageCursor whole = performance.cursor(model, batch, 0, List.of());
    while (whole.canAdd()) {
      whole.add();
    }
    int k = 0;
    long topK = 0;
    for (long[] sizeAndCount : freeMemoryLargestFirst) {
      long take = Math.min(request.maxStages() - k, sizeAndCount[1]);
      topK += take * sizeAndCount[0];
      k += (int) take;
    }
    if (whole.additiveMemoryBytes() > topK) {
      return Optional.of(String.format(
          "the model needs %.2f GB of weights and state in at most %d stages, the %d largest free GPUs hold %.2f GB",
          whole.additiveMemoryBytes() / GB, request.maxStages(), k, topK / GB));
    }
    return Optional.empty();
  }

  private boolean meetsPeriod(double load) {
    return SloPredicate.meetsPeriod(load, slo);
  }

  /** Every layer's stage must reach the throughput with all free GPUs of some type as replicas. */
  private Optional<String> throughput() {
    for (int l = 0; l < model.size(); l++) {
      double best = 0;
      GpuType bestType = null;
      for (Map.Entry<GpuType, Integer> e : free.entrySet()) {
        if (layerMemory[l] > e.getKey().memoryBytes()) {
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

  /** One batch's compute with every layer on its fastest free type whose memory holds the layer. */
  private double fastestComputeSeconds() {
    double compute = 0;
    for (int l = 0; l < model.size(); l++) {
      double fastest = Double.POSITIVE_INFINITY;
      for (GpuType t : free.keySet()) {
        if (layerMemory[l] <= t.memoryBytes()) {
          fastest = Math.min(fastest, performance.layerSeconds(model.layer(l), t, batch));
        }
      }
      compute += fastest;
    }
    return compute;
  }

  /** Latency is at least every layer on its fastest free type plus the batching wait. */
  private Optional<String> latencyFloor() {
    double compute = fastestComputeSeconds();
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
    double compute = fastestComputeSeconds();
    double period = batch / slo.requiredThroughput();
    // replicas r of a stage need T/r <= the largest load the SLO predicate admits
    int forThroughput = (int) Math.ceil(compute / SloPredicate.maxLoadSeconds(slo) * (1 - ROUNDING));
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
