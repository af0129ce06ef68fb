package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.strategy.support.SharedSlotMenu.Origin;
import org.rampa.strategy.support.SharedSlotMenu.Slot;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;
import org.rampa.verify.InterferenceGuard;


/**
 * The shared-slot menu on AMD MI100s (120 CUs, CU masking, no MPS): the MPS levels as CU masks
 * (1/2, 1/3, 1/4 of the CUs: 60, 40, 30) on free GPUs and in the free compute of GPUs others hold
 * CU masks on, contended like MPS (α and the incumbents' budget from the guard under the default
 * linear interference, 5 % per contended co-runner), each stage reserving its own memory.
 */
class SharedSlotMenuCuMaskTest {

  private static final String MI100 = "MI100";
  private final Cluster cluster = ClusterPresets.of(Map.of(MI100, 1), 4, ClusterPresets.NETWORK_100G);
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final InterferenceGuard guard = InterferenceGuard.defaults();

  private String gpu(int i) {
    return cluster.gpus().get(i).id();
  }

  private SharedSlotMenu menu(ClusterState state, SharingOptions options) {
    Admission newcomer = services.service("new", gpu(0), new Whole(), 3);
    return SharedSlotMenu.of(PlacementProblem.of(newcomer.request(), state, StaticImportance.uniform(), StrategyOptions.defaults()), options);
  }

  private static List<Integer> computeUnits(List<Slot> slots) {
    return slots.stream().map(s -> s.placement() instanceof CuMask c ? c.computeUnits() : 0).toList();
  }

  @Test
  void freeGpusOfferTheLevelsAsCuMasksAloneAndSharingOffOnlyTheWholeGpu() {
    List<Slot> free = menu(ClusterState.empty(cluster), SharingOptions.on()).slots();
    assertThat(computeUnits(free)).containsExactly(0, 60, 40, 30);
    long card = cluster.type(MI100).memoryBytes();
    assertThat(free).allSatisfy(s -> {
      assertThat(s.origin()).isEqualTo(Origin.FREE_GPUS);
      assertThat(s.alpha()).isEqualTo(1.0);
      assertThat(s.incumbentBudget()).isEqualTo(SharedSlotMenu.UNLIMITED);
      assertThat(s.memoryCapBytes()).isEqualTo(card); // a CU mask has no per-process context to keep free
    });
    assertThat(free.get(2).placementFor(1_000)).isEqualTo(new CuMask(40, 1_000));
    assertThat(computeUnits(menu(ClusterState.empty(cluster), SharingOptions.off()).slots())).containsExactly(0);
  }

  @Test
  void partlyUsedGpusOfferTheCuMasksThatFitTheFreeComputeWithTheIncumbentsAlphaAndBudget() {
    // chat holds 70 of the 120 CUs and tolerates two co-runners (1.10 <= 1.12 < 1.15)
    Admission chat = services.service("chat", gpu(0), new CuMask(70, services.memory()), 1.12);
    ClusterState state = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    List<Slot> partly = menu(state, SharingOptions.on()).slots().stream().filter(s -> s.origin() == Origin.PARTLY_USED).toList();
    // 50 CUs free: 40 and 30 fit, 60 does not
    assertThat(computeUnits(partly)).containsExactlyInAnyOrder(40, 30);
    assertThat(partly).allSatisfy(s -> {
      assertThat(s.gpus()).containsExactly(gpu(0));
      assertThat(s.alpha()).isCloseTo(1.05, within(1e-12));
      assertThat(s.incumbentBudget()).isEqualTo(2);
      assertThat(s.memoryCapBytes()).isEqualTo(cluster.type(MI100).memoryBytes() - services.memory());
    });
  }
}
