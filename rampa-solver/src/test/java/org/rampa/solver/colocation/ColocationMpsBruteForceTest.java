package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The exact planner's MPS sets against brute force on tiny T4 clusters (MPS, no MIG; catalog models
 * on the analytic tier, default interference): per GPU a service alone on the whole GPU, or every
 * ordered pair of services at every pair split and batch pair, or every ordered triple at every
 * triple split and batch triple, each kept when MPS admission and every tenant's SLO rule (α for
 * exactly those co-runners) allow it; every multiset of per-GPU configurations. Exact must equal
 * the optimum of every objective and be INFEASIBLE exactly when brute force finds no plan.
 */
class ColocationMpsBruteForceTest {

  @Test
  void exactEqualsBruteForceOverMpsPairsAndTriples() {
    int[] counts = new int[4]; // agreements, INFEASIBLE, exact plans using a triple, instances where triples beat pairs
    List<String> names = List.of("resnet50", "vgg16", "mobilenetv2", "bert-base");
    Property.forSeeds("MPS pairs and triples: exact = brute force", 12, seed -> {
      Random r = new Random(seed);
      int gpus = 1 + r.nextInt(3);
      List<String> shuffled = new ArrayList<>(names);
      java.util.Collections.shuffle(shuffled, r);
      List<ColocationService> services = new ArrayList<>();
      for (String name : shuffled.subList(0, 1 + r.nextInt(3))) {
        List<Integer> batches = new ArrayList<>(List.of(1, 4, 16));
        java.util.Collections.shuffle(batches, r);
        services.add(new ColocationService(name, ModelCatalog.model(name), new ArrayList<>(new TreeSet<>(batches.subList(0, 2))), List.of(1),
            20 + r.nextInt(800), Duration.ofMillis(20 + r.nextInt(200)), 1L << 30, 0.5 + r.nextDouble()));
      }
      GpuPool t4 = new GpuPool(GpuCatalog.standard().type("T4"), SharingCatalog.standard().partitioning("T4"), gpus);
      ColocationProblem scale = new ColocationProblem(services, List.of(t4), AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(),
          SloRule.wholeSlo(), MpsAdmission.strict(), ColocationObjective.MAX_SCALE);
      List<double[]> withTriples = configurations(scale, true);
      ConfigurationVectors.Optimum brute = ConfigurationVectors.Optimum.of(withTriples, services, gpus);
      counts[3] += brute.scale() > ConfigurationVectors.Optimum.of(configurations(scale, false), services, gpus).scale() * (1 + 1e-6) ? 1 : 0;

      ColocationResult e1 = new PatternColocationPlanner().plan(scale, Duration.ofSeconds(20));
      if (brute.scale() > 0) {
        assertThat(e1.status()).as(e1.reason()).isEqualTo(SolveStatus.OPTIMAL);
        assertThat(ColocationVerifier.check(scale, e1.plan().orElseThrow())).isEmpty();
        assertThat(e1.value().getAsDouble()).as("scale, seed " + seed).isCloseTo(brute.scale(), within(brute.scale() * 1e-6));
        counts[2] += e1.plan().get().gpus().stream().anyMatch(g -> g.segments().size() == 3) ? 1 : 0;
      }
      ColocationProblem fewest = scale.withObjective(ColocationObjective.MIN_GPUS);
      ColocationResult e2 = new PatternColocationPlanner().plan(fewest, Duration.ofSeconds(20));
      if (brute.fewestGpus().isEmpty()) {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.INFEASIBLE);
        counts[1]++;
      } else {
        assertThat(e2.status()).as(e2.reason()).isEqualTo(SolveStatus.OPTIMAL);
        ColocationPlan plan = e2.plan().orElseThrow();
        assertThat(ColocationVerifier.check(fewest, plan)).isEmpty();
        assertThat(plan.gpuCount()).as("fewest GPUs, seed " + seed).isEqualTo(brute.fewestGpus().get());
      }
      ColocationProblem weighted = scale.withObjective(ColocationObjective.MAX_WEIGHTED_THROUGHPUT);
      ColocationResult e3 = new PatternColocationPlanner().plan(weighted, Duration.ofSeconds(20));
      assertThat(e3.status()).as(e3.reason()).isEqualTo(SolveStatus.OPTIMAL);
      assertThat(ColocationVerifier.check(weighted, e3.plan().orElseThrow())).isEmpty();
      assertThat(e3.value().getAsDouble()).as("weighted, seed " + seed).isCloseTo(brute.weighted(), within(Math.max(brute.weighted(), 1e-9) * 1e-6));
      counts[0]++;
    });
    System.out.println("MPS brute force: " + counts[0] + " of 12 instances agree on all three objectives (" + counts[1] + " fewest-GPU INFEASIBLE); "
        + counts[2] + " largest-scale plans use a triple; on " + counts[3] + " triples raise the largest scale above pairs'");
    assertThat(counts[2]).as("largest-scale plans using an MPS triple").isPositive();
  }

  /** Per-GPU throughput vectors (service order) of every configuration, undominated ones only. */
  private static List<double[]> configurations(ColocationProblem p, boolean triples) {
    String type = p.pools().get(0).type().name();
    List<ColocationService> services = p.services();
    Map<String, double[]> out = new LinkedHashMap<>();
    SegmentMenu menu = SegmentMenu.of(p);
    for (int i = 0; i < services.size(); i++) {
      Optional<SegmentOption> alone = menu.best(type, services.get(i).id(), null);
      if (alone.isPresent()) {
        double[] v = new double[services.size()];
        v[i] = alone.get().throughput();
        out.putIfAbsent(Arrays.toString(v), v);
      }
    }
    List<double[]> splits = new ArrayList<>();
    ColocationSpace.MPS_SPLITS.forEach(s -> splits.add(new double[] {s, 1 - s}));
    if (triples) {
      splits.addAll(ColocationSpace.MPS_TRIPLE_SPLITS);
    }
    for (double[] split : splits) {
      tenants(p, split, new int[split.length], 0, out);
    }
    return ConfigurationVectors.undominated(out.values());
  }

  /** Every ordered choice of services for the split's shares, then every batch choice. */
  private static void tenants(ColocationProblem p, double[] split, int[] who, int t, Map<String, double[]> out) {
    if (t == split.length) {
      batches(p, split, who, new int[split.length], 0, out);
      return;
    }
    for (int i = 0; i < p.services().size(); i++) {
      who[t] = i;
      tenants(p, split, who, t + 1, out);
    }
  }

  private static void batches(ColocationProblem p, double[] split, int[] who, int[] batch, int t, Map<String, double[]> out) {
    if (t < split.length) {
      for (int b : p.services().get(who[t]).batches()) {
        batch[t] = b;
        batches(p, split, who, batch, t + 1, out);
      }
      return;
    }
    List<Segment> segments = new ArrayList<>();
    for (int k = 0; k < split.length; k++) {
      ColocationService s = p.services().get(who[k]);
      segments.add(new Segment(s.id(), new MpsShare(split[k], s.processMemoryBytes()), batch[k]));
    }
    GpuConfiguration gpu = new GpuConfiguration(p.pools().get(0).type().name(), segments);
    if (p.admission().check(p.pools().get(0).partitioning(), segments.stream().map(Segment::placement).toList()).isPresent()) {
      return;
    }
    Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(p, gpu);
    if (perf.isEmpty()) {
      return;
    }
    double[] v = new double[p.services().size()];
    for (int k = 0; k < split.length; k++) {
      if (!p.sloRule().admits(perf.get().get(k).batchSeconds(), p.services().get(who[k]))) {
        return;
      }
      v[who[k]] += perf.get().get(k).throughput();
    }
    out.putIfAbsent(Arrays.toString(v), v);
  }
}
