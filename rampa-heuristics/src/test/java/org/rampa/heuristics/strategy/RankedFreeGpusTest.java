package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.ImmutableCluster;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.testing.Property;

/**
 * The baselines read their ranking lazily, class of types after class ({@link RankedFreeGpus}); it
 * must be the list of every free GPU sorted by the rank's type order, then cluster order: the same
 * GPUs in the same order at the same costs, on random mixed clusters (GPUs listed shuffled) with
 * random whole and MPS holdings, with costs by type and costs per GPU.
 */
class RankedFreeGpusTest {

  @Test
  void theLazyRankingIsTheSortedListOfFreeGpus() {
    Property.forSeeds("lazy baseline ranking = sorted free GPUs", 40, seed -> {
      SplittableRandom r = new SplittableRandom(seed);
      Cluster cluster = ClusterPresets.mixed(new int[] {r.nextInt(4), 1 + r.nextInt(4), r.nextInt(4), 1 + r.nextInt(4)}, 1 + r.nextInt(4));
      List<Gpu> gpus = new ArrayList<>(cluster.gpus());
      Collections.shuffle(gpus, new java.util.Random(r.nextLong()));
      cluster = ImmutableCluster.copyOf(cluster).withGpus(gpus);
      ClusterState state = ClusterState.empty(cluster);
      double p = r.nextDouble();
      int n = 0;
      for (Gpu g : cluster.gpus()) {
        double x = r.nextDouble();
        if (x < p * 0.8) {
          state = state.allocate(Allocation.of("bg" + n++, List.of(Holding.whole(g.id(), 1))));
        } else if (x < p) {
          state = state.allocate(Allocation.of("bg" + n++, List.of(Holding.of(g.id(), new MpsShare(0.5, 10), 1))));
        }
      }
      Map<String, Double> weights = new HashMap<>();
      cluster.gpus().stream().filter(g -> r.nextInt(4) == 0).forEach(g -> weights.put(g.id(), 0.1 + r.nextDouble()));
      ImportanceModel importance = switch (r.nextInt(3)) {
        case 0 -> ImportanceModels.capability();
        case 1 -> StaticImportance.uniform().withGpuWeights(weights); // per GPU: no cost by type
        default -> StaticImportance.byType(Map.of(cluster.gpuTypes().get(0).name(), 0.5));
      };
      ServiceRequest request = ServiceRequest.builder().id("s").model(ModelCatalog.prefill("llama2-7b", 512))
          .slo(Slo.of(2, Duration.ofSeconds(1), 1)).build();
      for (Baseline.Rank rank : Baseline.Rank.values()) {
        PlacementContext c = new PlacementContext(Rampa.on(state).importance(importance).problem(request));
        List<FreeGpu> sorted = new ArrayList<>(c.free());
        sorted.sort(Comparator.comparing(FreeGpu::type, rank.byType).thenComparingInt(FreeGpu::clusterIndex));
        List<FreeGpu> lazy = RankedFreeGpus.of(c, rank.byType);
        String msg = "seed " + seed + ", " + rank + ", " + importance.name();
        assertThat(lazy).as(msg).hasSameSizeAs(sorted);
        assertThat(lazy).extracting(FreeGpu::id).as(msg).containsExactlyElementsOf(sorted.stream().map(FreeGpu::id).toList());
        assertThat(lazy).extracting(FreeGpu::cost).as(msg).containsExactlyElementsOf(sorted.stream().map(FreeGpu::cost).toList());
        assertThat(lazy).extracting(FreeGpu::memoryCapBytes).as(msg)
            .containsExactlyElementsOf(sorted.stream().map(FreeGpu::memoryCapBytes).toList());
      }
    });
  }
}
