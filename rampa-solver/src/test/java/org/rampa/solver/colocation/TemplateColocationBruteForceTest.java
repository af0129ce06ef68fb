package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.PipelinePartition;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.colocation.SloRule;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The exact planner on the modelled NPU (hard partition templates of 1, 2, 4 and 8 of its 8 cores)
 * against brute force on tiny instances (1–3 NPUs, 1–3 catalog models at random rates, SLOs and
 * process memory): every multiset of templates whose cores and memory fit the card (counted here
 * from the type's templates, not from the planner's layouts), and the whole card; every template
 * given to a service or left empty; every multiset of per-NPU configurations. The largest scale
 * and the fewest NPUs must equal the brute-force optimum (INFEASIBLE exactly when brute force finds
 * no plan), and every plan passes the verifier, warm-started by the heuristic or not.
 */
class TemplateColocationBruteForceTest {

  private static final GpuType NPU = SharingCatalog.standard().npuTypes().get(0);
  private static final GpuPartitioning PARTS = SharingCatalog.standard().partitioning(NPU.name());

  @Test
  void theNpuHasTenMaximalTemplateLayoutsAndBruteForceSeesEveryLegalOne() {
    assertThat(TemplateLayouts.maximal(PARTS)).hasSize(10);
    // 1+1+...: every multiset of {1, 2, 4, 8} cores summing to at most 8, the empty one left out
    assertThat(legalTemplateLayouts()).hasSize(35);
  }

