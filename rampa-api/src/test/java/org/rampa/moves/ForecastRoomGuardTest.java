package org.rampa.moves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuMode;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.ShareCost;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.Property;
import org.rampa.verify.InterferenceGuard;

/**
 * The guarded room ({@link ForecastRoom#guarded}) on seeded fragmented shared clusters
 * ({@link FragmentedClusters}, full and not), one MPS level weighed at a time so a GPU's room is its
 * usable copies times the level: never more than the alone-test's room, the same where no service with
 * a request runs, and sound against the real guard: wherever it counts a copy, a real newcomer on that
 * share (its own SLO loose) is admitted by the {@link InterferenceGuard} without any incumbent missing
 * its SLO. Somewhere over the seeds it does count fewer copies, so the cap is not vacuous.
 */
class ForecastRoomGuardTest {

  private static final InterferenceGuard GUARD = InterferenceGuard.defaults();

  @Test
  void guardedCopiesAreAtMostTheAloneTestsAndEveryCountedCopyPassesTheRealGuard() {
    int[] capped = {0};
    int[] checked = {0};
    Property.forSeeds("guarded room", 60, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1 + r.nextInt(2)), 2 + r.nextInt(3), ClusterPresets.NETWORK_100G);
      ClusterState state = FragmentedClusters.state(cluster, r, r.nextBoolean());
      DecodeServices newcomers = new DecodeServices(cluster, "newcomer");
      String type = cluster.gpus().get(0).type();
      for (double level : SharingOptions.DEFAULT_MPS_LEVELS) {
        ForecastRoom alone = onlyLevel(state, type, level);
        ForecastRoom guarded = alone.guarded(GUARD);
        for (Gpu g : cluster.gpus()) {
          int aloneCopies = copies(alone.onGpu(state, g.id()), level);
          int guardedCopies = copies(guarded.onGpu(state, g.id()), level);
          assertThat(guardedCopies).as("GPU %s level %s", g.id(), level).isBetween(0, aloneCopies);
          assertThat(guarded.emptied(state, g.id())).isEqualTo(alone.emptied(state, g.id()));
          boolean incumbents = state.servicesOn(g.id()).stream().anyMatch(id -> state.allocations().get(id).request().isPresent());
          if (!incumbents) {
            assertThat(guardedCopies).as("no incumbent to keep within its SLO").isEqualTo(aloneCopies);
          }
          if (guardedCopies < aloneCopies) {
            capped[0]++;
          }
          if (guardedCopies >= 1 && state.mode(g.id()) == GpuMode.MPS) {
            DecodeServices.Admission a = newcomers.service("newcomer", g.id(), new MpsShare(level, newcomers.memory()), 1000);
            if (state.conflicts(org.rampa.domain.Allocation.of(a.request(), a.plan())).isEmpty()) {
              checked[0]++;
              assertThat(GUARD.refusals(state, a.request(), a.plan())).as("GPU %s level %s: a counted copy is admitted", g.id(), level).isEmpty();
            }
          }
        }
      }
    });
    assertThat(capped[0]).as("the guard caps copies somewhere").isPositive();
    assertThat(checked[0]).as("counted copies checked against the guard").isPositive();
  }

  @Test
  void aGuardIsRequired() {
    assertThatThrownBy(() -> ForecastRoom.uniform().guarded(null)).hasMessageContaining("guard");
  }

  /** Every entry 0 but {@code type}'s MPS {@code level}: a GPU's room is its usable copies of that level times the level. */
  private static ForecastRoom onlyLevel(ClusterState state, String type, double level) {
    Map<String, Double> demand = new java.util.HashMap<>();
    demand.put(ShareCost.WHOLE, 0.0);
    state.partitioning(state.cluster().gpus().get(0).id()).requireMig().profiles().forEach(p -> demand.put(p.name(), 0.0));
    SharingOptions.DEFAULT_MPS_LEVELS.forEach(l -> demand.put(ShareCost.mpsEntry(type, l), l == level ? 1.0 : 0.0));
    return new ForecastRoom(demand, SharingOptions.DEFAULT_MPS_LEVELS);
  }

  private static int copies(double room, double level) {
    return (int) Math.round(room / level);
  }
}
