package org.rampa.heuristics.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.TinySharedProblems;
import org.rampa.verify.PlanVerifier;

/**
 * Greedy's decisions with {@code sharing=on} are pinned: a SHA-256 of its plans on seeded tiny
 * shared clusters and on the 1000-GPU benchmark cluster under several SLOs and menus, recorded
 * before greedy's shared search was made faster, so speed-ups cannot change an answer.
 */
class GreedySharedPlansFingerprintTest {

  private final PlacementStrategy greedy = Strategies.named("greedy");

  @Test
  void greedyWithSharingDecidesAsRecorded() throws Exception {
    List<String> lines = new ArrayList<>();
    for (long seed = 1; seed <= 120; seed++) {
      PlacementProblem problem = TinySharedProblems.generate(seed, seed % 2 == 0 ? 4 : 6);
      lines.add("tiny " + seed + " " + decide(problem));
    }
    for (long seed = 1; seed <= 2; seed++) {
      ClusterState state = SharedClusterInstance.state(SharedClusterInstance.cluster(), seed);
      for (String workload : List.of("decode", "prefill")) {
        Model model = workload.equals("decode") ? ModelCatalog.decode("llama2-7b", 512) : ModelCatalog.prefill("llama2-7b", 512);
        List<Slo> slos = workload.equals("decode")
            ? List.of(Slo.of(50, Duration.ofMillis(250), 1), Slo.of(400, Duration.ofMillis(60), 1), Slo.of(2000, Duration.ofMillis(100), 4))
            : List.of(Slo.of(4, Duration.ofSeconds(2), 1), Slo.of(30, Duration.ofMillis(400), 1), Slo.of(120, Duration.ofSeconds(1), 2));
        for (Slo slo : slos) {
          for (SharingOptions sharing : List.of(SharingOptions.on(), new SharingOptions(true, List.of(0.5, 0.25), 1))) {
            ServiceRequest request = ServiceRequest.builder().id("new-" + workload).model(model).slo(slo).maxStages(8).build();
            PlacementProblem problem = new PlacementProblem(request, state, SharedClusterInstance.importance(), PerformanceModel.defaults(),
                sharing.withMargin("none").applyTo(StrategyOptions.defaults()));
            // the recorded lines predate the margin component (these plans are made with none, as they were)
            String menu = sharing.toString().replaceAll(", margin=[a-z0-9.]+", "");
            lines.add("large " + seed + " " + workload + " " + slo + " " + menu + " " + decide(problem));
          }
        }
      }
    }
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    lines.forEach(line -> digest.update((line + "\n").getBytes(StandardCharsets.UTF_8)));
    assertThat(lines).anyMatch(line -> line.contains("mps"));
    assertThat(HexFormat.of().formatHex(digest.digest())).as(String.join("\n", lines)).isEqualTo(RECORDED_SHARED_PLANS);
  }

  private String decide(PlacementProblem problem) {
    PlacementResult result = greedy.place(problem);
    result.plan().ifPresent(plan -> assertThat(
        new PlanVerifier(problem.performance(), problem.interference()).verify(problem.request(), plan, problem.state()).violations()).isEmpty());
    return result.status() + " " + result.plan().map(GreedySharedPlansFingerprintTest::describe).orElse("-");
  }

  /** Everything a plan decides and predicts, none of the timing of the search. */
  private static String describe(Plan p) {
    StringBuilder b = new StringBuilder().append(p.cost()).append(' ').append(p.period().toNanos()).append(' ').append(p.latency().toNanos());
    p.stages().forEach(s -> b.append(" [").append(s.from()).append(',').append(s.to()).append(')').append(s.gpus()).append(s.placement()));
    return b.toString();
  }

  private static final String RECORDED_SHARED_PLANS = "33464977c95203c787f6db57936b3d08cfc99fa27a46a30aed5cbaaff2b0705e";
}