  @Test
  void exactEqualsBruteForceOnTinyNpuInstances() {
    int[] agreements = new int[3];
    Property.forSeeds("template co-location exact = brute force", 20, seed -> {
      Random r = new Random(seed);
      int npus = 1 + r.nextInt(3);
      ColocationProblem scale = problem(r, npus);
      List<double[]> vectors = configurations(scale);
      ConfigurationVectors.Optimum optimum = ConfigurationVectors.Optimum.of(vectors, scale.services(), npus);

      double best = optimum.scale();
      for (ColocationResult exact : List.of(new PatternColocationPlanner().plan(scale, Duration.ofSeconds(20)),
          new PatternColocationPlanner(ColocationPlanners.named("heuristic")).plan(scale, Duration.ofSeconds(20)))) {
        if (best > 0) {
          assertThat(exact.status()).as(exact.reason()).isEqualTo(SolveStatus.OPTIMAL);
          assertThat(ColocationVerifier.check(scale, exact.plan().orElseThrow())).isEmpty();
          assertThat(exact.value().getAsDouble()).as("scale, seed " + seed).isCloseTo(best, within(best * 1e-6));
        }
      }
      agreements[0] += best > 0 ? 1 : 0;

      ColocationProblem fewest = scale.withObjective(ColocationObjective.MIN_GPUS);
      Optional<Integer> fewestNpus = optimum.fewestGpus();
      ColocationResult e2 = new PatternColocationPlanner().plan(fewest, Duration.ofSeconds(20));
      if (fewestNpus.isEmpty()) {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.INFEASIBLE);
        agreements[2]++;
      } else {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.OPTIMAL);
        ColocationPlan plan = e2.plan().orElseThrow();
        assertThat(ColocationVerifier.check(fewest, plan)).isEmpty();
        assertThat(plan.gpuCount()).as("seed " + seed).isEqualTo(fewestNpus.get());
      }
      agreements[1]++;
    });
    System.out.println("template brute force: " + agreements[0] + " largest-scale, " + agreements[1] + " fewest-NPU (" + agreements[2]
        + " of them INFEASIBLE) agreements");
    assertThat(agreements[0]).isGreaterThan(10);
  }

  @Test
  void someOptimumCutsAnNpuIntoSeveralTemplates() {
    int cut = 0;
    for (long seed = 0; seed < 20; seed++) {
      ColocationProblem p = problem(new Random(seed), 2);
      Optional<ColocationPlan> plan = new PatternColocationPlanner().plan(p, Duration.ofSeconds(20)).plan();
      cut += plan.map(x -> x.gpus().stream().filter(g -> g.segments().size() > 1).count()).orElse(0L) > 0 ? 1 : 0;
    }
    assertThat(cut).as("optimal plans with an NPU cut into several templates, of 20").isPositive();
  }

  @Test
  void pipelinedServicesRunTheirStagesOnTemplates() {
    int staged = 0;
    for (long seed = 0; seed < 8; seed++) {
      ColocationProblem whole = problem(new Random(seed), 2);
      List<ColocationService> services = whole.services().stream()
          .map(s -> s.withPartitions(List.of(PipelinePartition.evenFlops(s.model(), 2)))).toList();
      ColocationProblem p = new ColocationProblem(services, whole.pools(), whole.timeModel(), whole.interference(), whole.sloRule(), whole.admission(),
          ColocationObjective.MAX_SCALE);
      ColocationResult exact = new PatternColocationPlanner().plan(p, Duration.ofSeconds(20));
      assertThat(exact.status()).as(exact.reason()).isIn(SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE, SolveStatus.NO_PLAN_FOUND);
      if (exact.plan().isPresent()) {
        ColocationPlan plan = exact.plan().get();
        assertThat(ColocationVerifier.check(p, plan)).isEmpty();
        // the whole-model optimum is one of this space's plans
        assertThat(exact.value().getAsDouble()).isGreaterThanOrEqualTo(ConfigurationVectors.Optimum.of(configurations(whole), whole.services(), 2).scale() * (1 - 1e-6));
        staged += plan.gpus().stream().flatMap(g -> g.segments().stream())
            .anyMatch(s -> s.stage() != null && s.placement() instanceof TemplatePartition) ? 1 : 0;
      }
    }
    System.out.println("pipelined services on NPUs: stages on templates in " + staged + " of 8 optima");
    assertThat(staged).as("optima running a pipeline stage on a template").isPositive();
  }

  private static ColocationProblem problem(Random r, int npus) {
    List<String> models = new ArrayList<>(List.of("resnet50", "mobilenetv2", "bert-base", "vgg16"));
    Collections.shuffle(models, r);
    List<ColocationService> services = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    for (String m : models.subList(0, n)) {
      services.add(new ColocationService(m, ModelCatalog.model(m), List.of(1, 4, 16), List.of(1), 50 + r.nextInt(4000),
          Duration.ofMillis(3 + r.nextInt(60)), (1 + r.nextInt(24)) * (1L << 30), 1));
    }
    return new ColocationProblem(services, List.of(new GpuPool(NPU, PARTS, npus)), AnalyticShareTimeModel.calibrated(),
        InterferenceModel.defaults(), SloRule.parvaGpu(), MpsAdmission.strict(), ColocationObjective.MAX_SCALE);
  }

  /** Every non-empty multiset of the type's templates whose cores and memory fit the card, by brute force over counts. */
  private static List<List<String>> legalTemplateLayouts() {
    List<PartitionTemplate> t = PARTS.templates();
    List<List<String>> out = new ArrayList<>();
    int[] counts = new int[t.size()];
    while (true) {
      int cores = 0;
      long memory = 0;
      List<String> layout = new ArrayList<>();
      for (int i = 0; i < t.size(); i++) {
        cores += counts[i] * t.get(i).cores();
        memory += counts[i] * t.get(i).memoryBytes();
        layout.addAll(Collections.nCopies(counts[i], t.get(i).name()));
      }
      if (!layout.isEmpty() && cores <= PARTS.npuCores() && memory <= PARTS.memoryBytes()) {
        out.add(layout);
      }
      int i = 0;
      while (i < counts.length && ++counts[i] > PARTS.npuCores()) {
        counts[i++] = 0;
      }
      if (i == counts.length) {
        return out;
      }
    }
  }

  /** Per-NPU throughput vectors: the whole card, or a legal template layout with each template given to a service or left empty. */
  private static List<double[]> configurations(ColocationProblem p) {
    SegmentMenu menu = SegmentMenu.of(p);
    List<ColocationService> services = p.services();
    Map<String, double[]> distinct = new LinkedHashMap<>();
    for (int i = 0; i < services.size(); i++) {
      Optional<SegmentOption> whole = menu.best(NPU.name(), services.get(i).id(), null);
      if (whole.isPresent()) {
        double[] v = new double[services.size()];
        v[i] = whole.get().throughput();
        distinct.putIfAbsent(Arrays.toString(v), v);
      }
    }
    for (List<String> layout : legalTemplateLayouts()) {
      double[][] perTemplate = new double[layout.size()][services.size()];
      for (int j = 0; j < layout.size(); j++) {
        for (int i = 0; i < services.size(); i++) {
          Optional<SegmentOption> o = menu.best(NPU.name(), services.get(i).id(), layout.get(j));
          o.ifPresent(x -> assertThat(x.at(0).placement()).isInstanceOf(TemplatePartition.class));
          perTemplate[j][i] = o.map(SegmentOption::throughput).orElse(-1.0);
        }
      }
      ConfigurationVectors.assignEachPart(perTemplate, distinct);
    }
    return ConfigurationVectors.undominated(distinct.values());
  }
}
