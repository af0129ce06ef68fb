package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.testing.RandomInstances;

class ImportanceModelPropertiesTest {

  private static List<ImportanceModel> allModels(RandomInstances ri, WorkloadForecast forecast) {
    PerformanceModel perf = TestInstances.performance(ri);
    ImportanceModel scarcity = ImportanceModels.scarcity(() -> forecast, perf);
    ImportanceModel loss = ImportanceModels.marginalAcceptanceLoss(() -> forecast, Placeability.singleType(perf), 64, ri.seed());
    return List.of(
        ImportanceModels.capability(),
        ImportanceModels.fragmentation(),
        scarcity,
        loss,
        StaticImportance.byType(Map.of("slow", 1.0, "mid", 2.0, "fast", 5.0)),
        ImportanceModels.combination()
            .add(ri.random().nextDouble(), scarcity)
            .add(ri.random().nextDouble(), loss)
            .add(ri.random().nextDouble(), ImportanceModels.fragmentation())
            .add(ri.random().nextDouble(), ImportanceModels.capability())
            .build());
  }

  @Test
  void everyModelIsFiniteAndNonNegativeOnRandomStates() {
    for (long seed = 0; seed < 40; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(2 + ri.random().nextInt(8), 4, 1 + ri.random().nextInt(3));
      ClusterState state = ri.partiallyAllocated(cluster, ri.random().nextDouble());
      WorkloadForecast forecast = ri.random().nextInt(5) == 0
          ? WorkloadForecast.empty()
          : TestInstances.forecast(ri, 1 + ri.random().nextInt(5));
      for (ImportanceModel model : allModels(ri, forecast)) {
        GpuCosts costs = model.evaluate(state);
        for (Gpu g : cluster.gpus()) {
          double c = costs.of(g.id());
          assertThat(Double.isFinite(c) && c >= 0).as("seed %d model %s gpu %s cost %s", seed, model.name(), g.id(), c).isTrue();
        }
        assertThatThrownBy(() -> costs.of("no-such-gpu")).as("seed %d model %s", seed, model.name())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-gpu");
      }
    }
  }

  @Test
  void aStaticModelReproducesItsWeights() {
    for (long seed = 0; seed < 20; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(6, 4, 3);
      Map<String, Double> byType = new HashMap<>();
      for (GpuType t : cluster.gpuTypes()) {
        byType.put(t.name(), ri.random().nextDouble() * 10);
      }
      String overridden = cluster.gpus().get(0).id();
      StaticImportance model = StaticImportance.byType(byType).withGpuWeights(Map.of(overridden, 42.0));
      ClusterState state = ri.partiallyAllocated(cluster, 0.5);
      GpuCosts costs = model.evaluate(state);
      double max = 42.0;
      for (Gpu g : cluster.gpus()) {
        double w = g.id().equals(overridden) ? 42.0 : byType.get(g.type());
        assertThat(costs.of(g.id())).as("seed %d", seed).isEqualTo(w);
        max = Math.max(max, w);
      }
      // as the only component of a combination: weight × w / max w
      GpuCosts combined = ImportanceModels.combination().add(3.0, model).build().evaluate(state);
      for (Gpu g : cluster.gpus()) {
        assertThat(combined.of(g.id())).as("seed %d", seed).isCloseTo(3.0 * costs.of(g.id()) / max, within(1e-12));
      }
    }
  }

  @Test
  void combinationsAreLinearInTheirWeights() {
    for (long seed = 0; seed < 30; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      Cluster cluster = ri.cluster(3 + ri.random().nextInt(6), 4, 1 + ri.random().nextInt(3));
      ClusterState state = ri.partiallyAllocated(cluster, ri.random().nextDouble());
      WorkloadForecast forecast = TestInstances.forecast(ri, 3);
      ImportanceModel m1 = ImportanceModels.scarcity(forecast);
      ImportanceModel m2 = ImportanceModels.fragmentation();
      ImportanceModel m3 = ImportanceModels.capability();
      double a1 = ri.random().nextDouble() * 5;
      double a2 = ri.random().nextDouble() * 5;
      double a3 = ri.random().nextDouble() * 5;
      double b1 = ri.random().nextDouble() * 5;
      double b2 = ri.random().nextDouble() * 5;
      double b3 = ri.random().nextDouble() * 5;
      GpuCosts a = combine(state, m1, m2, m3, a1, a2, a3);
      GpuCosts b = combine(state, m1, m2, m3, b1, b2, b3);
      GpuCosts sum = combine(state, m1, m2, m3, a1 + b1, a2 + b2, a3 + b3);
      GpuCosts scaled = combine(state, m1, m2, m3, 2.5 * a1, 2.5 * a2, 2.5 * a3);
      GpuCosts[] single = {m1.evaluate(state), m2.evaluate(state), m3.evaluate(state)};
      double[] max = new double[3];
      for (int i = 0; i < 3; i++) {
        for (Gpu g : cluster.gpus()) {
          max[i] = Math.max(max[i], single[i].of(g.id()));
        }
      }
      for (Gpu g : cluster.gpus()) {
        String id = g.id();
        assertThat(sum.of(id)).as("seed %d additivity", seed).isCloseTo(a.of(id) + b.of(id), within(1e-9));
        assertThat(scaled.of(id)).as("seed %d homogeneity", seed).isCloseTo(2.5 * a.of(id), within(1e-9));
        double byHand = 0;
        double[] w = {a1, a2, a3};
        for (int i = 0; i < 3; i++) {
          byHand += max[i] > 0 ? w[i] * single[i].of(id) / max[i] : 0;
        }
        assertThat(a.of(id)).as("seed %d definition", seed).isCloseTo(byHand, within(1e-9));
      }
    }
  }

  private static GpuCosts combine(ClusterState s, ImportanceModel m1, ImportanceModel m2, ImportanceModel m3,
      double w1, double w2, double w3) {
    return ImportanceModels.combination().add(w1, m1).add(w2, m2).add(w3, m3).build().evaluate(s);
  }

  @Test
  void capabilityIsOneForTheLargestFastestTypeAndOrdersTypes() {
    Cluster cluster = new RandomInstances(3).cluster(12, 2, 3);
    ClusterState state = ClusterState.empty(cluster);
    GpuCosts costs = ImportanceModels.capability().evaluate(state);
    Map<String, Double> byType = new HashMap<>();
    cluster.gpus().forEach(g -> byType.put(g.type(), costs.of(g.id())));
    // slow: 16/80 and 65/312 -> 0.5 * (0.2 + 0.2083) ; fast: 1
    assertThat(byType.get("fast")).isEqualTo(1.0);
    assertThat(byType.get("slow")).isCloseTo(0.5 * (16.0 / 80 + 65.0 / 312), within(1e-12));
    assertThat(byType.get("slow")).isLessThan(byType.get("mid")).isGreaterThan(0);
  }

  @Test
  void badWeightsAreRejectedWithAHint() {
    assertThatThrownBy(() -> ImportanceModels.combination().add(-1, ImportanceModels.capability()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1").hasMessageContaining("Maybe");
    assertThatThrownBy(() -> ImportanceModels.combination().build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Maybe");
    assertThatThrownBy(() -> WorkloadForecast.builder().add(TestInstances.request(new RandomInstances(1), "x"), Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weight");
  }
}
