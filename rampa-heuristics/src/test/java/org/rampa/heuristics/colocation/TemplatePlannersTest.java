package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.strategy.SolveStatus;
import org.rampa.testing.Property;

/**
 * The heuristic and the baselines on NPU clusters (hard partition templates, {@link RandomMixes#npu}):
 * every plan passes the verifier; the heuristic cuts cards into templates; the even split cuts
 * them into k equal templates; uniform MIG refuses a cluster without MIG, naming why.
 */
class TemplatePlannersTest {

  @Test
  void everyPlanOnAnNpuClusterPassesTheVerifier() {
    int[] counts = new int[3];
    Property.forSeeds("NPU co-location plans pass the verifier", 40, seed -> {
      ColocationProblem p = RandomMixes.npu(seed);
      for (String name : ColocationPlanners.NAMES) {
        ColocationResult r = ColocationPlanners.named(name).plan(p, Duration.ofSeconds(2));
        assertThat(r.status()).as(name + ": " + r.reason()).isIn(SolveStatus.FEASIBLE, SolveStatus.NO_PLAN_FOUND);
        if (r.plan().isPresent()) {
          assertThat(ColocationVerifier.check(p, r.plan().get())).as(name).isEmpty();
          counts[0]++;
          if (name.equals("heuristic") && sharedNpus(r.plan().get()) > 0) {
            counts[2]++;
          }
        } else {
          assertThat(r.reason()).startsWith(name + ":");
          counts[1]++;
        }
      }
    });
    System.out.println("planners on NPU mixes: " + counts[0] + " verified plans, " + counts[1] + " NO_PLAN_FOUND, heuristic shared an NPU between "
        + "templates on " + counts[2] + " of 40");
    assertThat(counts[2]).as("heuristic plans with an NPU cut into several templates").isGreaterThan(20);
  }

  @Test
  void evenSplitCutsEveryNpuIntoEqualTemplatesAndGpuLetsIntoAtMostTwo() {
    int shared = 0;
    for (long seed = 0; seed < 30; seed++) {
      ColocationProblem p = RandomMixes.npu(seed);
      for (String name : List.of("even-mps-2", "even-mps-4", "gpu-lets")) {
        var plan = ColocationPlanners.named(name).plan(p, Duration.ofSeconds(2)).plan();
        if (plan.isEmpty()) {
          continue;
        }
        for (GpuConfiguration gpu : plan.get().gpus()) {
          if (!gpu.gpuType().startsWith("NPU")) {
            continue;
          }
          assertThat(gpu.segments()).allSatisfy(s -> assertThat(s.placement()).isInstanceOf(TemplatePartition.class));
          List<String> used = gpu.segments().stream().map(s -> ((TemplatePartition) s.placement()).template()).toList();
          switch (name) {
            case "even-mps-2" -> assertThat(used).hasSizeLessThanOrEqualTo(2).containsOnly("vir04");
            case "even-mps-4" -> assertThat(used).hasSizeLessThanOrEqualTo(4).containsOnly("vir02");
            default -> assertThat(used).hasSizeLessThanOrEqualTo(2);
          }
          shared += used.size() > 1 ? 1 : 0;
        }
      }
    }
    assertThat(shared).as("NPUs shared by two or more templates over 30 seeds").isPositive();
  }

  @Test
  void uniformMigRefusesAClusterWithoutMigNamingWhy() {
    for (long seed = 0; seed < 20; seed++) {
      ColocationProblem p = RandomMixes.npu(seed);
      if (p.pools().size() > 1) {
        continue; // beside A100s there is MIG to cut
      }
      for (String name : List.of("uniform-mig-1g", "uniform-mig-3g")) {
        ColocationResult r = ColocationPlanners.named(name).plan(p, Duration.ofSeconds(2));
        assertThat(r.status()).isEqualTo(SolveStatus.NO_PLAN_FOUND);
        assertThat(r.reason()).startsWith(name + ": no GPU type of the cluster").contains("NPU-8C-64GB").contains("has MIG");
      }
    }
  }

  /** NPUs of the plan cut into two or more templates. */
  private static long sharedNpus(ColocationPlan plan) {
    return plan.gpus().stream().filter(g -> g.segments().size() > 1 && g.segments().stream().map(Segment::placement)
        .allMatch(p -> p instanceof TemplatePartition)).count();
  }
}
