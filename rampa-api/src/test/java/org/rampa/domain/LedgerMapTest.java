package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.testing.Property;

/**
 * The persistent ledger map behaves as a {@link LinkedHashMap} that is copied before every change:
 * same entries, same order, same equality and hash, and every earlier version unchanged.
 */
class LedgerMapTest {

  /** "Aa" and "BB" have equal hashes, so these four keys share one: they exercise the collision lists. */
  private static final List<String> COLLIDING = List.of("AaAa", "AaBB", "BBAa", "BBBB");

  @Test
  void behavesAsACopiedLinkedHashMap() {
    Property.forSeeds("ledger map = copied LinkedHashMap", 20, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      List<String> pool = new ArrayList<>(COLLIDING);
      int distinct = 5 + r.nextInt(300);
      for (int i = 0; i < distinct; i++) {
        pool.add("svc" + r.nextInt(1_000_000));
      }
      LedgerMap<Integer> map = LedgerMap.empty();
      Map<String, Integer> model = new LinkedHashMap<>();
      List<LedgerMap<Integer>> versions = new ArrayList<>();
      List<Map<String, Integer>> expected = new ArrayList<>();
      // enough changes to renumber the order trie several times (every ~1 000 + 3 x size changes)
      for (int step = 0; step < 4_000; step++) {
        String key = pool.get(r.nextInt(pool.size()));
        if (r.nextInt(5) < 2) {
          map = map.minus(key);
          model.remove(key);
        } else {
          map = map.plus(key, step);
          model.put(key, step);
        }
        assertSame(map, model, pool);
        if (r.nextInt(200) == 0) {
          versions.add(map);
          expected.add(new LinkedHashMap<>(model));
        }
      }
      for (int i = 0; i < versions.size(); i++) {
        assertSame(versions.get(i), expected.get(i), pool);
      }
    });
  }

  @Test
  void copyOfKeepsTheOrderAndReturnsALedgerMapItself() {
    Map<String, Integer> source = new LinkedHashMap<>();
    for (int i = 0; i < 100; i++) {
      source.put("k" + ((i * 37) % 100), i);
    }
    LedgerMap<Integer> copy = LedgerMap.copyOf(source);
    assertThat(List.copyOf(copy.entrySet())).isEqualTo(List.copyOf(source.entrySet()));
    assertThat(LedgerMap.copyOf(copy)).isSameAs(copy);
  }

  @Test
  void isUnmodifiable() {
    LedgerMap<Integer> map = LedgerMap.<Integer>empty().plus("a", 1);
    assertThatThrownBy(() -> map.put("b", 2)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> map.remove("a")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> map.entrySet().iterator().remove()).isInstanceOf(RuntimeException.class);
    assertThat(map).containsExactly(Map.entry("a", 1));
  }

  @Test
  void aStateBuiltFromAMapHoldsItsOwnCopy() {
    Cluster cluster = ClusterPresets.small();
    ClusterState first = ClusterState.empty(cluster).allocate(Allocation.of("a", List.of(Holding.whole(cluster.gpus().get(0).id(), 1L << 30))));
    Map<String, Allocation> given = new LinkedHashMap<>(first.allocations());
    ClusterState built = ImmutableClusterState.builder().cluster(cluster).allocations(given).build();
    given.clear();
    assertThat(built.allocations()).isInstanceOf(LedgerMap.class).containsOnlyKeys("a");
    assertThat(built).isEqualTo(ImmutableClusterState.copyOf(first).withVersion(0));
  }

  private static void assertSame(LedgerMap<Integer> map, Map<String, Integer> model, List<String> pool) {
    assertThat(map.size()).isEqualTo(model.size());
    assertThat(List.copyOf(map.entrySet())).isEqualTo(List.copyOf(model.entrySet()));
    assertThat(map).isEqualTo(model);
    assertThat(model).isEqualTo(map);
    assertThat(map.hashCode()).isEqualTo(model.hashCode());
    for (String key : pool) {
      assertThat(map.get(key)).isEqualTo(model.get(key));
      assertThat(map.containsKey(key)).isEqualTo(model.containsKey(key));
    }
  }
}
