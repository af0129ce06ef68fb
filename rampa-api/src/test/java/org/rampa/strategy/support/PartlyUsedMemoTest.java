package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.ImmutableClusterState;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.moves.MoveSpace;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.InterferenceGuard;

/**
 * {@link PartlyUsedMemo}: on seeded walks of shared states (tenants held on MPS shares, MIG instances
 * and whole GPUs, released, moved to another GPU, free GPUs re-cut into MIG layouts or out of MIG,
 * a state now and then rebuilt without its predecessor's index), the menu built with the memo,
 * which each step's state mostly reads from the step before, equals the menu built from scratch,
 * slot for slot and in order, under several sharing options (levels, top-k, margins) alternating.
 */
class PartlyUsedMemoTest {

  private static final List<Map<String, String>> OPTIONS = List.of(Map.of(), Map.of("sharingTopK", "1"),
      Map.of("sharingMpsLevels", "1/2,1/4"), Map.of("sharingMargin", "none", "sharingTopK", "2"));

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 3), 4, ClusterPresets.NETWORK_100G);
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final InterferenceGuard guard = InterferenceGuard.defaults();

  @Test
  void theMemoizedMenuEqualsTheMenuFromScratchOnSeededWalks() {
    int compared = 0;
    int partlyUsedSlots = 0;
    for (long seed = 1; seed <= 25; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      ClusterState state = FragmentedClusters.state(cluster, r, false);
      for (int step = 0; step < 40; step++) {
        state = step(state, r, "s" + seed + "-" + step);
        for (Map<String, String> extra : OPTIONS) {
          Admission newcomer = services.service("newcomer", cluster.gpus().get(0).id(), new Whole(), 1.5 + r.nextDouble());
          PlacementProblem problem = PlacementProblem.of(newcomer.request(), state, StaticImportance.uniform(),
              StrategyOptions.builder().putExtra("sharing", "on").putAllExtra(extra).build());
          SharingOptions options = SharingOptions.in(problem.options());
          var costs = problem.importance().evaluate(state);
          List<SharedSlotMenu.Slot> memoized = SharedSlotMenu.of(problem, options, costs, true).slots();
          List<SharedSlotMenu.Slot> scratch = SharedSlotMenu.of(problem, options, costs, false).slots();
          assertThat(memoized).as("seed %d step %d options %s", seed, step, extra).isEqualTo(scratch);
          compared++;
          partlyUsedSlots += (int) scratch.stream().filter(s -> s.origin() == SharedSlotMenu.Origin.PARTLY_USED).count();
        }
      }
    }
    // the walks reach menus with partly used GPUs of every kind the cluster has, not just free ones
    assertThat(compared).isEqualTo(25 * 40 * OPTIONS.size());
    assertThat(partlyUsedSlots).isGreaterThan(compared);
  }

  /** One random change: hold, release, move, re-cut, or the same state rebuilt without its ledger index. */
  private ClusterState step(ClusterState state, SplittableRandom r, String id) {
    List<Gpu> gpus = cluster.gpus();
    Gpu g = gpus.get(r.nextInt(gpus.size()));
    try {
      switch (r.nextInt(7)) {
        case 0, 1 -> {
          return hold(state, r, id, g);
        }
        case 2 -> {
          List<String> held = new ArrayList<>(state.allocations().keySet());
          return held.isEmpty() ? state : state.release(held.get(r.nextInt(held.size())));
        }
        case 3 -> {
          // a migration: a tenant released and admitted, same placement, on another GPU
          List<Allocation> tenants = state.allocations().values().stream().filter(a -> a.request().isPresent()).toList();
          if (tenants.isEmpty()) {
            return state;
          }
          Allocation a = tenants.get(r.nextInt(tenants.size()));
          Placement p = a.plan().get().stages().get(0).placement();
          Admission moved = services.service(a.serviceId(), g.id(), p, 1.5 + r.nextDouble());
          return guard.admit(state.release(a.serviceId()), moved.request(), moved.plan());
        }
        case 4 -> {
          if (!state.isFree(g.id())) {
            return state;
          }
          List<List<MigSlice>> layouts = MoveSpace.maximalLayouts(state.partitioning(g.id()).requireMig(), List.of());
          boolean outOfMig = !state.migLayout(g.id()).isEmpty() && r.nextBoolean();
          return state.configureMig(g.id(), outOfMig ? List.of() : layouts.get(r.nextInt(layouts.size())));
        }
        case 5 -> {
          return ImmutableClusterState.copyOf(state).withVersion(state.version() + 1);
        }
        default -> {
          return state.allocate(RandomInstances.holdPlan(id, g.id()));
        }
      }
    } catch (RuntimeException refused) {
      return state; // a tenant that does not fit there, a neighbour's SLO, a layout on a held GPU: nothing changes
    }
  }

  /** A decode tenant on {@code g}: a free MIG instance when it has a layout, else an MPS share of 1/4 to 1/2. */
  private ClusterState hold(ClusterState state, SplittableRandom r, String id, Gpu g) {
    List<MigSlice> instances = state.capacity().freeMigInstances().getOrDefault(g.id(), List.of());
    Placement p = !state.migLayout(g.id()).isEmpty()
        ? (instances.isEmpty() ? null : instances.get(r.nextInt(instances.size())))
        : new MpsShare(List.of(0.25, 1.0 / 3, 0.5).get(r.nextInt(3)), services.memory());
    if (p == null) {
      return state;
    }
    Admission a = services.service(id, g.id(), p, 1.05 + 2 * r.nextDouble());
    return guard.admit(state, a.request(), a.plan());
  }
}
