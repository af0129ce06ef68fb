package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.PipelinePartition;
import org.rampa.colocation.PipelineStage;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.colocation.SloRule;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The exact planner on pipelined services: it plans Llama-2-70B in stages on A100-80GB (no whole
 * model fits), and on tiny instances it equals a brute force over the verifier's pipelined
 * semantics.
 */
class PipelinedColocationTest {

  private static final String A100 = "A100-SXM4-80GB";

  @Test
  void plansAModelLargerThanAnyGpuInStages() {
    // Llama-2-70B's 138 GB of weights fit no A100-80GB; two or three stages of about equal FLOPs do
    Model model = ModelCatalog.model("llama2-70b");
    ColocationService whole = new ColocationService("llama", model, List.of(1, 2, 4), List.of(1), 20, Duration.ofSeconds(4),
        model.totalWeightBytes() + (2L << 30), 1);
    ColocationService split = whole.withPartitions(List.of(PipelinePartition.evenFlops(model, 2), PipelinePartition.evenFlops(model, 3)));
    List<GpuPool> pools = List.of(new GpuPool(GpuCatalog.standard().type(A100), SharingCatalog.standard().partitioning(A100), 100));
    ColocationProblem p = problem(List.of(split), pools, SloRule.parvaGpu(), ColocationObjective.MIN_GPUS);

    ColocationResult wholeOnly = new PatternColocationPlanner().plan(problem(List.of(whole), pools, SloRule.parvaGpu(), ColocationObjective.MIN_GPUS),
        Duration.ofSeconds(20));
    assertThat(wholeOnly.status()).as(wholeOnly.reason()).isEqualTo(SolveStatus.INFEASIBLE);

    ColocationResult heuristic = ColocationPlanners.named("heuristic").plan(p, Duration.ofSeconds(5));
    for (ColocationResult r : List.of(new PatternColocationPlanner().plan(p, Duration.ofSeconds(20)),
        new PatternColocationPlanner(ColocationPlanners.named("heuristic")).plan(p, Duration.ofSeconds(20)))) {
      assertThat(r.status()).as(r.reason()).isEqualTo(SolveStatus.OPTIMAL);
      ColocationPlan plan = r.plan().orElseThrow();
      assertThat(ColocationVerifier.check(p, plan)).isEmpty();
      assertThat(plan.gpus().stream().flatMap(g -> g.segments().stream())).allSatisfy(s -> assertThat(s.stage()).isNotNull());
      assertThat(plan.gpuCount()).isLessThanOrEqualTo(heuristic.plan().orElseThrow().gpuCount());
      assertThat(r.bound().getAsDouble()).isEqualTo(plan.gpuCount());
      System.out.println("Llama-2-70B in stages, 20 req/s: exact " + plan.gpuCount() + " GPUs (" + r.status() + "), heuristic "
          + heuristic.plan().orElseThrow().gpuCount() + "; " + r.reason());
    }
  }

