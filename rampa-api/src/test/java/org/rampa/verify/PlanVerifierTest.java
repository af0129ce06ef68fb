package org.rampa.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.ImmutableStage;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.StageAssignment;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.Violation.Kind;

class PlanVerifierTest {

  private final PerformanceModel pm = PerformanceModel.defaults();
  private final PlanVerifier verifier = new PlanVerifier(pm);

  private static List<Kind> kinds(Verification v) {
    return v.violations().stream().map(Violation::kind).toList();
  }

  /** A random two-stage placement on distinct GPUs, with an SLO exactly at its predictions. */
  private record Case(Cluster cluster, ServiceRequest request, List<StageAssignment> stages, PlanEstimate estimate) {}

  private Case randomCase(long seed) {
    RandomInstances gen = new RandomInstances(seed);
    Cluster c = gen.cluster(3, 3, 3);
    while (c.gpus().size() < 2) {
      c = gen.cluster(3, 3, 3);
    }
    Model m = gen.model(2 + gen.random().nextInt(6), 1, 0.3);
    int cut = 1 + gen.random().nextInt(m.size() - 1);
    List<Gpu> g = c.gpus();
    List<StageAssignment> stages = List.of(StageAssignment.of(0, cut, g.get(0).id()), StageAssignment.of(cut, m.size(), g.get(1).id()));
    ServiceRequest probe = gen.request("s", m, 1, Duration.ofSeconds(100), 1 + gen.random().nextInt(8), 4);
    PlanEstimate e = pm.estimate(probe, stages, c);
    ServiceRequest exact = gen.request("s", m, e.throughput(), PerformanceModel.seconds(e.latencySeconds()), probe.slo().batchSize(), 4);
    return new Case(c, exact, stages, e);
  }

  @Test
  void acceptsPlansBuiltByThePerformanceModelAndAgreesWithItsNumbers() {
    Property.forSeeds("verifier agrees with hand-computed plans", 200, seed -> {
      Case k = randomCase(seed);
      Plan plan = pm.plan(k.request(), k.stages(), k.cluster(), 0, "test");
      Verification v = verifier.verify(k.request(), plan, ClusterState.empty(k.cluster()));
      assertThat(v.violations()).isEmpty();
      assertThat(v.recomputed().orElseThrow().periodSeconds()).isEqualTo(k.estimate().periodSeconds());
      assertThat(v.recomputed().orElseThrow().latencySeconds()).isEqualTo(k.estimate().latencySeconds());
    });
  }

  @Test
  void rejectsAnSloItCannotMeet() {
    Property.forSeeds("verifier rejects a slightly tighter SLO", 100, seed -> {
      Case k = randomCase(seed);
      ServiceRequest tighter = ServiceRequest.builder().from(k.request())
          .slo(org.rampa.domain.Slo.of(k.estimate().throughput() * 1.01, Duration.ofNanos((long) (k.estimate().latencySeconds() * 0.99e9)),
              k.request().slo().batchSize())).build();
      Plan plan = pm.plan(tighter, k.stages(), k.cluster(), 0, "test");
      assertThat(kinds(verifier.verify(tighter, plan, ClusterState.empty(k.cluster())))).contains(Kind.THROUGHPUT, Kind.LATENCY);
    });
  }

  @Test
  void findsEveryKindOfStructuralViolation() {
    Case k = randomCase(7);
    Plan good = pm.plan(k.request(), k.stages(), k.cluster(), 0, "test");
    ClusterState empty = ClusterState.empty(k.cluster());

    // Stage has an attribute named "from", so its builder has no from(Stage): copies go through copyOf
    Plan overlapping = Plan.builder().from(good).stages(List.of(good.stages().get(0),
        ImmutableStage.copyOf(good.stages().get(1)).withFrom(good.stages().get(1).from() - 1))).build();
    assertThat(kinds(verifier.verify(k.request(), overlapping, empty))).contains(Kind.COVERAGE);
    Plan missingLast = Plan.builder().from(good).stages(List.of(good.stages().get(0))).build();
    assertThat(kinds(verifier.verify(k.request(), missingLast, empty))).contains(Kind.COVERAGE);

    Plan unknownGpu = Plan.builder().from(good).stages(List.of(good.stages().get(0),
        ImmutableStage.copyOf(good.stages().get(1)).withGpus("nope"))).build();
    assertThat(kinds(verifier.verify(k.request(), unknownGpu, empty))).contains(Kind.UNKNOWN_GPU);

    Plan wrongService = Plan.builder().from(good).serviceId("other").build();
    assertThat(kinds(verifier.verify(k.request(), wrongService, empty))).contains(Kind.WRONG_SERVICE);

    Plan lyingLatency = Plan.builder().from(good).latency(good.latency().dividedBy(2)).build();
    assertThat(kinds(verifier.verify(k.request(), lyingLatency, empty))).contains(Kind.PREDICTION_MISMATCH);

    Plan underReserved = Plan.builder().from(good).stages(List.of(
        ImmutableStage.copyOf(good.stages().get(0)).withMemoryBytes(0), good.stages().get(1))).build();
    if (good.stages().get(0).memoryBytes() > 0) {
      assertThat(kinds(verifier.verify(k.request(), underReserved, empty))).contains(Kind.MEMORY);
    }

    ServiceRequest oneStage = ServiceRequest.builder().from(k.request()).maxStages(1).build();
    assertThat(kinds(verifier.verify(oneStage, good, empty))).contains(Kind.TOO_MANY_STAGES);

    ClusterState taken = empty.allocate(Plan.builder().from(good).serviceId("someone-else").build());
    assertThat(kinds(verifier.verify(k.request(), good, taken))).contains(Kind.RESOURCE_CONFLICT);
  }

  @Test
  void rejectsReplicasOfMixedTypesAndStagesTooBigForTheirGpu() {
    RandomInstances gen = new RandomInstances(3);
    Cluster c = Cluster.builder().gpuTypes(RandomInstances.threeTypes()).network(RandomInstances.network())
        .addNodes(org.rampa.domain.Node.of("n", RandomInstances.nvlink()))
        .addGpus(Gpu.of("s0", "slow", "n"), Gpu.of("f0", "fast", "n")).build();
    Model big = gen.model(3, 30, 0); // 30 GB of weights: more than the slow GPU's 16 GB
    ServiceRequest r = gen.request("s", big, 1e-3, Duration.ofSeconds(100), 1, 4);
    Plan mixed = pm.plan(r, List.of(StageAssignment.whole(0, 3, List.of("f0", "s0"))), c, 0, "t");
    assertThat(kinds(verifier.verify(r, mixed, ClusterState.empty(c)))).contains(Kind.MIXED_REPLICA_TYPES);
    Plan tooBig = pm.plan(r, List.of(StageAssignment.of(0, 3, "s0")), c, 0, "t");
    List<Violation> v = new ArrayList<>(verifier.verify(r, tooBig, ClusterState.empty(c)).violations());
    assertThat(v).extracting(Violation::kind).contains(Kind.MEMORY);
    assertThat(v.toString()).contains("s0");
  }
}
