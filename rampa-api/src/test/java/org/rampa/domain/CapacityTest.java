package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;

class CapacityTest {

  @Test
  void offersExactlyTheGpusNobodyHoldsAnyPartOfGroupedByTypeAndNode() {
    Property.forSeeds("capacity = GPUs without holdings, grouped by type then node", 40, seed -> {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(6, 4, 3);
      ClusterState state = ri.partiallyAllocated(cluster, 0.4);
      Capacity capacity = state.capacity();
      List<Gpu> expected = new ArrayList<>();
      Map<String, Map<String, List<Gpu>>> grouped = new LinkedHashMap<>();
      for (GpuType t : cluster.gpuTypes()) {
        for (Gpu g : cluster.gpus()) {
          if (g.type().equals(t.name()) && state.allocations().values().stream()
              .flatMap(a -> a.holdings().stream()).noneMatch(h -> h.gpu().equals(g.id()))) {
            grouped.computeIfAbsent(t.name(), x -> new LinkedHashMap<>()).computeIfAbsent(g.node(), x -> new ArrayList<>()).add(g);
          }
        }
      }
      for (Gpu g : cluster.gpus()) {
        if (grouped.getOrDefault(g.type(), Map.of()).getOrDefault(g.node(), List.of()).contains(g)) {
          expected.add(g);
        }
      }
      assertThat(capacity.gpus()).containsExactlyElementsOf(expected);
      assertThat(capacity.byTypeAndNode()).isEqualTo(grouped);
      assertThat(capacity.count()).isEqualTo(expected.size());
      for (GpuType t : cluster.gpuTypes()) {
        int n = (int) expected.stream().filter(g -> g.type().equals(t.name())).count();
        assertThat(capacity.count(t.name())).isEqualTo(n);
        assertThat(capacity.countByType().containsKey(t.name())).isEqualTo(n > 0);
      }
      assertThat(state.freeGpus()).isEqualTo(capacity.gpus());
    });
  }

  @Test
  void anAllocationIsTakenWholeOrRefusedAndReleasedAgain() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 3, ClusterPresets.NETWORK_100G);
    String a = cluster.gpus().get(0).id();
    String b = cluster.gpus().get(1).id();
    ClusterState empty = ClusterState.empty(cluster);
    ClusterState held = empty.allocate(Allocation.of("svc", List.of(Holding.of(a, new MpsShare(0.25, 10), 10), Holding.whole(b, 20))));
    assertThat(held.capacity().contains(a)).isFalse();
    assertThat(held.freeShare(a)).isEqualTo(0.75);
    assertThat(held.capacity().freeMpsShares()).containsExactly(Map.entry(a, 0.75));
    assertThat(held.freeMemoryBytes(b)).isEqualTo(cluster.typeOf(b).memoryBytes() - 20);
    assertThatThrownBy(() -> held.allocate(Allocation.of("other", List.of(Holding.of(a, new MpsShare(0.5, 1), 1), Holding.of(b, new MpsShare(0.5, 1), 1)))))
        .isInstanceOf(AllocationRefusedException.class).hasMessageContaining("GPU \"" + b + "\"").hasMessageContaining("MODE");
    assertThat(held.capacity().count()).isEqualTo(cluster.gpus().size() - 2);
    ClusterState released = held.release("svc");
    assertThat(released.capacity().gpus()).isEqualTo(empty.capacity().gpus());
    assertThat(released.version()).isEqualTo(2);
  }

  @Test
  void aMigGpuOffersItsUnheldInstancesAndNotTheWholeGpu() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    String g = cluster.gpus().get(0).id();
    List<MigSlice> layout = List.of(new MigSlice("2g.20gb", 0), new MigSlice("1g.10gb", 2), new MigSlice("1g.10gb", 3), new MigSlice("3g.40gb", 4));
    ClusterState mig = ClusterState.empty(cluster).configureMig(g, layout);
    assertThat(mig.mode(g)).isEqualTo(GpuMode.MIG);
    assertThat(mig.capacity().contains(g)).isFalse();
    assertThat(mig.capacity().freeMigInstances()).containsExactly(Map.entry(g, layout));
    ClusterState held = mig.allocate(Allocation.of("s", List.of(Holding.of(g, new MigSlice("3g.40gb", 4), 1L << 30))));
    assertThat(held.capacity().freeMigInstances().get(g)).containsExactlyElementsOf(layout.subList(0, 3));
  }
}
