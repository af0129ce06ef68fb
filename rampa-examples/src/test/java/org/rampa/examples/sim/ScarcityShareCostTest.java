package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MpsShare;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;

/**
 * E4's setting (docs/vastpipe-e4.md): on the empty small preset, with either workload as the
 * forecast, a forecast-driven importance prices an MPS share of the menu below the whole GPU on
 * every MPS type, so greedy RAMPA with sharing can open a GPU for sharing. Before the share cost
 * counted the room a share leaves, every such share cost more than the whole GPU and scarcity
 * with sharing never shared.
 */
class ScarcityShareCostTest {

  @Test
  void onTheEmptySmallPresetASharePricesBelowTheWholeGpuOnEveryMpsType() {
    Cluster cluster = ClusterPresets.small();
    ClusterState empty = ClusterState.empty(cluster);
    Map<String, Gpu> oneOfEachType = new LinkedHashMap<>();
    cluster.gpus().forEach(g -> oneOfEachType.putIfAbsent(g.type(), g));
    for (WorkloadSpec workload : new WorkloadSpec[] {WorkloadSpec.standardMix(), WorkloadSpec.lightMix()}) {
      ImportanceModel scarcity = ImportanceModels.scarcity(workload.resolve(cluster));
      GpuCosts costs = scarcity.evaluate(empty);
      for (Gpu g : oneOfEachType.values()) {
        if (!cluster.type(g.type()).partitioning().mps()) {
          continue;
        }
        double whole = costs.of(g.id());
        double half = costs.of(empty, g.id(), new MpsShare(0.5, 1L << 30));
        double quarter = costs.of(empty, g.id(), new MpsShare(0.25, 1L << 30));
        System.out.printf("scarcity, %d classes, %s: whole %.4f, MPS 1/2 %.4f, MPS 1/4 %.4f%n",
            workload.classes().size(), g.type(), whole, half, quarter);
        assertThat(whole).as(g.type()).isPositive();
        assertThat(quarter).as(g.type()).isLessThan(whole).isLessThanOrEqualTo(half);
        assertThat(half).as(g.type()).isLessThan(whole);
      }
    }
  }
}
