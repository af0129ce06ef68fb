package org.rampa.examples;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.StageAssignment;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/**
 * Evaluates a hand-written plan on the built-in heterogeneous cluster: Llama-2-13B (26 GB of FP16
 * weights) does not fit one 24 GB A10, so it is cut into two stages on two A10s of one node. The
 * performance model predicts the plan and the verifier checks it against the SLO.
 */
public final class HandWrittenPlan {
  private HandWrittenPlan() {}

  public static Verification run(PrintWriter out) {
    Cluster cluster = ClusterPresets.small();
    ServiceRequest request = ServiceRequest.builder()
        .id("llama2-13b-chat")
        .model(ModelCatalog.prefill("llama2-13b", 512))
        .slo(Slo.of(4, Duration.ofSeconds(1), 1))
        .build();
    // node004 is the first A10 server of the small preset
    int cut = 21; // embedding + 20 blocks | 20 blocks + head
    List<StageAssignment> stages = List.of(
        StageAssignment.of(0, cut, "node004-gpu0"),
        StageAssignment.of(cut, request.model().size(), "node004-gpu1"));
    PerformanceModel performance = PerformanceModel.defaults();
    Plan plan = performance.plan(request, stages, cluster, 2, "hand-written");
    Verification verdict = new PlanVerifier(performance).verify(request, plan, ClusterState.empty(cluster));
    PlanEstimate e = verdict.recomputed().orElseThrow();

    out.printf("Cluster: %d GPUs on %d nodes (%s)%n", cluster.gpus().size(), cluster.nodes().size(),
        String.join(", ", cluster.gpuTypes().stream().map(t -> t.name()).toList()));
    out.printf("Service: %s, %d layers, %.1f GB of weights, SLO %.1f req/s within %d ms at batch %d%n",
        request.model().name(), request.model().size(), request.model().totalWeightBytes() / 1e9,
        request.slo().requiredThroughput(), request.slo().latencyBound().toMillis(), request.slo().batchSize());
    for (int i = 0; i < plan.stages().size(); i++) {
      var s = plan.stages().get(i);
      out.printf("  stage %d: layers [%d, %d) on %s (%s): compute %.2f ms, memory %.2f GB of %.2f GB%n", i, s.from(), s.to(),
          s.gpus(), cluster.typeOf(s.gpus().get(0)).name(), e.stageComputeSeconds().get(i) * 1e3, s.memoryBytes() / 1e9,
          cluster.typeOf(s.gpus().get(0)).memoryBytes() / 1e9);
    }
    for (int i = 0; i < e.transferSeconds().size(); i++) {
      out.printf("  transfer %d->%d: %.3f ms%n", i, i + 1, e.transferSeconds().get(i) * 1e3);
    }
    out.printf("Predicted: period %.2f ms, throughput %.2f req/s, latency %.2f ms%n",
        e.periodSeconds() * 1e3, e.throughput(), e.latencySeconds() * 1e3);
    out.println(verdict.ok() ? "Verifier: plan meets the SLO and fits the cluster" : "Verifier: " + verdict.violations());
    return verdict;
  }
}
