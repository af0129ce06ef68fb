package org.rampa.examples;

import java.time.Duration;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.strategy.PlacementResult;

/** The README's fluent-API example, kept compiling and running (ReadmeExampleTest checks they match). */
public final class ReadmeExample {
  private ReadmeExample() {}

  public static PlacementResult run() {
    // README:begin
    Cluster cluster = ClusterPresets.small();                 // 48 GPUs: T4, A10, A100-80GB, H100
    ServiceRequest request = ServiceRequest.builder()
        .id("chat-13b")
        .model(ModelCatalog.prefill("llama2-13b", 512))       // 42 blocks, 26 GB of FP16 weights
        .slo(Slo.of(4.0, Duration.ofMillis(800), 1))          // 4 requests/s, 800 ms, batch 1
        .build();
    PlacementResult result = Rampa.on(cluster)
        .strategy("exact")                                     // or "greedy", "dp", "performance-first" ...
        .importance(ImportanceModels.capability())             // spend the least capable GPUs first
        .timeLimit(Duration.ofSeconds(5))
        .place(request);
    result.plan().ifPresentOrElse(
        plan -> System.out.println(plan.stages() + " cost " + plan.cost() + ", " + plan.throughput() + " req/s"),
        () -> System.out.println(result.status() + ": " + result.reason()));
    // README:end
    return result;
  }

  public static void main(String[] args) {
    run();
  }
}
