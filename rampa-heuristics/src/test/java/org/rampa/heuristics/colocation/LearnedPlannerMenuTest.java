package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The learned policy as a planner of every objective, on the random mixes the heuristics are tested
 * on, and its menu on NPUs (partition templates) and AMD GPUs (CU masks): every plan passes the
 * verifier, and the policy cuts cards into several parts.
 */
class LearnedPlannerMenuTest {

  private static final Duration LIMIT = Duration.ofSeconds(10);

  @Test
  void everyObjectiveGetsAVerifiedPlanOrAReason() {
    Map<ColocationObjective, int[]> counts = new EnumMap<>(ColocationObjective.class);
    Property.forSeeds("learned plans of every objective pass the verifier", 60, seed -> {
      ColocationProblem p = RandomMixes.of(seed);
      ColocationResult r = ColocationPlanners.named(ColocationPlanners.LEARNED).plan(p, LIMIT);
      int[] c = counts.computeIfAbsent(p.objective(), o -> new int[2]);
      checked(p, r, c);
    });
    System.out.println("learned on random mixes, [plans, no plan] per objective: "
        + counts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()[0] + "/" + e.getValue()[1]).toList());
    for (ColocationObjective o : ColocationObjective.values()) {
      assertThat(counts.get(o)[0]).as("verified plans for %s", o).isPositive();
    }
  }

  @Test
  void theFewestGpusNeverExceedTheFirstServedEpisodeAndATooSmallClusterIsNamed() {
    // the search only shrinks the cluster: never more GPUs than the whole cluster's episode, and on
    // one GPU too few a reason, not a plan
    ColocationProblem big = org.rampa.scenarios.ParvaGpuScenarios.scenario(3, 1000, ColocationObjective.MIN_GPUS);
    ColocationResult r = ColocationPlanners.named(ColocationPlanners.LEARNED).plan(big, LIMIT);
    assertThat(r.status()).as(r.reason()).isEqualTo(SolveStatus.FEASIBLE);
    int gpus = r.plan().orElseThrow().gpuCount();
    assertThat(r.value().orElseThrow()).isEqualTo(gpus);
    assertThat(r.reason()).startsWith("learned policy: fewest GPUs, ").contains("episodes searching the cluster size");
    ColocationProblem small = org.rampa.scenarios.ParvaGpuScenarios.scenario(3, gpus - 1, ColocationObjective.MIN_GPUS);
    ColocationResult none = ColocationPlanners.named(ColocationPlanners.LEARNED).plan(small, LIMIT);
    if (none.plan().isPresent()) {
      // the policy may do better on a smaller cluster (it is not monotone in the budget): then it still verifies
      assertThat(none.plan().get().gpuCount()).isLessThan(gpus);
    } else {
      assertThat(none.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
      assertThat(none.reason()).contains("on the cluster's " + (gpus - 1) + " GPUs (scale 1 needed)");
    }
  }

  @Test
  void onNpusThePolicyCutsCardsIntoTemplates() {
    int[] c = new int[2];
    int[] cut = new int[1];
    Property.forSeeds("learned NPU plans pass the verifier", 40, seed -> {
      ColocationProblem p = RandomMixes.npu(seed);
      ColocationResult r = ColocationPlanners.named(ColocationPlanners.LEARNED).plan(p, LIMIT);
      checked(p, r, c);
      if (r.plan().isPresent() && r.plan().get().gpus().stream().anyMatch(g -> parts(g, TemplatePartition.class) > 1)) {
        cut[0]++;
      }
    });
    System.out.println("learned on NPU mixes: " + c[0] + " verified plans, " + c[1] + " no plan, an NPU cut into several templates on " + cut[0]);
    assertThat(cut[0]).as("plans with an NPU cut into several templates").isGreaterThan(20);
  }

  @Test
  void onAmdGpusThePolicySharesCardsByCuMasks() {
    int[] c = new int[2];
    int[] shared = new int[1];
    Property.forSeeds("learned CU-mask plans pass the verifier", 30, seed -> {
      ColocationProblem p = RandomMixes.cuMask(seed);
      ColocationResult r = ColocationPlanners.named(ColocationPlanners.LEARNED).plan(p, LIMIT);
      checked(p, r, c);
      if (r.plan().isPresent() && r.plan().get().gpus().stream().anyMatch(g -> parts(g, CuMask.class) > 1)) {
        shared[0]++;
      }
    });
    System.out.println("learned on MI100 mixes: " + c[0] + " verified plans, " + c[1] + " no plan, an MI100 shared by CU masks on " + shared[0]);
    assertThat(shared[0]).as("plans with an MI100 shared by several CU masks").isGreaterThan(10);
  }

  @Test
  void forTheFewestGpusThePolicyNeedsFewerCardsThanExclusiveUseOnNpusAndAmdGpus() {
    // the same mixes, every one for the fewest GPUs, where the learned policy, exclusive use and the heuristic all serve the demand
    for (String family : List.of("npu", "cu-mask")) {
      int[] total = new int[3];
      int mixes = 0;
      int fewer = 0;
      for (long seed = 0; seed < 30; seed++) {
        ColocationProblem p = (family.equals("npu") ? RandomMixes.npu(seed) : RandomMixes.cuMask(seed)).withObjective(ColocationObjective.MIN_GPUS);
        int[] gpus = new int[3];
        List<String> names = List.of(ColocationPlanners.LEARNED, "exclusive", "heuristic");
        for (int i = 0; i < 3; i++) {
          gpus[i] = ColocationPlanners.named(names.get(i)).plan(p, LIMIT).plan().map(ColocationPlan::gpuCount).orElse(-1);
        }
        if (gpus[0] < 0 || gpus[1] < 0 || gpus[2] < 0) {
          continue;
        }
        mixes++;
        fewer += gpus[0] < gpus[1] ? 1 : 0;
        for (int i = 0; i < 3; i++) {
          total[i] += gpus[i];
        }
      }
      System.out.printf("%s mixes, fewest GPUs on %d mixes all three serve: learned %d, exclusive %d, heuristic %d cards in all; "
          + "learned below exclusive on %d%n", family, mixes, total[0], total[1], total[2], fewer);
      assertThat(mixes).as(family).isGreaterThan(10);
      assertThat(total[0]).as(family + ": the learned policy's cards against exclusive use's").isLessThan(total[1]);
      assertThat(fewer).as(family).isGreaterThan(mixes / 3);
    }
  }

  private static void checked(ColocationProblem p, ColocationResult r, int[] counts) {
    assertThat(r.status()).as(r.reason()).isIn(SolveStatus.FEASIBLE, SolveStatus.NO_PLAN_FOUND);
    assertThat(r.bound()).isEmpty();
    if (r.plan().isPresent()) {
      ColocationPlan plan = r.plan().get();
      assertThat(ColocationVerifier.check(p, plan)).isEmpty();
      assertThat(r.value().orElseThrow()).isEqualTo(ColocationVerifier.objectiveValue(p, plan));
      assertThat(r.reason()).startsWith("learned policy: ");
      counts[0]++;
    } else {
      assertThat(r.reason()).startsWith("the learned policy ");
      counts[1]++;
    }
  }

  private static long parts(GpuConfiguration gpu, Class<?> kind) {
    return gpu.segments().stream().filter(s -> kind.isInstance(s.placement())).count();
  }
}
