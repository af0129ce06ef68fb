package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.strategy.support.SharedSlotMenu.Origin;
import org.rampa.strategy.support.SharedSlotMenu.Slot;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;
import org.rampa.verify.InterferenceGuard;


/**
 * The shared-slot menu on A100-SXM4-80GB clusters: which slots it offers for free, MPS and MIG
 * GPUs, their α and incumbents' budgets under the default linear interference (5 % per contended
 * co-runner), the top-k bound, and the options that switch it on.
 */
class SharedSlotMenuTest {

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 8), 4, ClusterPresets.NETWORK_100G);
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final InterferenceGuard guard = InterferenceGuard.defaults();

  private String gpu(int i) {
    return cluster.gpus().get(i).id();
  }

  private ClusterState admit(ClusterState state, String id, int gpu, double fraction, double slack) {
    Admission a = services.service(id, gpu(gpu), new MpsShare(fraction, services.memory()), slack);
    return guard.admit(state, a.request(), a.plan());
  }

  private PlacementProblem problem(ClusterState state, Map<String, String> extra) {
    Admission newcomer = services.service("new", gpu(0), new Whole(), 3);
    return PlacementProblem.of(newcomer.request(), state, StaticImportance.uniform(), StrategyOptions.builder().putAllExtra(extra).build());
  }

  @Test
  void sharingOffOffersExactlyTheWholeFreeGpusPerTypeAndNode() {
    ClusterState state = admit(ClusterState.empty(cluster), "chat", 0, 0.5, 2);
    SharedSlotMenu menu = SharedSlotMenu.of(problem(state, Map.of()), SharingOptions.off());
    assertThat(menu.slots()).allSatisfy(s -> {
      assertThat(s.placement()).isEqualTo(new Whole());
      assertThat(s.origin()).isEqualTo(Origin.FREE_GPUS);
      assertThat(s.alpha()).isEqualTo(1.0);
    });
    assertThat(menu.slots().stream().flatMap(s -> s.gpus().stream()).sorted().toList())
        .isEqualTo(state.capacity().gpus().stream().map(g -> g.id()).sorted().toList());
  }

  @Test
  void partlyUsedMpsGpusOfferTheLevelsThatFitWithTheIncumbentsAlphaAndBudget() {
    // chat holds 0.6 and tolerates two co-runners (1.10 <= 1.12 < 1.15)
    ClusterState state = admit(ClusterState.empty(cluster), "chat", 0, 0.6, 1.12);
    SharedSlotMenu menu = SharedSlotMenu.of(problem(state, Map.of()), SharingOptions.on());
    List<Slot> partly = menu.slots().stream().filter(s -> s.origin() == Origin.PARTLY_USED).toList();
    // free 0.4: 1/3 and 1/4 fit, 1/2 does not
    assertThat(partly).extracting(s -> ((MpsShare) s.placement()).fraction()).containsExactlyInAnyOrder(1.0 / 3, 1.0 / 4);
    assertThat(partly).allSatisfy(s -> {
      assertThat(s.gpus()).containsExactly(gpu(0));
      assertThat(s.alpha()).isCloseTo(1.05, org.assertj.core.data.Offset.offset(1e-12));
      assertThat(s.incumbentBudget()).isEqualTo(2);
      // the card less chat's reservation and two MPS contexts
      long context = 512L << 20;
      assertThat(s.memoryCapBytes()).isEqualTo(cluster.type("A100-SXM4-80GB").memoryBytes() - services.memory() - 2 * context);
    });
    // every free GPU class offers the whole GPU and the three levels, alone (alpha 1)
    List<Slot> free = menu.slots().stream().filter(s -> s.origin() == Origin.FREE_GPUS).toList();
    assertThat(free).extracting(s -> s.placement() instanceof Whole ? 1.0 : ((MpsShare) s.placement()).fraction())
        .containsOnly(1.0, 1.0 / 2, 1.0 / 3, 1.0 / 4);
    assertThat(free).allSatisfy(s -> assertThat(s.incumbentBudget()).isEqualTo(SharedSlotMenu.UNLIMITED));
    assertThat(free.stream().flatMap(s -> s.gpus().stream())).doesNotContain(gpu(0));
  }

  @Test
  void aGpuWhoseIncumbentToleratesNoCoRunnerIsLeftOut() {
    ClusterState state = admit(ClusterState.empty(cluster), "chat", 0, 0.5, 1.03);
    assertThat(guard.incumbentBudget(state, gpu(0), new MpsShare(0.25, 0), 8)).isZero();
    SharedSlotMenu menu = SharedSlotMenu.of(problem(state, Map.of()), SharingOptions.on());
    assertThat(menu.slots()).noneMatch(s -> s.origin() == Origin.PARTLY_USED);
  }

  @Test
  void freeMigInstancesAreIsolatedSlots() {
    ClusterState state = ClusterState.empty(cluster).configureMig(gpu(1), List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4)));
    Admission incumbent = services.service("chat", gpu(1), new MigSlice("3g.40gb", 4), 1.0001);
    state = guard.admit(state, incumbent.request(), incumbent.plan());
    SharedSlotMenu menu = SharedSlotMenu.of(problem(state, Map.of()), SharingOptions.on());
    List<Slot> partly = menu.slots().stream().filter(s -> s.origin() == Origin.PARTLY_USED).toList();
    assertThat(partly).singleElement().satisfies(s -> {
      assertThat(s.placement()).isEqualTo(new MigSlice("3g.40gb", 0));
      assertThat(s.alpha()).isEqualTo(1.0);
      assertThat(s.incumbentBudget()).isEqualTo(SharedSlotMenu.BUDGET_PROBE_CAP);
      assertThat(s.placementFor(1)).isEqualTo(new MigSlice("3g.40gb", 0));
    });
  }

  @Test
  void onlyTheTopKBestFitsPerShapeAreKept() {
    ClusterState state = ClusterState.empty(cluster);
    double[] held = {0.3, 0.5, 0.6, 0.2, 0.4};
    for (int i = 0; i < held.length; i++) {
      state = admit(state, "s" + i, i, held[i], 3);
    }
    SharedSlotMenu menu = SharedSlotMenu.of(problem(state, Map.of()),
        SharingOptions.of(ExtraOptions.of(StrategyOptions.builder().putExtra("sharing", "on").putExtra("sharingTopK", "2").build(),
            "test", SharingOptions.KEYS)));
    List<Slot> halves = menu.slots().stream()
        .filter(s -> s.origin() == Origin.PARTLY_USED && ((MpsShare) s.placement()).fraction() == 0.5).toList();
    // free 0.7, 0.5, 0.4 (no), 0.8, 0.6: best fits leave 0 (gpu 1) and 0.1 (gpu 4)
    assertThat(halves).extracting(s -> s.gpus().get(0)).containsExactly(gpu(1), gpu(4));
  }

  @Test
  void optionsAreOptInAndMalformedValuesNameTheKey() {
    StrategyOptions none = StrategyOptions.defaults();
    assertThat(SharingOptions.of(ExtraOptions.of(none, "greedy", SharingOptions.KEYS))).isEqualTo(SharingOptions.off());
    SharingOptions custom = new SharingOptions(true, List.of(0.2, 0.5), 3);
    StrategyOptions applied = custom.applyTo(none);
    assertThat(applied.extra()).containsEntry("sharing", "on").containsEntry("sharingMpsLevels", "1/2,1/5").containsEntry("sharingTopK", "3");
    assertThat(SharingOptions.of(ExtraOptions.of(applied, "greedy", SharingOptions.KEYS))).isEqualTo(custom);
    assertThat(SharingOptions.off().applyTo(none)).isEqualTo(none);
    assertThatThrownBy(() -> SharingOptions.of(ExtraOptions.of(
        StrategyOptions.builder().putExtra("sharingMpsLevels", "0.5").build(), "greedy", SharingOptions.KEYS)))
        .hasMessageContaining("options.extra.sharingMpsLevels").hasMessageContaining("1/n");
    assertThatThrownBy(() -> SharingOptions.of(ExtraOptions.of(
        StrategyOptions.builder().putExtra("sharing", "yes").build(), "greedy", SharingOptions.KEYS)))
        .hasMessageContaining("options.extra.sharing").hasMessageContaining("[off, on]");
  }
}
