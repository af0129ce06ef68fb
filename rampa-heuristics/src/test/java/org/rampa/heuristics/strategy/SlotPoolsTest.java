package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.TinyPlacementProblems;

/**
 * {@link SlotPools#of} reuses the last pooled menu only for a decision over the same units: a second
 * decision on the same problem gets the same pools, a state with one more GPU held gets pools of its
 * own free GPUs, and a search on the first problem after one on the second answers as it did before.
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
}
