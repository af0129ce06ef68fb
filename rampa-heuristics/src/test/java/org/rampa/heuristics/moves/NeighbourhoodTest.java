package org.rampa.heuristics.moves;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MpsShare;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.FragmentedClusters;
import org.rampa.testing.Property;

/**
 * The state around a few GPUs, on seeded fragmented shared clusters (12-24 A100s: MPS tenants,
 * MIG layouts with a held instance, GPUs held whole): it holds the GPUs asked for, every GPU in it
 * carries exactly its holdings, layout and mode of the full state, every service on those GPUs is
 * in it with its allocation, and a plan the greedy placer finds there passes the verifier on the
 * full state.
 */
class NeighbourhoodTest {

  @Test
  void aNeighbourhoodIsTheFullStateOnItsGpusAndItsPlansHoldThere() {
    AtomicInteger placed = new AtomicInteger();
    Property.forSeeds("neighbourhood = full state on its GPUs", 30, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 3 + r.nextInt(4)), 4, ClusterPresets.NETWORK_100G);
      ClusterState full = FragmentedClusters.state(cluster, r, r.nextBoolean());
      List<String> asked = new ArrayList<>();
      for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
        asked.add(cluster.gpus().get(r.nextInt(cluster.gpus().size())).id());
      }
      ClusterState near = Neighbourhood.around(full, asked);
      assertThat(near.cluster().gpus()).extracting(Gpu::id).containsAll(asked);
      for (Gpu g : near.cluster().gpus()) {
        assertThat(near.holdingsOn(g.id())).isEqualTo(full.holdingsOn(g.id()));
        assertThat(near.migLayout(g.id())).isEqualTo(full.migLayout(g.id()));
        assertThat(near.mode(g.id())).isEqualTo(full.mode(g.id()));
        for (String id : full.servicesOn(g.id())) {
          assertThat(near.allocations().get(id)).isEqualTo(full.allocations().get(id));
        }
      }
      assertThat(near.allocations().keySet()).allMatch(full::holds);

      DecodeServices services = new DecodeServices(cluster, "newcomer");
      DecodeServices.Admission newcomer = services.service("new", cluster.gpus().get(0).id(), new MpsShare(0.25, services.memory()),
          1.5 + r.nextDouble());
      Rampa.Placer placer = Rampa.on(full).strategy("greedy").importance(StaticImportance.uniform()).sharing(SharingOptions.on());
      PlacementResult there = placer.state(near).place(newcomer.request());
      there.plan().ifPresent(plan -> {
        placed.incrementAndGet();
        assertThat(placer.verify(newcomer.request(), plan).violations()).isEmpty();
      });
    });
    assertThat(placed.get()).as("seeds where the newcomer fits near the GPUs").isPositive();
  }
}
