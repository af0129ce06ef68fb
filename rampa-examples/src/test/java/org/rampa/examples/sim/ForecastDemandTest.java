package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.examples.experiment.Presets;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.importance.ShareCost;

/** The forecast demand of a simulation's defragmenter: the class mix on each class's smallest pieces, every other entry 0. */
class ForecastDemandTest {

  private final Cluster cluster = Presets.cluster("small");

  @Test
  void everyMenuEntryIsListedAndEachClassWeighsItsProbabilityOnItsSmallestPieces() {
    WorkloadForecast light = WorkloadSpec.lightMix().resolve(cluster);
    StrandedCapacity test = new StrandedCapacity(cluster, light);
    Map<String, Double> demand = ForecastDemand.demand(cluster, light, test, test.mpsLevels(), false);
    ClusterState empty = ClusterState.empty(cluster);
    for (Gpu g : cluster.gpus()) {
      var parts = empty.partitioning(g.id());
      parts.mig().ifPresent(geometry -> geometry.profiles().forEach(p -> assertThat(demand).containsKey(p.name())));
      if (parts.mps()) {
        test.mpsLevels().forEach(level -> assertThat(demand).containsKey(ShareCost.mpsEntry(g.type(), level)));
      }
    }
    assertThat(demand).containsKey(ShareCost.WHOLE);
    assertThat(demand.values()).allSatisfy(w -> assertThat(w).isFinite().isGreaterThanOrEqualTo(0.0));
    double total = light.totalWeight();
    for (ServiceClass c : light.classes()) {
      test.needs(c.template()).forEach((type, need) -> {
        if (!Double.isNaN(need.mpsLevel())) {
          assertThat(demand.get(ShareCost.mpsEntry(type, need.mpsLevel()))).isGreaterThanOrEqualTo(c.weight() / total - 1e-12);
        }
      });
    }
    assertThat(demand.values().stream().mapToDouble(Double::doubleValue).sum()).isPositive();
  }

  @Test
  void aClassNoSingleGpuServesWeighsNothing() {
    WorkloadForecast huge = new WorkloadSpec(List.of(new WorkloadSpec.Entry("llama2-70b", "decode", 1024, 8, SloClass.LOOSE, 1, 8))).resolve(cluster);
    StrandedCapacity test = new StrandedCapacity(cluster, huge);
    assertThat(ForecastDemand.demand(cluster, huge, test, test.mpsLevels(), false).values()).allSatisfy(w -> assertThat(w).isZero());
    // so no GPU has room for it, however the cluster is arranged
    assertThat(ForecastDemand.room(cluster, huge, test, false).of(ClusterState.empty(cluster))).isZero();
  }

  @Test
  void withPipelinesAClassNoSingleGpuServesWeighsItsProbabilityOnTheWholeGpu() {
    WorkloadForecast huge = new WorkloadSpec(List.of(new WorkloadSpec.Entry("llama2-70b", "decode", 1024, 8, SloClass.LOOSE, 1, 8))).resolve(cluster);
    StrandedCapacity test = new StrandedCapacity(cluster, huge);
    assertThat(test.needs(huge.classes().get(0).template())).as("no GPU serves it alone").isEmpty();
    Map<String, Double> demand = ForecastDemand.demand(cluster, huge, test, test.mpsLevels(), true);
    assertThat(demand.get(ShareCost.WHOLE)).isEqualTo(1.0);
    demand.forEach((entry, w) -> assertThat(w).as(entry).isEqualTo(entry.equals(ShareCost.WHOLE) ? 1.0 : 0.0));
    // so every free GPU is room for it, and one holding anything is not
    ClusterState empty = ClusterState.empty(cluster);
    assertThat(ForecastDemand.room(cluster, huge, test, true).of(empty)).isEqualTo(cluster.gpus().size());
  }

  @Test
  void pipelinesChangeNothingForClassesAGpuServesAlone() {
    // the light mix's classes each fit some GPU alone: the two forecasts weigh every entry alike
    WorkloadForecast light = WorkloadSpec.lightMix().resolve(cluster);
    StrandedCapacity test = new StrandedCapacity(cluster, light);
    assertThat(light.classes()).allSatisfy(c -> assertThat(test.needs(c.template())).isNotEmpty());
    assertThat(ForecastDemand.demand(cluster, light, test, test.mpsLevels(), true)).isEqualTo(ForecastDemand.demand(cluster, light, test, test.mpsLevels(), false));
    // the standard mix has pipelines: their probabilities move onto the whole GPU, nothing else changes
    WorkloadForecast standard = WorkloadSpec.standardMix().resolve(cluster);
    StrandedCapacity std = new StrandedCapacity(cluster, standard);
    double pipelines = standard.classes().stream().filter(c -> std.needs(c.template()).isEmpty()).mapToDouble(ServiceClass::weight).sum()
        / standard.totalWeight();
    assertThat(pipelines).as("the standard mix has classes no GPU serves alone").isPositive();
    Map<String, Double> without = ForecastDemand.demand(cluster, standard, std, std.mpsLevels(), false);
    Map<String, Double> with = ForecastDemand.demand(cluster, standard, std, std.mpsLevels(), true);
    assertThat(with.keySet()).isEqualTo(without.keySet());
    with.forEach((entry, w) -> assertThat(w).as(entry).isCloseTo(without.get(entry) + (entry.equals(ShareCost.WHOLE) ? pipelines : 0), org.assertj.core.data.Offset.offset(1e-12)));
  }
}
