package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageCursor;
import org.rampa.perf.TransferMode;
import org.rampa.perf.WholeGpu;

/**
 * The fewest GPUs of one type that serve a request within its SLO, as a {@link StageLayout}.
 *
 * <p>Every cut is assumed to cross {@code cutLink}; pass the slowest link the placement may use
 * so the layout stays valid wherever its stages land. Within that model the search is exact: a
 * label-setting dynamic programme over (layer boundary, stages used) keeps, per state, the Pareto
 * front of (GPUs, transfer latency so far), generates only stages that fit the GPU's memory and
 * the pipeline period (each stage gets {@code ceil(T_k / period)} replicas, the fewest that meet
 * it), and checks the latency bound on the transfers (the compute part of the latency does not
 * depend on the cuts). Results are memoised per (model, SLO, K_max, type, link, GPU cap), so
 * request ids do not fragment the cache. Thread-safe.
 */
final class SingleTypeLayouts {

  /** Memo entries before the memo is cleared (a simulation with endless distinct models). */
  private static final int MAX_MEMO = 20_000;

  private final PerformanceModel performance;
  private final Map<Key, Optional<StageLayout>> memo = new ConcurrentHashMap<>();

  SingleTypeLayouts(PerformanceModel performance) {
    this.performance = performance;
  }

  PerformanceModel performance() {
    return performance;
  }

  private record Key(Model model, Slo slo, int maxStages, GpuType type, Link cutLink, int maxGpus) {}

  /** The layout of fewest GPUs (then least latency) using at most {@code maxGpus}; empty if none. */
  Optional<StageLayout> fewestGpus(ServiceRequest request, GpuType type, Link cutLink, int maxGpus) {
    if (maxGpus < 1) {
      return Optional.empty();
    }
    Key key = new Key(request.model(), request.slo(), request.maxStages(), type, cutLink, maxGpus);
    Optional<StageLayout> known = memo.get(key);
    if (known != null) {
      return known;
    }
    Optional<StageLayout> found = search(request, type, cutLink, maxGpus);
    if (memo.size() >= MAX_MEMO) {
      memo.clear();
    }
    memo.put(key, found);
    return found;
  }

  /** One partial plan: GPUs used, transfer latency so far, and how it got here. */
  private record Label(int gpus, double transferLatency, int boundary, int replicas, Label previous) {}

  private Optional<StageLayout> search(ServiceRequest request, GpuType type, Link cutLink, int maxGpus) {
    Model model = request.model();
    Slo slo = request.slo();
    int layers = model.size();
    int batch = slo.batchSize();
    int maxStages = Math.min(request.maxStages(), layers);
    double period = SloPredicate.maxLoadSeconds(slo); // the largest busy time the SLO predicate admits
    WholeGpu kind = new WholeGpu(type);
    double[] prefix = new double[layers + 1];
    for (int l = 0; l < layers; l++) {
      prefix[l + 1] = prefix[l] + performance.layerSeconds(model.layer(l), type, batch);
    }
    double[] transfer = new double[layers + 1];
    for (int cut = 1; cut < layers; cut++) {
      transfer[cut] = performance.transferSeconds(model, cut, batch, cutLink);
    }
    // latency = wait + sum of stage compute times (independent of the cuts) + transfers at the cuts
    double transferBudget = SloPredicate.latencyBudgetSeconds(slo) - prefix[layers];
    if (transferBudget < 0) {
      return Optional.empty();
    }
    boolean serial = performance.transferMode() == TransferMode.SERIAL;
    @SuppressWarnings("unchecked")
    List<Label>[][] fronts = new List[layers + 1][maxStages + 1];
    fronts[0][0] = List.of(new Label(0, 0, 0, 0, null));
    for (int k = 0; k < maxStages; k++) {
      for (int from = 0; from < layers; from++) {
        List<Label> front = fronts[from][k];
        if (front == null) {
          continue;
        }
        StageCursor stage = performance.cursor(model, batch, from, List.of());
        for (int to = from + 1; to <= layers; to++) {
          if (!stage.add().fitsOn(kind)) {
            break; // stage memory only grows with more layers
          }
          double in = from > 0 ? transfer[from] : 0;
          double out = to < layers ? transfer[to] : 0;
          double available = serial ? period - in - out : period;
          if (available <= 0 || (!serial && out > period)) {
            continue;
          }
          int replicas = replicasFor(prefix[to] - prefix[from], available, serial ? in + out : 0, period, maxGpus);
          if (replicas < 0) {
            continue;
          }
          for (Label label : front) {
            int gpus = label.gpus() + replicas;
            double latency = label.transferLatency() + out;
            if (gpus <= maxGpus && latency <= transferBudget) {
              fronts[to][k + 1] = insert(fronts[to][k + 1], new Label(gpus, latency, from, replicas, label));
            }
          }
        }
      }
    }
    Label best = null;
    int bestStages = 0;
    for (int k = 1; k <= maxStages; k++) {
      if (fronts[layers][k] == null) {
        continue;
      }
      for (Label l : fronts[layers][k]) {
        if (best == null || l.gpus() < best.gpus()
            || (l.gpus() == best.gpus() && l.transferLatency() < best.transferLatency())) {
          best = l;
          bestStages = k;
        }
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    int[] bounds = new int[bestStages + 1];
    int[] replicas = new int[bestStages];
    bounds[bestStages] = layers;
    Label l = best;
    for (int k = bestStages - 1; k >= 0; k--) {
      bounds[k] = l.boundary();
      replicas[k] = l.replicas();
      l = l.previous();
    }
    return Optional.of(new StageLayout(bounds, replicas));
  }

  /**
   * Fewest replicas r with {@code seconds / r + fixed <= period}, i.e. r >= seconds / available;
   * -1 when more than {@code maxGpus} would be needed.
   */
  private static int replicasFor(double seconds, double available, double fixed, double period, int maxGpus) {
    double exact = seconds / available;
    if (exact > maxGpus) {
      return -1;
    }
    int r = Math.max(1, (int) Math.ceil(exact));
    while (seconds / r + fixed > period && r <= maxGpus) {
      r++; // floating-point rounding of the division above
    }
    return r <= maxGpus ? r : -1;
  }

  /** Adds {@code label} to a Pareto front over (gpus, transferLatency), both minimised. */
  private static List<Label> insert(List<Label> front, Label label) {
    if (front == null) {
      List<Label> fresh = new ArrayList<>(2);
      fresh.add(label);
      return fresh;
    }
    for (Label other : front) {
      if (other.gpus() <= label.gpus() && other.transferLatency() <= label.transferLatency()) {
        return front;
      }
    }
    front.removeIf(o -> label.gpus() <= o.gpus() && label.transferLatency() <= o.transferLatency());
    front.add(label);
    return front;
  }
}
