package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;

class CapacityTest {

  @Test
  void offersExactlyTheGpusNobodyHoldsAnyPartOfGroupedByTypeAndNode() {
    Property.forSeeds("capacity = GPUs without holdings, grouped by type then node", 40, seed -> {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(6, 4, 3);
      ClusterState state = ri.partiallyAllocated(cluster, 0.4);
      String shared = cluster.gpus().get(0).id();
      if (state.isFree(shared)) {
        state = state.allocate(Allocation.of("half", List.of(Holding.of(shared, ClusterStateTest.placement(0.5, 1), 1))));
      }
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
      assertThat(capacity.contains(shared)).isFalse();
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
    Cluster cluster = new RandomInstances(3).cluster(2, 3, 1);
    String a = cluster.gpus().get(0).id();
    String b = cluster.gpus().get(1).id();
    ClusterState empty = ClusterState.empty(cluster);
    ClusterState held = empty.allocate(Allocation.of("svc", List.of(Holding.of(a, ClusterStateTest.placement(0.25, 10), 10), Holding.of(b, ClusterStateTest.placement(1.0, 20), 20))));
    assertThat(held.capacity().contains(a)).isFalse();
    assertThat(held.freeShare(a)).isEqualTo(0.75);
    assertThat(held.freeMemoryBytes(b)).isEqualTo(cluster.typeOf(b).memoryBytes() - 20);
    assertThatThrownBy(() -> held.allocate(Allocation.of("other", List.of(Holding.of(a, ClusterStateTest.placement(0.5, 1), 1), Holding.of(b, ClusterStateTest.placement(0.5, 1), 1)))))
        .isInstanceOf(AllocationRefusedException.class).hasMessageContaining("GPU \"" + b + "\"");
    assertThat(held.capacity().count()).isEqualTo(cluster.gpus().size() - 2);
    ClusterState released = held.release("svc");
    assertThat(released.capacity().gpus()).isEqualTo(empty.capacity().gpus());
    assertThat(released.version()).isEqualTo(2);
  }
}