  /**
   * Seeded mixes of catalog models offering two- and three-stage partitions on A100-80GB (MIG and
   * MPS) and T4 (MPS only) pools, fewest GPUs: every exact plan passes the verifier, lies within its
   * bound and uses no more GPUs than the heuristic's.
   */
  @Test
  void pipelinedMixesAreVerifiedAndNeverWorseThanTheHeuristic() {
    int[] outcome = new int[3]; // OPTIMAL, FEASIBLE, plans running stages
    List<String> names = List.of("resnet50", "vgg16", "bert-base", "gpt2-small", "vit-b16", "gpt2-xl");
    Property.forSeeds("pipelined mixes: exact verified, never worse than the heuristic", 6, seed -> {
      Random r = new Random(seed);
      List<ColocationService> services = new ArrayList<>();
      for (String name : names.subList(0, 1 + r.nextInt(4))) {
        Model model = ModelCatalog.model(name);
        services.add(new ColocationService(name, model, List.of(1, 4, 16), List.of(1), 10 + r.nextInt(2000), Duration.ofMillis(10 + r.nextInt(200)),
            model.totalWeightBytes() + (1L << 30), 1, List.of(PipelinePartition.evenFlops(model, 2), PipelinePartition.evenFlops(model, 3))));
      }
      List<GpuPool> pools = List.of(new GpuPool(GpuCatalog.standard().type(A100), SharingCatalog.standard().partitioning(A100), 4 + r.nextInt(20)),
          new GpuPool(GpuCatalog.standard().type("T4"), SharingCatalog.standard().partitioning("T4"), r.nextInt(20)));
      ColocationProblem p = problem(services, pools, SloRule.parvaGpu(), ColocationObjective.MIN_GPUS);
      ColocationResult heuristic = ColocationPlanners.named("heuristic").plan(p, Duration.ofSeconds(5));
      ColocationResult exact = new PatternColocationPlanner(ColocationPlanners.named("heuristic")).plan(p, Duration.ofSeconds(20));
      assertThat(exact.status()).as(exact.reason()).isIn(SolveStatus.OPTIMAL, SolveStatus.FEASIBLE, SolveStatus.INFEASIBLE);
      if (exact.plan().isPresent()) {
        ColocationPlan plan = exact.plan().get();
        assertThat(ColocationVerifier.check(p, plan)).isEmpty();
        assertThat((double) plan.gpuCount()).isGreaterThanOrEqualTo(exact.bound().getAsDouble());
        heuristic.plan().ifPresent(h -> assertThat(plan.gpuCount()).as(exact.reason()).isLessThanOrEqualTo(h.gpuCount()));
        outcome[exact.status() == SolveStatus.OPTIMAL ? 0 : 1]++;
        outcome[2] += plan.gpus().stream().flatMap(g -> g.segments().stream()).anyMatch(s -> s.stage() != null) ? 1 : 0;
      } else {
        assertThat(heuristic.plan()).as("the heuristic found a plan where exact proved none exists").isEmpty();
      }
    });
    System.out.println("pipelined mixes: exact " + outcome[0] + " OPTIMAL, " + outcome[1] + " FEASIBLE, " + outcome[2] + " plans running stages");
    assertThat(outcome[0] + outcome[1]).isPositive();
  }

  // ---- brute force on tiny pipelined instances ----

  private static final MigGeometry GEOMETRY = SharingCatalog.standard().geometry("A100-80GB");
  /** The distinct instance counts per profile (the geometry's order) of every legal layout, from all subsets of (profile, start) pairs. */
  private static final List<int[]> LAYOUT_COUNTS = layoutCounts();

  private static List<int[]> layoutCounts() {
    List<MigProfile> profiles = GEOMETRY.profiles();
    List<MigSlice> candidates = new ArrayList<>();
    profiles.forEach(p -> p.allowedStarts().forEach(s -> candidates.add(new MigSlice(p.name(), s))));
    Map<String, int[]> out = new LinkedHashMap<>();
    for (int mask = 1; mask < 1 << candidates.size(); mask++) {
      List<MigSlice> layout = new ArrayList<>();
      for (int i = 0; i < candidates.size(); i++) {
        if ((mask & 1 << i) != 0) {
          layout.add(candidates.get(i));
        }
      }
      if (layout.size() <= 8 && MigLayout.check(GEOMETRY, layout).isEmpty()) {
        int[] counts = new int[profiles.size()];
        layout.forEach(s -> counts[profiles.indexOf(GEOMETRY.profile(s.profile()))]++);
        out.putIfAbsent(Arrays.toString(counts), counts);
      }
    }
    return List.copyOf(out.values());
  }

