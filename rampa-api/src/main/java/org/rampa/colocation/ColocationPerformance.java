package org.rampa.colocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.SharedStage;

/**
 * The performance of every segment on one GPU: the time model's batch time (of the whole model, or
 * of the segment's pipeline stage), times α computed by the problem's interference model for
 * exactly this GPU's co-runner set. On a time-shared GPU ({@link GpuConfiguration#timeShared()})
 * every batch runs alone on the shared part (the whole GPU or one MIG instance), one after another: the round is the sum of the batch
 * times, each segment completes one batch per round (throughput = batch / round, which is its time
 * fraction × its exclusive throughput), and its latency is judged on the round, α = round / its own
 * batch time (context switches between tenants are not charged: no measurement of them is at hand).
 * Planners price configurations with it and {@link ColocationVerifier} recomputes it; nothing here
 * trusts a planner's numbers.
 */
public final class ColocationPerformance {
  private ColocationPerformance() {}

  /** Per segment, in order; empty when the time model has no time for some segment. */
  public static Optional<List<SegmentPerformance>> evaluate(ColocationProblem problem, GpuConfiguration gpu) {
    GpuPool pool = problem.pool(gpu.gpuType());
    int n = gpu.segments().size();
    double[] seconds = new double[n];
    List<SharedStage> stages = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Segment s = gpu.segments().get(i);
      ColocationService svc = problem.service(s.service());
      int[] layers = svc.layers(s.stage());
      SharedStage stage = new SharedStage(svc.model(), layers[0], layers[1], s.batch(), pool.type(), pool.partitioning(), s.placement());
      OptionalDouble t = problem.timeModel().seconds(stage);
      if (t.isEmpty()) {
        return Optional.empty();
      }
      seconds[i] = t.getAsDouble();
      stages.add(stage);
    }
    if (gpu.timeShared()) {
      double round = java.util.Arrays.stream(seconds).sum();
      List<SegmentPerformance> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(new SegmentPerformance(round, round / seconds[i], gpu.segments().get(i).batch() / round));
      }
      return Optional.of(out);
    }
    // Isolated placements (MIG) see α = 1 under every interference model, so their co-runner
    // descriptions, which need the model's layers, are only built for contended placements.
    List<CoRunner> contended = new ArrayList<>();
    List<Integer> contendedIndex = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!stages.get(i).placement().isolated()) {
        contended.add(CoRunner.of(gpu.segments().get(i).service(), stages.get(i), seconds[i]));
        contendedIndex.add(i);
      }
    }
    double[] alpha = new double[n];
    java.util.Arrays.fill(alpha, 1);
    for (int k = 0; k < contended.size(); k++) {
      List<CoRunner> others = new ArrayList<>(contended);
      CoRunner self = others.remove(k);
      alpha[contendedIndex.get(k)] = problem.interference().slowdown(pool.type(), self, others);
    }
    List<SegmentPerformance> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Segment s = gpu.segments().get(i);
      double t = seconds[i] * alpha[i];
      out.add(new SegmentPerformance(t, alpha[i], s.processes() * s.batch() / t));
    }
    return Optional.of(out);
  }
}
