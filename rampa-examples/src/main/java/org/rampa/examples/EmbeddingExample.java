package org.rampa.examples;

import java.time.Duration;
import org.rampa.Rampa;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.ClusterStateHolder.CommitResult;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.strategy.PlacementResult;

/**
 * The README's minimal embedding ("Add to your build"): a cluster described in code, one service
 * planned, committed and released. ReadmeExampleTest keeps the README's copy identical and runs it.
 */
public final class EmbeddingExample {
  private EmbeddingExample() {}

  /** What the scheduler's ledger answered to the commit and to the release. */
  public record Outcomes(CommitResult commit, CommitResult release) {}

  public static Outcomes run() {
    // README:embedding:begin
    GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");      // or GpuType.builder() with your own figures
    Link nvlink = Link.of("nvlink", 300e9, Duration.ofNanos(1_000));   // bytes/s and latency
    Cluster cluster = Cluster.builder().addGpuTypes(a100).addNodes(Node.of("node-0", nvlink))
        .addGpus(Gpu.of("gpu-0", a100.name(), "node-0"), Gpu.of("gpu-1", a100.name(), "node-0"))
        .network(Link.of("ethernet-100G", 12.5e9, Duration.ofNanos(10_000))).build();
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(cluster));
    ServiceRequest request = ServiceRequest.builder().id("chat-7b").model(ModelCatalog.prefill("llama2-7b", 512))
        .slo(Slo.of(2.0, Duration.ofMillis(500), 1)).build();
    ClusterState state = holder.current();
    PlacementResult result = Rampa.on(state).strategy("greedy").place(request);
    Plan plan = result.plan().orElseThrow(() -> new IllegalStateException(result.status() + ": " + result.reason()));
    CommitResult commit = holder.commit(plan, state.version());        // STALE if another planner committed first: re-plan
    CommitResult release = holder.release("chat-7b", holder.current().version());   // when the service stops
    // README:embedding:end
    return new Outcomes(commit, release);
  }

  public static void main(String[] args) {
    System.out.println(run());
  }
}
