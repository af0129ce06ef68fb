package org.rampa.testing;

import java.time.Duration;
import java.util.List;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.Placement;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;

/**
 * The services of the shared-GPU tests: Llama-2-7B decode steps (context 512, batch 1), each alone
 * on one placement of one GPU, with a latency bound a given factor above its time alone, so a test
 * controls how many co-runners a service tolerates.
 */
public final class DecodeServices {

  /** A request, its one-stage plan and its latency alone on the placement. */
  public record Admission(ServiceRequest request, Plan plan, double aloneSeconds) {}

  private final PerformanceModel pm;
  private final Model decode = ModelCatalog.decode("llama2-7b", 512);
  private final long memory;
  private final Cluster cluster;
  private final String strategy;

  /** Services on {@code cluster}, their plans labelled as made by {@code strategy}, timed by the nominal model. */
  public DecodeServices(Cluster cluster, String strategy) {
    this(cluster, strategy, PerformanceModel.defaults());
  }

  /** As {@link #DecodeServices(Cluster, String)}, timed (and their plans stated) by {@code pm}: under its planning margins, say. */
  public DecodeServices(Cluster cluster, String strategy, PerformanceModel pm) {
    this.cluster = cluster;
    this.strategy = strategy;
    this.pm = pm;
    this.memory = pm.stageMemoryBytes(decode, 0, decode.size(), 1);
  }

  /** The memory one decode step needs: what each placement reserves. */
  public long memory() {
    return memory;
  }

  /** {@code id} alone on {@code placement} of {@code gpu}, its latency bound {@code slack} times its time alone. */
  public Admission service(String id, String gpu, Placement placement, double slack) {
    StageAssignment stage = new StageAssignment(0, decode.size(), List.of(gpu), placement);
    ServiceRequest loose = ServiceRequest.builder().id(id).model(decode).slo(Slo.of(1, Duration.ofSeconds(10), 1)).build();
    double alone = pm.estimate(loose, List.of(stage), cluster).latencySeconds();
    ServiceRequest r = ServiceRequest.builder().id(id).model(decode).slo(Slo.of(1, Duration.ofNanos((long) (alone * slack * 1e9)), 1)).build();
    return new Admission(r, pm.plan(r, List.of(stage), cluster, 0, strategy), alone);
  }
}
