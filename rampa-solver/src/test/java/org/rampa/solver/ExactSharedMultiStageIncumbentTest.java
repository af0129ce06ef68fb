package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanVerifier;
import org.junit.jupiter.api.Test;

/**
 * Exact on shared GPUs whose incumbents differ in stage count: a partly used GPU holding stage 1 of
 * a two-stage service beside a one-stage service (the E4 light-mix shape that once indexed the
 * one-stage incumbent's stages with the other's stage index). Every plan found passes the verifier
 * and the interference guard.
 */
class ExactSharedMultiStageIncumbentTest {

  private static final PerformanceModel PM = PerformanceModel.defaults();
  private static final Model DECODE = ModelCatalog.decode("llama2-7b", 512);
  private static final String TYPE = "A100-SXM4-80GB";

  @Test
  void oneStageIncumbentBesideALaterStageOfATwoStageIncumbent() {
    Cluster cluster = cluster(2); // no free GPU: the newcomer must share, and its rows must keep both incumbents' SLOs
    ClusterState state = ClusterState.empty(cluster);
    InterferenceGuard guard = InterferenceGuard.defaults();
    int half = DECODE.size() / 2;
    state = admit(guard, state, cluster, "one-stage", List.of(stage(0, DECODE.size(), "n000g0", 0.3)), 3.0);
    state = admit(guard, state, cluster, "two-stage", List.of(stage(0, half, "n000g1", 0.3), stage(half, DECODE.size(), "n000g0", 0.3)),
        3.0);
    PlacementResult result = ExactStrategy.scip().place(problem(state, 1));
    assertThat(result.status()).as(result.toString()).isIn(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE);
    assertThat(result.plan().get().stages()).as(result.toString()).allMatch(s -> !(s.placement() instanceof Whole));
    assertVerified(problem(state, 1), result);
  }

  /** Seeded: nodes of 4 GPUs with one- to three-stage MPS incumbents spread over several GPUs each. */
  @Test
  void randomMultiStageIncumbentsAcrossGpus() {
    int planned = 0;
    for (long seed = 1; seed <= 12; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = cluster(4);
      ClusterState state = ClusterState.empty(cluster);
      InterferenceGuard guard = InterferenceGuard.defaults();
      for (int n = 0; n < 4; n++) {
        int stages = 1 + r.nextInt(3);
        List<StageAssignment> assignment = new ArrayList<>();
        for (int k = 0; k < stages; k++) {
          assignment.add(stage(k * DECODE.size() / stages, (k + 1) * DECODE.size() / stages, "n000g" + r.nextInt(4),
              List.of(0.2, 0.25, 0.3).get(r.nextInt(3))));
        }
        try {
          state = admit(guard, state, cluster, "inc-" + n, assignment, 2.0 + 2 * r.nextDouble());
        } catch (AllocationRefusedException | IllegalArgumentException e) {
          // this incumbent does not fit beside the others: the cluster keeps the ones it has
        }
      }
      PlacementProblem problem = problem(state, seed);
      PlacementResult result = ExactStrategy.scip().place(problem);
      assertThat(result.status()).as("seed " + seed + " " + result).isIn(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE, SolveStatus.INFEASIBLE);
      assertVerified(problem, result);
      planned += result.plan().isPresent() ? 1 : 0;
    }
    System.out.printf("exact over multi-stage incumbents: %d of 12 instances planned%n", planned);
    assertThat(planned).as("instances with a plan").isGreaterThan(0);
  }

  private static Cluster cluster(int gpus) {
    GpuCatalog catalog = GpuCatalog.standard();
    var b = Cluster.builder().network(ClusterPresets.NETWORK_100G).addGpuTypes(catalog.type(TYPE))
        .addNodes(Node.of("n000", catalog.entry(TYPE).intraNodeLink()));
    for (int g = 0; g < gpus; g++) {
      b.addGpus(Gpu.of("n000g" + g, TYPE, "n000"));
    }
    return b.build();
  }

  private static StageAssignment stage(int from, int to, String gpu, double fraction) {
    return new StageAssignment(from, to, List.of(gpu), new MpsShare(fraction, PM.stageMemoryBytes(DECODE, from, to, 1)));
  }

  /** {@code id} on {@code stages}, its latency bound {@code slack} times its latency alone there. */
  private static ClusterState admit(InterferenceGuard guard, ClusterState state, Cluster cluster, String id, List<StageAssignment> stages,
      double slack) {
    ServiceRequest loose = ServiceRequest.builder().id(id).model(DECODE).slo(Slo.of(1, Duration.ofSeconds(10), 1)).build();
    double alone = PM.estimate(loose, stages, cluster).latencySeconds();
    ServiceRequest r = ServiceRequest.builder().id(id).model(DECODE).slo(Slo.of(1, Duration.ofNanos((long) (alone * slack * 1e9)), 1)).build();
    Plan plan = PM.plan(r, stages, cluster, 0, "incumbent");
    return guard.admit(state, r, plan);
  }

  private static PlacementProblem problem(ClusterState state, long seed) {
    ServiceRequest newcomer = ServiceRequest.builder().id("newcomer").model(DECODE).slo(Slo.of(1, Duration.ofSeconds(2), 1)).maxStages(3)
        .build();
    StrategyOptions options = SharingOptions.on().withMargin("none").applyTo(StrategyOptions.builder().timeLimit(Duration.ofSeconds(20)).seed(seed).build());
    return new PlacementProblem(newcomer, state, StaticImportance.byType(Map.of(TYPE, 1.0)), PM, options);
  }

  private static void assertVerified(PlacementProblem problem, PlacementResult result) {
    result.plan().ifPresent(plan -> {
      assertThat(new PlanVerifier(problem.performance(), problem.interference()).verify(problem.request(), plan, problem.state()).violations())
          .as(result.toString()).isEmpty();
      assertThat(new InterferenceGuard(problem.performance(), problem.interference()).refusals(problem.state(), problem.request(), plan))
          .as(result.toString()).isEmpty();
    });
  }
}
