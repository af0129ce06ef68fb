package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.PlanVerifier;

class PlaceabilityTest {

  @Test
  void saysPlaceableOnlyWithAPlanTheVerifierAccepts() {
    int placeable = 0;
    int spread = 0;
    int cases = 0;
    for (long seed = 0; seed < 150; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(2 + ri.random().nextInt(6), 4, 1 + ri.random().nextInt(3));
      ClusterState state = ri.partiallyAllocated(cluster, ri.random().nextDouble() * 0.8);
      PerformanceModel perf = TestInstances.performance(ri);
      Placeability oracle = Placeability.singleType(perf);
      for (int i = 0; i < 3; i++) {
        ServiceRequest request = TestInstances.request(ri, "s" + i);
        cases++;
        Optional<Plan> plan = oracle.plan(request, state);
        assertThat(oracle.canPlace(request, state)).as("seed %d request %d", seed, i).isEqualTo(plan.isPresent());
        if (plan.isPresent()) {
          placeable++;
          assertThat(new PlanVerifier(perf).verify(request, plan.get(), state).violations())
              .as("seed %d request %d: %s", seed, i, plan.get()).isEmpty();
          long nodes = plan.get().gpuIds().stream().map(g -> cluster.gpu(g).node()).distinct().count();
          if (nodes > 1) {
            spread++;
          }
        }
      }
    }
    assertThat(placeable).as("placeable of %d", cases).isBetween(cases / 10, cases - cases / 10);
    assertThat(spread).as("plans over several nodes").isPositive();
  }

  @Test
  void theSingleTypeShortcutForATakenGpuAgreesWithBuildingTheState() {
    int lost = 0;
    for (long seed = 0; seed < 40; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(2 + ri.random().nextInt(4), 4, 1 + ri.random().nextInt(3));
      ClusterState state = ri.partiallyAllocated(cluster, ri.random().nextDouble() * 0.6);
      Placeability oracle = Placeability.singleType(TestInstances.performance(ri));
      Placeability byState = oracle::plan; // only plan(): placeableWithout builds the state
      List<ServiceRequest> requests = List.of(TestInstances.request(ri, "a"), TestInstances.request(ri, "b"));
      for (Gpu g : state.capacity().gpus()) {
        Predicate<ServiceRequest> shortcut = oracle.placeableWithout(state, g.id());
        Predicate<ServiceRequest> built = byState.placeableWithout(state, g.id());
        for (ServiceRequest r : requests) {
          assertThat(shortcut.test(r)).as("seed %d gpu %s request %s", seed, g.id(), r.id()).isEqualTo(built.test(r));
          if (oracle.canPlace(r, state) && !built.test(r)) {
            lost++;
          }
        }
      }
    }
    assertThat(lost).as("cases where taking a GPU loses a request").isPositive();
  }

  @Test
  void aFullClusterPlacesNothingAndAnEmptyOneWhatASingleNodeCanHold() {
    for (long seed = 0; seed < 30; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(3, 4, 3);
      ServiceRequest request = TestInstances.request(ri, "s");
      Placeability oracle = Placeability.singleType(PerformanceModel.defaults());
      assertThat(oracle.canPlace(request, ri.partiallyAllocated(cluster, 1.0))).as("seed %d", seed).isFalse();
      // Monotone: freeing resources never makes a placeable request unplaceable.
      ClusterState some = ri.partiallyAllocated(cluster, 0.5);
      if (oracle.canPlace(request, some)) {
        assertThat(oracle.canPlace(request, ClusterState.empty(cluster))).as("seed %d", seed).isTrue();
      }
    }
  }
}
