package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.support.TimeBudget;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.solver.flow.IntervalFlowFormulation;
import org.rampa.solver.backend.MilpBackend;
import org.rampa.solver.backend.ScipBackend;
import org.rampa.solver.backend.CpSatBackend;
import org.rampa.solver.backend.SolveWatchdog;

/** Names, backends, time limits, warm starts, model export and loud failures on bad options. */
class ExactStrategyOptionsTest {

  /** A small instance with a plan (found by scanning seeds, so the test does not hard-code one). */
  private static PlacementProblem feasible() {
    for (long seed = 40_000; ; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, false);
      if (BruteForcePlacement.solve(p).isPresent()) {
        return p;
      }
    }
  }

  private static PlacementProblem with(PlacementProblem p, Duration limit, Map<String, String> extra) {
    return new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(),
        StrategyOptions.builder().from(p.options()).timeLimit(limit).extra(extra).build());
  }

  @Test
  void strategiesAreFoundByName() {
    assertThat(Strategies.named("exact").name()).isEqualTo("exact");
    assertThat(Strategies.named("exact-cpsat").name()).isEqualTo("exact-cpsat");
    assertThat(Strategies.available()).contains("exact", "exact-cpsat");
  }

  @Test
  void bothBackendsAgreeAndTheBackendOptionSelectsOne() {
    PlacementProblem p = feasible();
    PlacementResult scip = ExactStrategy.scip().place(p);
    PlacementResult cpsat = ExactStrategy.scip().place(with(p, Duration.ofSeconds(20), Map.of("backend", "cpsat")));
    ExactStrategyOracleTest.assertVerified(p, scip, "scip");
    ExactStrategyOracleTest.assertVerified(p, cpsat, "cpsat");
    assertThat(cpsat.statistics()).containsKey("solverBranches");
    assertThat(scip.statistics()).containsKey("solverNodes");
    ExactStrategyOracleTest.assertCostEquals(cpsat.plan().get().cost(), scip.plan().get().cost(), "backends");
  }

  @Test
  void tinyTimeLimitEndsWithoutHanging() {
    PlacementProblem big = TransformerClusters.problem(1000, 80, 7);
    for (ExactStrategy s : new ExactStrategy[] {ExactStrategy.scip(), ExactStrategy.cpSat()}) {
      PlacementResult r = s.place(with(big, Duration.ofMillis(1), Map.of()));
      assertThat(r.status()).as(r.toString()).isIn(SolveStatus.NO_SOLUTION_IN_TIME, SolveStatus.FEASIBLE);
      ExactStrategyOracleTest.assertVerified(big, r, r.toString());
      if (r.status() == SolveStatus.NO_SOLUTION_IN_TIME) {
        assertThat(r.reason()).contains("time limit");
      }
    }
  }

  @Test
  void strategyReportsTheSolversTimeLimitHonestly() {
    // The full co-location model of a 1000-GPU, 80-block problem (about 100k stage candidates)
    // found no solution within 20 s when measured; here the solver gets what building leaves of 3 s.
    PlacementProblem big = TransformerClusters.problem(1000, 80, 1, true);
    PlacementResult r = ExactStrategy.scip().place(with(big, Duration.ofSeconds(3), Map.of("model", "full")));
    assertThat(r.status()).as(r.toString()).isIn(SolveStatus.NO_SOLUTION_IN_TIME, SolveStatus.FEASIBLE);
    ExactStrategyOracleTest.assertVerified(big, r, r.toString());
    if (r.status() == SolveStatus.NO_SOLUTION_IN_TIME) {
      assertThat(r.reason()).contains("time limit", "feasibility is unknown");
    } else {
      assertThat(r.gap()).isPresent();
    }
  }

  @Test
  void whenTheRelaxationNeedsIntraNodeLinksTheNetworkOnlyPlanIsTheFallback() {
    // Tighten the latency bound of a benchmark instance to just below what its optimal plan needs
    // over the network, but above what it would need over NVLink: the relaxation (charging NVLink
    // everywhere) keeps a plan whose stages cannot share a node, so the strategy must fall back.
    PlacementProblem base = TransformerClusters.problem(1000, 80, 3, true);
    PlacementResult optimal = ExactStrategy.scip().place(base);
    assertThat(optimal.status()).isEqualTo(SolveStatus.OPTIMAL);
    var plan = optimal.plan().get();
    assertThat(plan.stages()).hasSizeGreaterThan(1);
    var cluster = base.state().cluster();
    int cut = plan.stages().get(1).from();
    double network = base.performance().transferSeconds(base.request().model(), cut, 1, cluster.network());
    double nvlink = base.performance().transferSeconds(base.request().model(), cut, 1,
        cluster.node(cluster.gpus().get(0).node()).intraLink());
    double latency = plan.latency().toNanos() * 1e-9;
    var slo = org.rampa.domain.Slo.builder().from(base.request().slo())
        .latencyBound(Duration.ofNanos((long) ((latency - (network - nvlink) / 2) * 1e9))).build();
    var request = org.rampa.domain.ServiceRequest.builder().from(base.request()).slo(slo).build();
    PlacementProblem tighter = new PlacementProblem(request, base.state(), base.importance(), base.performance(),
        StrategyOptions.builder().from(base.options()).timeLimit(Duration.ofSeconds(4)).build());
    PlacementResult r = ExactStrategy.scip().place(tighter);
    ExactStrategyOracleTest.assertVerified(tighter, r, r.toString());
    assertThat(r.statistics()).as(r.toString()).containsKey("networkOnlySolveStartMillis");
    assertThat(r.status()).as(r.toString())
        .isIn(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE, SolveStatus.NO_SOLUTION_IN_TIME, SolveStatus.INFEASIBLE);
    if (r.status() == SolveStatus.FEASIBLE) {
      assertThat(r.bound().getAsDouble()).isLessThanOrEqualTo(r.plan().get().cost());
      assertThat(r.bound().getAsDouble()).isGreaterThanOrEqualTo(plan.cost() * (1 - 1e-9));
    }
    if (r.plan().isPresent()) {
      assertThat(r.plan().get().cost()).isGreaterThanOrEqualTo(plan.cost() * (1 - 1e-9));
    }
  }

  @Test
  void solverHonoursItsTimeLimitOnAHardModel() {
    // The full co-location model of a 64-GPU, 80-block problem takes SCIP far longer than this.
    PlacementProblem p = TransformerClusters.problem(64, 80, 1);
    IntervalFlowFormulation f = new IntervalFlowFormulation(p.request(), p.state(), p.importance().evaluate(p.state()),
        p.performance(), IntervalFlowFormulation.Charging.NETWORK);
    for (MilpBackend backend : new MilpBackend[] {new ScipBackend(SolveWatchdog.shared()), new CpSatBackend(SolveWatchdog.shared())}) {
      MilpBackend.Solution s = backend.solve(f.model,
          new MilpBackend.Settings(TimeBudget.start(System::nanoTime, Duration.ofMillis(300)), 1e-6, 1, Optional.empty(), ""));
      assertThat(s.outcome()).as(backend.name()).isIn(MilpBackend.Outcome.UNKNOWN, MilpBackend.Outcome.FEASIBLE,
          MilpBackend.Outcome.OPTIMAL);
    }
  }

  @Test
  void warmStartFromAHeuristicPlan() {
    PlacementProblem p = feasible();
    PlacementResult cold = ExactStrategy.scip().place(p);
    PlacementStrategy oracle = new PlacementStrategy() {
      @Override
      public String name() {
        return "replay";
      }

      @Override
      public PlacementResult place(PlacementProblem problem) {
        return cold;
      }
    };
    PlacementResult warm = ExactStrategy.scip().withWarmStart(oracle).place(p);
    ExactStrategyOracleTest.assertVerified(p, warm, warm.toString());
    assertThat(warm.status()).isEqualTo(SolveStatus.OPTIMAL);
    ExactStrategyOracleTest.assertCostEquals(warm.plan().get().cost(), cold.plan().get().cost(), "warm vs cold");
    assertThat(warm.statistics()).containsKey("warmStartUsed");
  }

  @Test
  void exportsTheModelAsLp(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("model.lp");
    PlacementResult r = ExactStrategy.scip().place(with(feasible(), Duration.ofSeconds(20), Map.of("exportLp", file.toString())));
    assertThat(r.status()).isEqualTo(SolveStatus.OPTIMAL);
    String lp = Files.readString(file);
    assertThat(lp).contains("Minimize", "latency_us", "start", "x_0_");
  }

  @Test
  void badOptionsFailLoudly() {
    PlacementProblem p = feasible();
    assertThatThrownBy(() -> ExactStrategy.scip().place(with(p, Duration.ofSeconds(5), Map.of("backend", "gurobi"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backend").hasMessageContaining("Maybe");
    assertThatThrownBy(() -> ExactStrategy.scip().place(
        with(p, Duration.ofSeconds(5), Map.of("solverParameters", "no/such/parameter = 3"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SCIP rejected");
    assertThatThrownBy(() -> ExactStrategy.cpSat().place(
        with(p, Duration.ofSeconds(5), Map.of("solverParameters", "no_such_field: 3"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CP-SAT rejected");
    assertThatThrownBy(() -> ExactStrategy.scip().place(with(p, Duration.ofSeconds(5), Map.of("maxLabels", "3"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("options.extra.maxLabels = 3")
        .hasMessageContaining("not an option of exact (known: [backend, exportLp, model, sharing, sharingMargin, sharingMpsLevels, sharingTopK, "
            + "solverParameters])");
    assertThatThrownBy(() -> ExactStrategy.scip().place(with(p, Duration.ofSeconds(5), Map.of("sharing", "yes"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("options.extra.sharing = yes")
        .hasMessageContaining("must be one of [off, on]"); // the problem reads the sharing keys first (its margin depends on them)
    assertThatThrownBy(() -> ExactStrategy.scip().place(with(p, Duration.ofSeconds(5), Map.of("model", "partial"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be one of [auto, full] (exact)");
  }
}
