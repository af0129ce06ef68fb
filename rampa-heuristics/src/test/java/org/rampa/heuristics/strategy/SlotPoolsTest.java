package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.TinyPlacementProblems;
import org.rampa.testing.TinySharedProblems;

/**
 * {@link SlotPools#of} reuses the last pooled menu only for a decision over the same units: a second
 * decision on the same problem gets the same pools, a state with one more GPU held gets pools of its
 * own free GPUs, and a search on the first problem after one on the second answers as it did before.
 * Pools are what the class says they are, on a seeded walk of states (hold a GPU, release a holding,
 * hold one more), whole and shared.
 */
class SlotPoolsTest {

  @Test
  void theSameUnitsReuseThePoolsAndOtherUnitsArePooledAgain() {
    int changed = 0;
    for (long seed = 1; seed <= 60; seed++) {
      PlacementProblem p = TinyPlacementProblems.generate(seed, 8, 6);
      LabelSettingOptions options = LabelSettingOptions.of(p.options());
      SharingOptions sharing = options.sharing();
      PlacementContext first = new PlacementContext(p);
      SlotPools pools = SlotPools.of(first, first.units(sharing));
      PlacementContext again = new PlacementContext(p);
      assertThat(SlotPools.of(again, again.units(sharing))).as("seed %d", seed).isSameAs(pools);

      List<FreeGpu> free = first.free();
      if (free.isEmpty()) {
        continue;
      }
      PlacementResult before = new LabelSearch(p, options).run();
      ClusterState fewer = p.state().allocate(RandomInstances.holdPlan("one-more", free.get(0).id()));
      PlacementProblem q = new PlacementProblem(p.request(), fewer, p.importance(), p.performance(), p.options());
      PlacementContext other = new PlacementContext(q);
      SlotPools repooled = SlotPools.of(other, other.units(sharing));
      assertThat(repooled).as("seed %d", seed).isNotSameAs(pools);
      assertThat(repooled.pools.stream().mapToInt(SlotPools.Pool::size).sum()).as("seed %d", seed).isEqualTo(free.size() - 1);
      new LabelSearch(q, options).run();
      PlacementResult after = new LabelSearch(p, options).run();
      assertThat(after.status()).as("seed %d", seed).isEqualTo(before.status());
      assertThat(after.plan()).as("seed %d", seed).isEqualTo(before.plan());
      assertThat(after.statistics()).as("seed %d", seed).isEqualTo(before.statistics());
      changed++;
    }
    assertThat(changed).as("instances with a free GPU to hold").isGreaterThan(30);
  }

  @Test
  void poolsAreANodesGpusWithTheSameOffersCheapestFirstOnEveryStateOfAWalk() {
    int checked = 0;
    for (long seed = 1; seed <= 80; seed++) {
      PlacementProblem whole = TinyPlacementProblems.generate(seed, 8, 6);
      PlacementProblem shared = TinySharedProblems.generate(seed, 6, 6);
      for (PlacementProblem p : List.of(whole, shared)) {
        SharingOptions sharing = LabelSettingOptions.of(p.options()).sharing();
        SplittableRandom r = new SplittableRandom(seed);
        ClusterState s = p.state();
        for (int step = 0; step < 6; step++) {
          PlacementContext c = new PlacementContext(new PlacementProblem(p.request(), s, p.importance(), p.performance(), p.options()));
          List<FreeGpu> units = c.units(sharing);
          assertPooledByDefinition(SlotPools.of(c, units), units, "seed " + seed + " step " + step);
          checked++;
          s = walk(s, c.free(), r, step);
        }
      }
    }
    assertThat(checked).isEqualTo(80 * 2 * 6);
  }

  /** One step of the walk: hold a random free GPU, release a random holding, or hold the first free GPU. */
  private static ClusterState walk(ClusterState s, List<FreeGpu> free, SplittableRandom r, int step) {
    return switch (r.nextInt(3)) {
      case 0 -> free.isEmpty() ? s : s.allocate(RandomInstances.holdPlan("walk-" + step, free.get(r.nextInt(free.size())).id()));
      case 1 -> {
        List<String> held = new ArrayList<>(s.allocations().keySet());
        yield held.isEmpty() ? s : s.release(held.get(r.nextInt(held.size())));
      }
      default -> free.isEmpty() ? s : s.allocate(RandomInstances.holdPlan("walk-" + step, free.get(0).id()));
    };
  }

  /**
   * The pools by their definition, from the units: a GPU's offers (shape, α, cap, and the cost when it
   * offers several) and its node make its pool's key; pools in order of their first GPU; GPUs cheapest
   * first by their first offer, ties in cluster order; per shape the prefix costs.
   */
  private static void assertPooledByDefinition(SlotPools pools, List<FreeGpu> units, String what) {
    Map<Integer, List<FreeGpu>> offersOfGpu = new LinkedHashMap<>();
    for (FreeGpu u : units) {
      offersOfGpu.computeIfAbsent(u.clusterIndex(), k -> new ArrayList<>()).add(u);
    }
    Map<List<Object>, List<List<FreeGpu>>> byKey = new LinkedHashMap<>();
    for (List<FreeGpu> offers : offersOfGpu.values()) {
      List<Object> key = new ArrayList<>(List.of(offers.get(0).node()));
      for (FreeGpu u : offers) {
        key.add(List.of(u.shape(), u.alpha(), u.memoryCapBytes(), offers.size() > 1 ? u.cost() : 0.0));
      }
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(offers);
    }
    assertThat(pools.pools).as(what).hasSize(byKey.size());
    int index = 0;
    for (List<List<FreeGpu>> members : byKey.values()) {
      members.sort(Comparator.comparingDouble((List<FreeGpu> o) -> o.get(0).cost()).thenComparingInt(o -> o.get(0).clusterIndex()));
      SlotPools.Pool pool = pools.pools.get(index++);
      assertThat(pool.gpus).as(what).containsExactlyElementsOf(members.stream().map(o -> o.get(0)).toList());
      assertThat(pools.nodeIds.get(pool.node)).as(what).isEqualTo(members.get(0).get(0).node());
      for (int k = 0; k < members.get(0).size(); k++) {
        int shape = pools.shapes.indexOf(members.get(0).get(k).shape());
        assertThat(pool.offer[shape]).as(what).isEqualTo(members.get(0).get(k));
        double prefix = 0;
        for (int g = 0; g < members.size(); g++) {
          prefix += members.get(g).get(k).cost();
          assertThat(pool.prefixCost[shape][g + 1]).as(what).isEqualTo(prefix);
        }
      }
      assertThat(pool.offer).as(what).filteredOn(o -> o != null).hasSize(members.get(0).size());
    }
  }
}