  /**
   * Seeded tiny instances: 1–2 A100-80GB in MIG mode (no MPS, so every configuration is isolated),
   * one service offering a two-stage partition (a model whose stages fit smaller instances than the
   * whole), sometimes a second, whole-only service; two batch sizes each. Brute force: every pair of
   * per-stage caps taken from every stage option's batch time (and "no stage runs"), the sum admitted
   * by the SLO rule; under each pair every legal layout's instances given to a service's whole model,
   * to a stage (best option on that profile within the stage's cap) or left empty, and whole GPUs;
   * every multiset of per-GPU configurations, the pipelined service served its whole-model throughput
   * plus its slower stage's. Exact must equal it (scale, fewest GPUs, weighted throughput), say
   * INFEASIBLE exactly when brute force finds no plan, and every plan must pass the verifier.
   */
  @Test
  void exactEqualsBruteForceOnTinyPipelinedInstances() {
    int[] counts = new int[4]; // agreements, INFEASIBLE, fewest-GPU plans running stages, instances whose largest scale needs stages
    // Llama-2-7B half the time: whole it needs a 1g.20gb instance, each stage fits a 1g.10gb one
    List<String> names = List.of("llama2-7b", "llama2-7b", "llama2-7b", "gpt2-xl", "bert-large", "vgg16");
    Property.forSeeds("pipelined co-location exact = brute force", 10, seed -> {
      Random r = new Random(seed);
      int gpus = 1 + r.nextInt(2);
      Model model = ModelCatalog.model(names.get(r.nextInt(names.size())));
      List<ColocationService> services = new ArrayList<>();
      // Llama-2-7B with 70 GiB of working memory fits no A100-80GB whole, but its stages fit the card or its 7g instance
      long working = model.name().startsWith("llama2-7b") && r.nextBoolean() ? 70L << 30 : 1L << 30;
      services.add(new ColocationService("staged", model, batches(r), List.of(1), 1 + r.nextInt(60), Duration.ofMillis(100 + r.nextInt(3000)),
          model.totalWeightBytes() + working, 0.5 + r.nextDouble(), List.of(PipelinePartition.evenFlops(model, 2))));
      if (r.nextBoolean()) {
        Model other = ModelCatalog.model(r.nextBoolean() ? "resnet50" : "bert-base");
        services.add(new ColocationService("whole", other, batches(r), List.of(1), 20 + r.nextInt(2000), Duration.ofMillis(20 + r.nextInt(200)),
            other.totalWeightBytes() + (1L << 30), 0.5 + r.nextDouble()));
      }
      GpuPartitioning catalog = SharingCatalog.standard().partitioning(A100);
      GpuPartitioning migOnly = new GpuPartitioning(A100, catalog.memoryBytes(), catalog.mig(), false, 0, 0, List.of(), 0, 0);
      List<GpuPool> pools = List.of(new GpuPool(GpuCatalog.standard().type(A100), migOnly, gpus));
      SloRule rule = r.nextBoolean() ? SloRule.parvaGpu() : SloRule.wholeSlo();
      ColocationProblem scale = problem(services, pools, rule, ColocationObjective.MAX_SCALE);
      BruteForce brute = new BruteForce(scale, gpus);

      ColocationResult e1 = new PatternColocationPlanner().plan(scale, Duration.ofSeconds(20));
      counts[3] += brute.bestScale > brute.bestScaleWholeOnly * (1 + 1e-6) ? 1 : 0;
      if (brute.bestScale > 0) {
        assertThat(e1.status()).as(e1.reason()).isEqualTo(SolveStatus.OPTIMAL);
        assertThat(ColocationVerifier.check(scale, e1.plan().orElseThrow())).isEmpty();
        assertThat(e1.value().getAsDouble()).as("scale, seed " + seed).isCloseTo(brute.bestScale, within(brute.bestScale * 1e-6));
      }

      ColocationProblem fewest = scale.withObjective(ColocationObjective.MIN_GPUS);
      ColocationResult e2 = new PatternColocationPlanner().plan(fewest, Duration.ofSeconds(20));
      if (brute.fewestGpus == Integer.MAX_VALUE) {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.INFEASIBLE);
        counts[1]++;
      } else {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.OPTIMAL);
        ColocationPlan plan = e2.plan().orElseThrow();
        assertThat(ColocationVerifier.check(fewest, plan)).isEmpty();
        assertThat(plan.gpuCount()).as("fewest GPUs, seed " + seed).isEqualTo(brute.fewestGpus);
        counts[2] += plan.gpus().stream().flatMap(g -> g.segments().stream()).anyMatch(s -> s.stage() != null) ? 1 : 0;
      }

      ColocationProblem weighted = scale.withObjective(ColocationObjective.MAX_WEIGHTED_THROUGHPUT);
      ColocationResult e3 = new PatternColocationPlanner().plan(weighted, Duration.ofSeconds(20));
      assertThat(e3.status()).as(e3.reason()).isEqualTo(SolveStatus.OPTIMAL);
      assertThat(ColocationVerifier.check(weighted, e3.plan().orElseThrow())).isEmpty();
      assertThat(e3.value().getAsDouble()).as("weighted, seed " + seed).isCloseTo(brute.bestWeighted, within(Math.max(brute.bestWeighted, 1e-9) * 1e-6));
      counts[0]++;
    });
    System.out.println("pipelined co-location brute force: " + counts[0] + " of 10 instances agree on all three objectives (" + counts[1]
        + " fewest-GPU INFEASIBLE); " + counts[2] + " fewest-GPU plans run stages; on " + counts[3]
        + " the largest scale needs stages (above the whole model's best)");
    assertThat(counts[3]).as("instances whose largest scale needs the stages").isPositive();
  }

  private static List<Integer> batches(Random r) {
    List<Integer> all = new ArrayList<>(List.of(1, 2, 4, 8, 16));
    java.util.Collections.shuffle(all, r);
    return new ArrayList<>(new TreeSet<>(all.subList(0, 2)));
  }

  private static ColocationProblem problem(List<ColocationService> services, List<GpuPool> pools, SloRule rule, ColocationObjective objective) {
    return new ColocationProblem(services, pools, AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(), rule, MpsAdmission.strict(),
        objective);
  }

  /**
   * The optimum of every objective by enumeration. Per-GPU vectors: [service i's whole-model throughput …, stage 0's, stage 1's]
   * of the first service's partition.
   */
  private static final class BruteForce {
    double bestScale;
    double bestWeighted;
    int fewestGpus = Integer.MAX_VALUE;
    int fewestGpusWholeOnly = Integer.MAX_VALUE;
    double bestScaleWholeOnly;

    BruteForce(ColocationProblem p, int gpus) {
      SegmentMenu menu = SegmentMenu.of(p);
      String type = p.pools().get(0).type().name();
      List<ColocationService> services = p.services();
      ColocationService staged = services.get(0);
      List<List<SegmentOption>> stageOptions = List.of(menu.stageOptions(type, staged.id(), new PipelineStage(0, 0)),
          menu.stageOptions(type, staged.id(), new PipelineStage(0, 1)));
      List<double[]> caps = new ArrayList<>();
      caps.add(null); // no stage runs
      for (SegmentOption a : stageOptions.get(0)) {
        for (SegmentOption b : stageOptions.get(1)) {
          double[] pair = {batchSeconds(p, a), batchSeconds(p, b)};
          if (p.sloRule().admits(pair[0] + pair[1], staged)) {
            caps.add(pair);
          }
        }
      }
      for (double[] cap : caps) {
        // per part (null: whole GPU, then the geometry's profiles) the throughput of each dimension's best option, -1 when none
        List<String> parts = new ArrayList<>();
        parts.add(null);
        GEOMETRY.profiles().forEach(m -> parts.add(m.name()));
        double[][] perPart = new double[parts.size()][services.size() + 2];
        for (int q = 0; q < parts.size(); q++) {
          String part = parts.get(q);
          for (int i = 0; i < services.size(); i++) {
            perPart[q][i] = menu.options(type, services.get(i).id()).stream().filter(o -> java.util.Objects.equals(o.profile(), part))
                .mapToDouble(SegmentOption::throughput).max().orElse(-1);
          }
          for (int k = 0; k < 2; k++) {
            int stage = k;
            perPart[q][services.size() + k] = cap == null ? -1 : stageOptions.get(k).stream()
                .filter(o -> java.util.Objects.equals(o.profile(), part) && batchSeconds(p, o) <= cap[stage])
                .mapToDouble(SegmentOption::throughput).max().orElse(-1);
          }
        }
        Map<String, double[]> vectors = new LinkedHashMap<>();
        for (int d = 0; d < services.size() + 2; d++) {
          if (perPart[0][d] >= 0) { // a whole GPU runs one segment
            double[] v = new double[services.size() + 2];
            v[d] = perPart[0][d];
            vectors.putIfAbsent(Arrays.toString(v), v);
          }
        }
        for (int[] layout : LAYOUT_COUNTS) {
          assign(layout, 0, perPart, new double[services.size() + 2], vectors);
        }
        List<double[]> undominated = ConfigurationVectors.undominated(vectors.values());
        for (List<Integer> combo : ConfigurationVectors.multisets(undominated.size(), gpus)) {
          double[] sum = ConfigurationVectors.sum(undominated, combo, services.size() + 2);
          double[] served = new double[services.size()];
          for (int i = 0; i < served.length; i++) {
            served[i] = sum[i] + (i == 0 ? Math.min(sum[services.size()], sum[services.size() + 1]) : 0);
          }
          double z = Double.MAX_VALUE;
          double weightedValue = 0;
          boolean covers = true;
          for (int i = 0; i < served.length; i++) {
            ColocationService s = services.get(i);
            z = Math.min(z, served[i] / s.rate());
            weightedValue += s.weight() * Math.min(s.rate(), served[i]);
            covers &= served[i] >= s.rate() * (1 - 1e-6);
          }
          bestScale = Math.max(bestScale, z);
          bestScaleWholeOnly = cap == null ? Math.max(bestScaleWholeOnly, z) : bestScaleWholeOnly;
          bestWeighted = Math.max(bestWeighted, weightedValue);
          if (covers) {
            fewestGpus = Math.min(fewestGpus, combo.size());
            if (cap == null) {
              fewestGpusWholeOnly = Math.min(fewestGpusWholeOnly, combo.size());
            }
          }
        }
      }
    }

    /** Every way to give the instances of profile {@code q} onward to a dimension or leave them empty (instances of one profile as a multiset). */
    private static void assign(int[] layout, int q, double[][] perPart, double[] acc, Map<String, double[]> out) {
      if (q == layout.length) {
        out.putIfAbsent(Arrays.toString(acc), acc.clone());
        return;
      }
      distribute(layout, q, layout[q], 0, perPart, acc, out);
    }

    private static void distribute(int[] layout, int q, int left, int from, double[][] perPart, double[] acc, Map<String, double[]> out) {
      assign(layout, q + 1, perPart, acc, out); // the remaining instances of this profile stay empty
      for (int d = from; d < acc.length && left > 0; d++) {
        double t = perPart[q + 1][d];
        if (t >= 0) {
          acc[d] += t;
          distribute(layout, q, left - 1, d, perPart, acc, out);
          acc[d] -= t;
        }
      }
    }
  }

  /** The batch time of an option alone on its part, as the verifier's performance model computes it. */
  private static double batchSeconds(ColocationProblem p, SegmentOption o) {
    int start = o.whole() ? 0 : GEOMETRY.profile(o.profile()).allowedStarts().get(0);
    Segment s = o.at(start);
    return ColocationPerformance.evaluate(p, new GpuConfiguration(o.gpuType(), List.of(s))).orElseThrow().get(0).batchSeconds();
  }
}
