package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.colocation.SloRule;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The exact planner on AMD MI100s (CU masks of 15, 30 and 60 of the card's 120 CUs: the menu's
 * eighths) against brute force on tiny instances (1–3 MI100s, 1–2 catalog models at random rates and
 * SLOs, batches 1 and 4): per card the whole card, or every multiset of (mask, service, batch) whose
 * masks fit the card's eighths, judged by the verifier itself on exactly that card (legal, MPS
 * admission, memory, SLO with α for exactly its co-runners) and served what the verifier's
 * performance model gives it — no menu price enters; every multiset of per-card configurations. The
 * largest scale and the fewest cards must equal the brute-force optimum (INFEASIBLE exactly when
 * brute force finds no plan), and every plan passes the verifier, warm-started by the heuristic or not.
 */
class CuMaskColocationBruteForceTest {

  private static final GpuType MI100 = GpuCatalog.standard().type("MI100");
  private static final GpuPartitioning PARTS = SharingCatalog.standard().partitioning("MI100");
  private static final List<Integer> BATCHES = List.of(1, 4);

  @Test
  void exactEqualsBruteForceOnTinyAmdInstances() {
    int[] agreements = new int[4];
    Property.forSeeds("CU-mask co-location exact = brute force", 20, seed -> {
      Random r = new Random(seed);
      int cards = 1 + r.nextInt(3);
      ColocationProblem scale = problem(r, cards);
      List<double[]> vectors = configurations(scale);
      ConfigurationVectors.Optimum optimum = ConfigurationVectors.Optimum.of(vectors, scale.services(), cards);

      double best = optimum.scale();
      for (ColocationResult exact : List.of(new PatternColocationPlanner().plan(scale, Duration.ofSeconds(20)),
          new PatternColocationPlanner(ColocationPlanners.named("heuristic")).plan(scale, Duration.ofSeconds(20)))) {
        if (best > 0) {
          assertThat(exact.status()).as(exact.reason()).isEqualTo(SolveStatus.OPTIMAL);
          assertThat(ColocationVerifier.check(scale, exact.plan().orElseThrow())).isEmpty();
          assertThat(exact.value().getAsDouble()).as("scale, seed " + seed).isCloseTo(best, within(best * 1e-6));
          agreements[3] += exact.plan().orElseThrow().gpus().stream().anyMatch(g -> g.segments().get(0).placement() instanceof CuMask) ? 1 : 0;
        }
      }
      agreements[0] += best > 0 ? 1 : 0;

      ColocationProblem fewest = scale.withObjective(ColocationObjective.MIN_GPUS);
      Optional<Integer> fewestCards = optimum.fewestGpus();
      ColocationResult e2 = new PatternColocationPlanner().plan(fewest, Duration.ofSeconds(20));
      if (fewestCards.isEmpty()) {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.INFEASIBLE);
        agreements[2]++;
      } else {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.OPTIMAL);
        ColocationPlan plan = e2.plan().orElseThrow();
        assertThat(ColocationVerifier.check(fewest, plan)).isEmpty();
        assertThat(plan.gpuCount()).as("seed " + seed).isEqualTo(fewestCards.get());
      }
      agreements[1]++;
    });
    System.out.println("CU-mask brute force: " + agreements[0] + " largest-scale, " + agreements[1] + " fewest-card (" + agreements[2]
        + " of them INFEASIBLE) agreements; " + agreements[3] + " largest-scale plans hold CU masks");
    assertThat(agreements[0]).isGreaterThan(10);
    assertThat(agreements[3]).as("largest-scale optima that cut a card into CU masks").isPositive();
  }

  @Test
  void withoutCuMasksTheSameInstancesAreNoBetterAndOftenWorse() {
    // the same tiny instances on a card whose partitioning declares no CU masking: whole cards only
    GpuPartitioning wholeOnly = GpuPartitioning.wholeOnly(MI100.name(), PARTS.memoryBytes());
    int better = 0;
    for (long seed = 0; seed < 20; seed++) {
      ColocationProblem masked = problem(new Random(seed), 2);
      ColocationProblem whole = new ColocationProblem(masked.services(), List.of(new GpuPool(MI100, wholeOnly, 2)), masked.timeModel(),
          masked.interference(), masked.sloRule(), masked.admission(), masked.objective());
      ColocationResult with = new PatternColocationPlanner().plan(masked, Duration.ofSeconds(20));
      ColocationResult without = new PatternColocationPlanner().plan(whole, Duration.ofSeconds(20));
      double a = with.plan().isPresent() ? with.value().getAsDouble() : 0;
      double b = without.plan().isPresent() ? without.value().getAsDouble() : 0;
      assertThat(a).as("seed " + seed).isGreaterThanOrEqualTo(b * (1 - 1e-6));
      better += a > b * (1 + 1e-6) ? 1 : 0;
    }
    assertThat(better).as("of 20 instances, those where CU masks serve a larger scale").isGreaterThan(5);
  }

  private static ColocationProblem problem(Random r, int cards) {
    List<String> models = new ArrayList<>(List.of("resnet50", "mobilenetv2", "bert-base", "vgg16"));
    Collections.shuffle(models, r);
    List<ColocationService> services = new ArrayList<>();
    int n = 1 + r.nextInt(2);
    for (String m : models.subList(0, n)) {
      services.add(new ColocationService(m, ModelCatalog.model(m), BATCHES, List.of(1), 50 + r.nextInt(4000),
          Duration.ofMillis(3 + r.nextInt(60)), 1L << 30, 1));
    }
    return new ColocationProblem(services, List.of(new GpuPool(MI100, PARTS, cards)), AnalyticShareTimeModel.calibrated(),
        InterferenceModel.defaults(), SloRule.parvaGpu(), MpsAdmission.strict(), ColocationObjective.MAX_SCALE);
  }

  /** Per-card throughput vectors: the whole card, or a multiset of (mask, service, batch) the verifier accepts on one card. */
  private static List<double[]> configurations(ColocationProblem p) {
    SegmentMenu menu = SegmentMenu.of(p);
    List<ColocationService> services = p.services();
    Map<String, double[]> distinct = new LinkedHashMap<>();
    for (int i = 0; i < services.size(); i++) {
      Optional<SegmentOption> whole = menu.best(MI100.name(), services.get(i).id(), null);
      if (whole.isPresent()) {
        double[] v = new double[services.size()];
        v[i] = whole.get().throughput();
        distinct.putIfAbsent(java.util.Arrays.toString(v), v);
      }
    }
    // the kinds of mask segment: every mask size (eighths of the CUs) × service × batch
    List<int[]> kinds = new ArrayList<>();
    for (int eighths : List.of(1, 2, 4)) {
      for (int i = 0; i < services.size(); i++) {
        for (int b : BATCHES) {
          kinds.add(new int[] {eighths, i, b});
        }
      }
    }
    masks(p, kinds, 0, 0, new ArrayList<>(), distinct);
    return ConfigurationVectors.undominated(distinct.values());
  }

  private static void masks(ColocationProblem p, List<int[]> kinds, int from, int used, List<int[]> card, Map<String, double[]> out) {
    if (!card.isEmpty()) {
      List<Segment> segments = new ArrayList<>();
      for (int[] k : card) {
        ColocationService s = p.services().get(k[1]);
        segments.add(new Segment(s.id(), new CuMask(k[0] * PARTS.computeUnits() / 8, s.processMemoryBytes()), k[2]));
      }
      ColocationPlan one = new ColocationPlan(List.of(new GpuConfiguration(MI100.name(), segments)), 0);
      if (ColocationVerifier.check(p, one).isEmpty()) {
        Map<String, Double> served = ColocationVerifier.throughputs(p, one);
        double[] v = p.services().stream().mapToDouble(s -> served.get(s.id())).toArray();
        out.putIfAbsent(java.util.Arrays.toString(v), v);
      }
    }
    for (int i = from; i < kinds.size(); i++) {
      if (used + kinds.get(i)[0] <= 8) {
        card.add(kinds.get(i));
        masks(p, kinds, i, used + kinds.get(i)[0], card, out);
        card.remove(card.size() - 1);
      }
    }
  }
}
