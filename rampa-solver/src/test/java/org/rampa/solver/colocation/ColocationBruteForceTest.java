package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The exact planner against brute force on tiny instances (1–3 A100s, 1–3 of ParvaGPU's measured
 * models at random rates and SLOs): every legal layout from all subsets of (profile, start) pairs
 * that {@link MigLayout} accepts, every instance given to a service or left empty, every multiset of
 * per-GPU configurations. The exact answer (largest scale, fewest GPUs, weighted served throughput)
 * must equal the brute-force optimum, and the fewest-GPUs
 * answer must be INFEASIBLE exactly when brute force finds no plan.
 */
class ColocationBruteForceTest {

  private static final MigGeometry A100 = SharingCatalog.standard().geometry("A100-80GB");
  private static final List<List<MigSlice>> LEGAL = legalLayouts();

  private static List<List<MigSlice>> legalLayouts() {
    List<MigSlice> candidates = new ArrayList<>();
    for (MigProfile p : A100.profiles()) {
      p.allowedStarts().forEach(s -> candidates.add(new MigSlice(p.name(), s)));
    }
    List<List<MigSlice>> out = new ArrayList<>();
    for (int mask = 1; mask < 1 << candidates.size(); mask++) {
      List<MigSlice> layout = new ArrayList<>();
      for (int i = 0; i < candidates.size(); i++) {
        if ((mask & 1 << i) != 0) {
          layout.add(candidates.get(i));
        }
      }
      if (layout.size() <= 8 && MigLayout.check(A100, layout).isEmpty()) {
        out.add(layout);
      }
    }
    return out;
  }

  @Test
  void thereAre722LegalLayouts() {
    assertThat(LEGAL).hasSize(722);
  }

  @Test
  void exactEqualsBruteForceOnTinyInstances() {
    int[] agreements = new int[4];
    Property.forSeeds("co-location exact = brute force", 24, seed -> {
      Random r = new Random(seed);
      int gpus = 1 + r.nextInt(3);
      ColocationProblem base = ParvaGpuScenarios.scenario(2, gpus, ColocationObjective.MAX_SCALE);
      List<ColocationService> pool = new ArrayList<>(base.services());
      java.util.Collections.shuffle(pool, r);
      List<ColocationService> services = new ArrayList<>();
      int n = 1 + r.nextInt(3);
      for (int i = 0; i < n; i++) {
        ColocationService s = pool.get(i);
        double rate = 20 + r.nextInt(1500);
        Duration slo = Duration.ofMillis((long) (s.slo().toMillis() * (0.3 + r.nextDouble())));
        services.add(new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(), rate, slo, 0, 1));
      }
      ColocationProblem scale = new ColocationProblem(services, base.pools(), base.timeModel(), base.interference(), base.sloRule(), base.admission(),
          ColocationObjective.MAX_SCALE);
      List<double[]> vectors = configurations(scale);
      ConfigurationVectors.Optimum optimum = ConfigurationVectors.Optimum.of(vectors, services, gpus);

      ColocationResult exact = new PatternColocationPlanner().plan(scale, Duration.ofSeconds(20));
      double best = optimum.scale();
      assertThat(exact.status()).as(exact.reason()).isEqualTo(best > 0 ? SolveStatus.OPTIMAL : exact.status());
      if (best > 0) {
        assertThat(ColocationVerifier.check(scale, exact.plan().orElseThrow())).isEmpty();
        assertThat(exact.value().getAsDouble()).as("scale, seed " + seed).isCloseTo(best, org.assertj.core.api.Assertions.within(best * 1e-6));
        agreements[0]++;
      }

      ColocationProblem fewest = scale.withObjective(ColocationObjective.MIN_GPUS);
      Optional<Integer> fewestGpus = optimum.fewestGpus();
      ColocationResult e2 = new PatternColocationPlanner().plan(fewest, Duration.ofSeconds(20));
      if (fewestGpus.isEmpty()) {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.INFEASIBLE);
        agreements[2]++;
      } else {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.OPTIMAL);
        assertThat(ColocationVerifier.check(fewest, e2.plan().orElseThrow())).isEmpty();
        assertThat(e2.plan().orElseThrow().gpuCount()).as("seed " + seed).isEqualTo(fewestGpus.get());
        // the LP bound alone would not have proved it: the integer model closed an integrality gap
        agreements[3] += Math.ceil(ColocationTiming.lpRelaxation(e2) - 1e-6) < fewestGpus.get() ? 1 : 0;
      }
      agreements[1]++;

      // weighted served throughput, weights from their own stream so the instances above stay as they were
      Random w = new Random(seed + 1_000);
      List<ColocationService> weightedServices = services.stream().map(s -> new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(),
          s.rate(), s.slo(), 0, 0.5 + w.nextDouble() * 2)).toList();
      ColocationProblem weighted = new ColocationProblem(weightedServices, base.pools(), base.timeModel(), base.interference(), base.sloRule(),
          base.admission(), ColocationObjective.MAX_WEIGHTED_THROUGHPUT);
      ColocationResult e3 = new PatternColocationPlanner().plan(weighted, Duration.ofSeconds(20));
      double bestWeighted = ConfigurationVectors.Optimum.of(vectors, weightedServices, gpus).weighted();
      assertThat(e3.status()).as(e3.reason()).isEqualTo(SolveStatus.OPTIMAL);
      assertThat(ColocationVerifier.check(weighted, e3.plan().orElseThrow())).isEmpty();
      assertThat(e3.value().getAsDouble()).as("weighted, seed " + seed).isCloseTo(bestWeighted, org.assertj.core.api.Assertions.within(bestWeighted * 1e-6));
    });
    System.out.println("co-location brute force: " + agreements[0] + " largest-scale, " + agreements[1] + " fewest-GPU (" + agreements[2]
        + " of them INFEASIBLE, " + agreements[3] + " proven optimal above the LP bound rounded up) and 24 weighted-throughput agreements");
    assertThat(agreements[3]).as("instances whose optimum lies above the LP bound rounded up").isPositive();
  }

  /** Per-GPU throughput vectors of every legal layout with every instance given to a service or left empty, undominated ones only. */
  private static List<double[]> configurations(ColocationProblem p) {
    SegmentMenu menu = SegmentMenu.of(p);
    GpuPool pool = p.pools().get(0);
    List<ColocationService> services = p.services();
    Map<String, double[]> distinct = new LinkedHashMap<>();
    for (List<MigSlice> layout : LEGAL) {
      double[][] perSlice = new double[layout.size()][services.size()];
      for (int j = 0; j < layout.size(); j++) {
        for (int i = 0; i < services.size(); i++) {
          Optional<SegmentOption> o = menu.best(pool.type().name(), services.get(i).id(), layout.get(j).profile());
          perSlice[j][i] = o.map(SegmentOption::throughput).orElse(-1.0);
        }
      }
      ConfigurationVectors.assignEachPart(perSlice, distinct);
    }
    return ConfigurationVectors.undominated(distinct.values());
  }
}
