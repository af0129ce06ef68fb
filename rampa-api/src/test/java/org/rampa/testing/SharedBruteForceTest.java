package org.rampa.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.BruteForcePlacement.Optimum;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanVerifier;

/** The brute-force oracle on shared GPUs: consistent with the whole-GPU oracle, and honest about incumbents. */
class SharedBruteForceTest {

  @Test
  void withSharingOffTheMenuSearchFindsTheWholeGpuOptimum() {
    Property.forSeeds("menu oracle with sharing off = whole-GPU oracle", 40, seed -> {
      PlacementProblem p = TinyPlacementProblems.generate(seed, 4, 4);
      Optional<Optimum> whole = BruteForcePlacement.solve(p);
      Optional<Optimum> menu = BruteForcePlacement.solve(p, SharingOptions.off());
      assertThat(menu.isPresent()).as("seed %d", seed).isEqualTo(whole.isPresent());
      whole.ifPresent(w -> assertThat(menu.get().cost()).as("seed %d", seed).isCloseTo(w.cost(), org.assertj.core.data.Offset.offset(1e-9)));
    });
  }

  @Test
  void sharingNeverCostsMoreAndEveryPlanKeepsEveryIncumbentsSlo() {
    int[] shared = {0};
    int[] feasible = {0, 0};
    Property.forSeeds("shared oracle", 40, seed -> {
      PlacementProblem p = TinySharedProblems.generate(seed, 4);
      Optional<Optimum> off = BruteForcePlacement.solve(p, SharingOptions.off());
      Optional<Optimum> on = BruteForcePlacement.solve(p, SharingOptions.on());
      feasible[0] += off.isPresent() ? 1 : 0;
      feasible[1] += on.isPresent() ? 1 : 0;
      if (off.isPresent()) {
        assertThat(on).as("seed %d", seed).isPresent();
        assertThat(on.get().cost()).as("seed %d", seed).isLessThanOrEqualTo(off.get().cost() + 1e-9);
      }
      if (on.isPresent()) {
        assertThat(new PlanVerifier(p.performance(), p.interference()).verify(p.request(), on.get().plan(), p.state()).violations())
            .as("seed %d", seed).isEmpty();
        assertThat(InterferenceGuard.defaults().refusals(p.state(), p.request(), on.get().plan())).as("seed %d", seed).isEmpty();
        if (on.get().plan().stages().stream().anyMatch(s -> !(s.placement() instanceof Whole))) {
          shared[0]++;
        }
      }
    });
    System.out.printf("shared oracle: %d of 40 feasible on whole GPUs, %d with sharing, %d optima use a share%n", feasible[0], feasible[1], shared[0]);
    assertThat(shared[0]).as("instances whose optimum uses a share").isGreaterThan(0);
  }

  @Test
  void aNewcomerTakesMpsRoomWhenNoWholeGpuIsLeftAndOnlyIfTheIncumbentToleratesIt() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    String a = cluster.gpus().get(0).id();
    String b = cluster.gpus().get(1).id();
    ClusterState held = ClusterState.empty(cluster).allocate(RandomInstances.holdPlan("hold", b));
    DecodeServices.Admission newcomer = services.service("new", a, new Whole(), 1);
    ServiceRequest request = ServiceRequest.builder().from(newcomer.request())
        .slo(Slo.of(1, Duration.ofNanos((long) (newcomer.aloneSeconds() * 4e9)), 1)).build();
    for (double slack : new double[] {1.2, 1.03}) {
      DecodeServices.Admission chat = services.service("chat", a, new MpsShare(0.5, services.memory()), slack);
      ClusterState state = InterferenceGuard.defaults().admit(held, chat.request(), chat.plan());
      PlacementProblem p = PlacementProblem.of(request, state, StaticImportance.uniform(), StrategyOptions.defaults());
      assertThat(BruteForcePlacement.solve(p)).isEmpty();
      Optional<Optimum> on = BruteForcePlacement.solve(p, SharingOptions.on());
      if (slack > 1.05) {
        assertThat(on).isPresent();
        assertThat(on.get().plan().stages()).singleElement().satisfies(s -> {
          assertThat(s.gpus()).containsExactly(a);
          assertThat(s.placement()).isInstanceOf(MpsShare.class);
          // uniform importance: a share costs its fraction, and the smallest level that meets the SLO wins
          assertThat(on.get().cost()).isEqualTo(((MpsShare) s.placement()).fraction()).isLessThanOrEqualTo(0.5);
        });
      } else {
        assertThat(on).as("chat misses its SLO with any co-runner").isEmpty();
      }
    }
  }
}
