package org.rampa.solver.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SloRule;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.testing.Property;

/**
 * MPS pricing: on T4 clusters (MPS, no MIG) with catalog models on the analytic tier, the exact
 * planner's bound is a bound over MPS pairs and triples too, so it never exceeds the GPUs of the even split into
 * two or of gpu-lets (under linear interference a larger share never hurts, so every GPU of theirs is
 * matched or dominated by a configuration it searches), and its plans use MPS sets where they pay.
 */
class ColocationMpsPricingTest {

  private static ColocationProblem mix(long seed) {
    Random r = new Random(seed);
    List<String> models = new ArrayList<>(List.of("resnet50", "vgg16", "mobilenetv2", "bert-base"));
    java.util.Collections.shuffle(models, r);
    List<ColocationService> services = new ArrayList<>();
    for (String m : models.subList(0, 1 + r.nextInt(models.size()))) {
      services.add(new ColocationService(m, ModelCatalog.model(m), List.of(1, 4, 16), List.of(1), 20 + r.nextInt(1500),
          Duration.ofMillis(20 + r.nextInt(200)), 1L << 30, 1));
    }
    GpuPool t4 = new GpuPool(GpuCatalog.standard().type("T4"), SharingCatalog.standard().partitioning("T4"), 200);
    return new ColocationProblem(services, List.of(t4), AnalyticShareTimeModel.calibrated(), InterferenceModel.defaults(),
        SloRule.wholeSlo(), MpsAdmission.strict(), ColocationObjective.MIN_GPUS);
  }

  @Test
  void theBoundCoversMpsBaselinesAndPlansUseMpsPairs() {
    int[] mpsPlans = new int[1];
    Property.forSeeds("exact bound <= MPS baselines", 12, seed -> {
      ColocationProblem p = mix(seed);
      ColocationResult exact = new PatternColocationPlanner().plan(p, Duration.ofSeconds(20));
      if (!exact.status().hasPlan()) {
        return;
      }
      assertThat(ColocationVerifier.check(p, exact.plan().get())).isEmpty();
      assertThat(exact.bound()).as(exact.reason()).isPresent();
      for (String baseline : List.of("even-mps-2", "gpu-lets", "exclusive")) {
        ColocationResult b = ColocationPlanners.named(baseline).plan(p, Duration.ofSeconds(5));
        if (b.plan().isPresent()) {
          assertThat(exact.bound().getAsDouble()).as(baseline + ", seed " + seed).isLessThanOrEqualTo(b.plan().get().gpuCount());
        }
      }
      if (exact.plan().get().gpus().stream().anyMatch(g -> g.segments().stream().anyMatch(s -> s.placement() instanceof MpsShare))) {
        mpsPlans[0]++;
      }
    });
    System.out.println("co-location MPS pricing: " + mpsPlans[0] + " of 12 exact plans use MPS pairs or triples");
    assertThat(mpsPlans[0]).isPositive();
  }
}
