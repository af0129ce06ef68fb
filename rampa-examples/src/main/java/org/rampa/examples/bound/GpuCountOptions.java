package org.rampa.examples.bound;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.TransferMode;
import org.rampa.verify.PlanVerifier;

/**
 * For one service class, every minimal vector of GPUs per type (Pareto-minimal: no other vector
 * uses at most as many of every type) with which some placement meets the class's SLO. The
 * offline bound lets each admitted arrival pick one of these vectors.
 *
 * <p><b>Complete by construction.</b> Every plan the plan verifier accepts is a contiguous split
 * into at most {@code maxStages} stages, each on {@code r} whole GPUs of one type whose memory holds
 * the stage; its throughput {@code b·r/T} per stage and latency {@code Σ T + batching wait} must meet
 * the SLO within the verifier's tolerances. The search here enumerates exactly those splits and
 * types with transfers left out (they only add to period and latency, whatever the nodes and links),
 * with the smallest replica count each stage's throughput allows (more replicas never shorten the
 * latency), compares with the verifier's tolerances loosened by a further part in a billion (so
 * rounding can only admit more), and keeps, per layer boundary, stage count and GPU vector, the
 * least latency. So the GPU vector of any verified plan is at least one of the vectors returned: a
 * relaxation, never tighter. Shared GPUs (stage share below 1) are outside it: {@link SharedFootprints}
 * covers them.
 */
public final class GpuCountOptions {

  /** Extra slack on every comparison, so floating-point rounding can only loosen the bound. */
  private static final double SLACK = 1e-9;

  private static final PerformanceModel NO_TRANSFERS = PerformanceModel.withTransfers(TransferMode.NONE);

  private GpuCountOptions() {}

  /** GPUs of each type in {@code cluster}, in the order of {@link Cluster#gpuTypes()}. */
  public static int[] capacity(Cluster cluster) {
    List<GpuType> types = cluster.gpuTypes();
    int[] capacity = new int[types.size()];
    for (Gpu g : cluster.gpus()) {
      for (int t = 0; t < types.size(); t++) {
        if (types.get(t).name().equals(g.type())) {
          capacity[t]++;
        }
      }
    }
    return capacity;
  }

  /**
   * The minimal GPU vectors (indexed like {@code cluster.gpuTypes()}, none above the cluster's
   * count of a type) for {@code request}, in lexicographic order; empty when no placement on the
   * empty cluster can meet the SLO.
   */
  public static List<int[]> of(ServiceRequest request, Cluster cluster) {
    List<GpuType> types = cluster.gpuTypes();
    int[] capacity = capacity(cluster);
    Model model = request.model();
    Slo slo = request.slo();
    int batch = slo.batchSize();
    int layers = model.size();
    double latencyBudget = latencyBudget(slo);
    double replicasPerSecond = replicasPerSecond(slo);

    // stage [i, j) on type t: its time, or NaN when it does not fit the type's memory
    double[][][] seconds = new double[layers][layers + 1][types.size()];
    int[][][] replicas = new int[layers][layers + 1][types.size()];
    for (int i = 0; i < layers; i++) {
      for (int j = i + 1; j <= layers; j++) {
        long memory = NO_TRANSFERS.stageMemoryBytes(model, i, j, batch);
        for (int t = 0; t < types.size(); t++) {
          GpuType type = types.get(t);
          double s = NO_TRANSFERS.stageSeconds(model, i, j, type, batch);
          seconds[i][j][t] = memory <= type.memoryBytes() ? s : Double.NaN;
          replicas[i][j][t] = replicas(s, replicasPerSecond);
        }
      }
    }

    List<Map<Key, Double>> labels = new ArrayList<>();
    for (int i = 0; i <= layers; i++) {
      labels.add(new HashMap<>());
    }
    labels.get(0).put(new Key(0, new int[types.size()]), 0.0);
    for (int i = 0; i < layers; i++) {
      for (Map.Entry<Key, Double> label : undominated(labels.get(i))) {
        Key key = label.getKey();
        if (key.stages == request.maxStages()) {
          continue;
        }
        for (int j = i + 1; j <= layers; j++) {
          for (int t = 0; t < types.size(); t++) {
            double s = seconds[i][j][t];
            double latency = label.getValue() + s;
            int used = key.gpus[t] + replicas[i][j][t];
            if (Double.isNaN(s) || latency > latencyBudget || used > capacity[t]) {
              continue;
            }
            int[] gpus = key.gpus.clone();
            gpus[t] = used;
            labels.get(j).merge(new Key(key.stages + 1, gpus), latency, Math::min);
          }
        }
      }
      labels.set(i, Map.of()); // boundary done: free its labels
    }
    List<int[]> vectors = new ArrayList<>();
    for (Key k : labels.get(layers).keySet()) {
      vectors.add(k.gpus);
    }
    return minimal(vectors);
  }

