package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.testing.Property;

/**
 * A state made by allocate or release from one whose views were built derives its ledger index and
 * capacity from them; they must equal the views built from scratch on the same ledger, after any
 * sequence of whole, MPS and MIG allocations and releases and of MIG layout changes on free GPUs
 * (which check only the GPU they change), also when several changes follow one another without the
 * views being built in between.
 */
class IncrementalViewsTest {

  private static final List<MigSlice> LAYOUT =
      List.of(new MigSlice("2g.20gb", 0), new MigSlice("1g.10gb", 2), new MigSlice("1g.10gb", 3), new MigSlice("3g.40gb", 4));

  @Test
  void derivedViewsEqualViewsBuiltFromScratch() {
    Property.forSeeds("incremental ledger index and capacity = built from scratch", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.mixed(new int[] {2, 1, 2, 1}, 2 + r.nextInt(3));
      ClusterState state = ClusterState.empty(cluster);
      List<Gpu> a100s = cluster.gpus().stream().filter(g -> g.type().equals("A100-SXM4-80GB")).toList();
      state = state.configureMig(a100s.get(0).id(), LAYOUT);
      assertSameViews(state);
      List<String> live = new ArrayList<>();
      for (int step = 0; step < 60; step++) {
        Gpu a100 = a100s.get(r.nextInt(a100s.size()));
        if (r.nextInt(5) == 0 && state.isFree(a100.id())) {
          state = state.configureMig(a100.id(), state.migLayout(a100.id()).isEmpty() ? LAYOUT : List.of());
        } else if (!live.isEmpty() && r.nextInt(3) == 0) {
          state = state.release(live.remove(r.nextInt(live.size())));
        } else {
          Allocation a = randomAllocation(state, "svc" + step, r);
          if (a == null || !state.conflicts(a).isEmpty()) {
            continue;
          }
          state = state.allocate(a);
          live.add(a.serviceId());
        }
        // the ledger keeps allocation order through the persistent map allocate and release share
        assertThat(List.copyOf(state.allocations().keySet())).isEqualTo(live);
        if (r.nextInt(3) == 0) {
          // builds the views: the next state derives its own; otherwise the changes since the last build pile up in its seed
          assertSameViews(state);
        }
      }
    });
  }

  private static Allocation randomAllocation(ClusterState state, String id, SplittableRandom r) {
    List<Holding> holdings = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      Gpu g = state.cluster().gpus().get(r.nextInt(state.cluster().gpus().size()));
      if (!state.migLayout(g.id()).isEmpty()) {
        holdings.add(Holding.of(g.id(), LAYOUT.get(r.nextInt(LAYOUT.size())), 1));
      } else if (r.nextBoolean()) {
        holdings.add(Holding.of(g.id(), new MpsShare(0.25, 10), 10));
      } else {
        holdings.add(Holding.whole(g.id(), 1));
      }
    }
    return holdings.stream().map(Holding::gpu).distinct().count() < holdings.size() ? null : Allocation.of(id, holdings);
  }

  private static void assertSameViews(ClusterState derived) {
    ClusterState fresh = ImmutableClusterState.builder().from(derived).build();
    assertThat(fresh).isNotSameAs(derived);
    Capacity d = derived.capacity();
    Capacity f = fresh.capacity();
    assertThat(d.gpus()).isEqualTo(f.gpus());
    assertThat(d.countByType()).isEqualTo(f.countByType());
    assertThat(d.byTypeAndNode()).isEqualTo(f.byTypeAndNode());
    assertThat(List.copyOf(d.freeMpsShares().entrySet())).isEqualTo(List.copyOf(f.freeMpsShares().entrySet()));
    assertThat(List.copyOf(d.freeMigInstances().entrySet())).isEqualTo(List.copyOf(f.freeMigInstances().entrySet()));
    assertThat(d.freeTemplateCores()).isEqualTo(f.freeTemplateCores());
    assertThat(d.nodeCount()).isEqualTo(f.nodeCount());
    assertThat(d.count()).isEqualTo(f.count());
    for (Gpu g : derived.cluster().gpus()) {
      assertThat(derived.holdingsOn(g.id())).isEqualTo(fresh.holdingsOn(g.id()));
      assertThat(derived.servicesOn(g.id())).isEqualTo(fresh.servicesOn(g.id()));
      assertThat(d.contains(g.id())).isEqualTo(f.contains(g.id()));
    }
    assertThat(Map.copyOf(derived.mpsFaultDomains())).isEqualTo(Map.copyOf(fresh.mpsFaultDomains()));
    // the domains on a few GPUs (a plan's, in any order, with repeats and an id the cluster lacks) are the whole map's
    // entries on those GPUs, in its order
    List<Gpu> gpus = derived.cluster().gpus();
    SplittableRandom r = new SplittableRandom(derived.allocations().size());
    List<String> few = new ArrayList<>(List.of("no-such-gpu"));
    for (int i = 0; i < 4; i++) {
      few.add(gpus.get(r.nextInt(gpus.size())).id());
    }
    Map<String, List<String>> filtered = new LinkedHashMap<>(fresh.mpsFaultDomains());
    filtered.keySet().retainAll(few);
    assertThat(List.copyOf(derived.mpsFaultDomains(few).entrySet())).isEqualTo(List.copyOf(filtered.entrySet()));
    List<String> backwards = new ArrayList<>(gpus.stream().map(Gpu::id).toList());
    Collections.reverse(backwards);
    Map<String, List<String>> all = fresh.mpsFaultDomains(backwards);
    assertThat(List.copyOf(all.entrySet())).isEqualTo(List.copyOf(fresh.mpsFaultDomains().entrySet()));
  }
}