  /**
   * The latency the stages' times may sum to: the verifier's own limit (SloPredicate), widened by
   * its prediction tolerance and the slack, less the batching wait every plan pays.
   */
  static double latencyBudget(Slo slo) {
    return (SloPredicate.latencyLimitSeconds(slo) + PlanVerifier.ABSOLUTE_TOLERANCE_SECONDS) * (1 + SLACK) - slo.batchingWaitSeconds();
  }

  /** Replicas each second of stage time needs to carry the SLO's throughput (the verifier's limit, loosened by the slack). */
  static double replicasPerSecond(Slo slo) {
    return SloPredicate.leastThroughput(slo.requiredThroughput()) * (1 - SLACK) / slo.batchSize();
  }

  /** The fewest replicas of a stage taking {@code seconds} per batch that carry the throughput (more never shorten the latency). */
  static int replicas(double seconds, double replicasPerSecond) {
    return (int) Math.max(1, Math.ceil(seconds * replicasPerSecond));
  }

  /** Labels no other label at the same boundary beats in stages, every GPU count and latency. */
  private static List<Map.Entry<Key, Double>> undominated(Map<Key, Double> labels) {
    List<Map.Entry<Key, Double>> all = new ArrayList<>(labels.entrySet());
    all.sort(Map.Entry.comparingByValue());
    List<Map.Entry<Key, Double>> kept = new ArrayList<>();
    for (Map.Entry<Key, Double> candidate : all) {
      boolean dominated = false;
      for (Map.Entry<Key, Double> k : kept) {
        // kept labels have latency <= the candidate's (sorted); equal keys cannot occur in a map
        if (k.getKey().stages <= candidate.getKey().stages && atMost(k.getKey().gpus, candidate.getKey().gpus)) {
          dominated = true;
          break;
        }
      }
      if (!dominated) {
        kept.add(candidate);
      }
    }
    return kept;
  }

  /** The Pareto-minimal vectors of {@code vectors}, in lexicographic order. */
  static List<int[]> minimal(List<int[]> vectors) {
    List<int[]> out = new ArrayList<>();
    for (int[] v : vectors) {
      boolean dominated = false;
      for (int[] w : vectors) {
        if (w != v && atMost(w, v) && !Arrays.equals(w, v)) {
          dominated = true;
          break;
        }
      }
      if (!dominated && out.stream().noneMatch(w -> Arrays.equals(w, v))) {
        out.add(v);
      }
    }
    out.sort(Arrays::compare);
    return out;
  }

  /** {@code a <= b} in every component. */
  public static boolean atMost(int[] a, int[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] > b[i]) {
        return false;
      }
    }
    return true;
  }

  /** A label's identity: stages used so far and GPUs per type. */
  private static final class Key {
    final int stages;
    final int[] gpus;
    private final int hash;

    Key(int stages, int[] gpus) {
      this.stages = stages;
      this.gpus = gpus;
      this.hash = 31 * stages + Arrays.hashCode(gpus);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.stages == stages && Arrays.equals(k.gpus, gpus);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
