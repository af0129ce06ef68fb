package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.importance.ImportanceModel;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The importance models on partial GPUs (docs/SHARING.md section 4), on two nodes of two
 * A100-SXM4-80GB each: a holding costs the GPU's importance × its share equivalent, plus, for the
 * forecast-driven models, the forecast-weighted fragmentation of the GPU's placement menu.
 */
class PartialGpuCostTest {

  private static final long SEED = 20261201L;
  private static final long GIB = 1L << 30;

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2), 2, ClusterPresets.NETWORK_100G);
  // Llama-2-7B decode steps (about 14 GB) fit 2g.20gb and larger instances, not 1g.10gb
  private final WorkloadForecast forecast = WorkloadForecast.builder()
      .add(ServiceRequest.builder().id("decode").model(ModelCatalog.decode("llama2-7b", 512)).slo(Slo.of(1, Duration.ofSeconds(1), 1)).build(), 1)
      .build();

  private List<ImportanceModel> models() {
    return List.of(
        ImportanceModels.capability(),
        ImportanceModels.fragmentation(),
        ImportanceModels.scarcity(forecast),
        ImportanceModels.marginalAcceptanceLoss(() -> forecast, Placeability.singleType(PerformanceModel.defaults()), 32, 1),
        ImportanceModels.combination().add(1, ImportanceModels.capability()).add(2, ImportanceModels.scarcity(forecast)).build());
  }

  private List<ImportanceModel> forecastModels() {
    return models().subList(2, 5);
  }

  /** The empty state, and states where other GPUs are taken whole or partly. */
  private List<ClusterState> states() {
    ClusterState empty = ClusterState.empty(cluster);
    List<Gpu> gpus = cluster.gpus();
    ClusterState oneTaken = empty.allocate(Allocation.of("other", List.of(Holding.of(gpus.get(3).id(), new Whole(), 10 * GIB))));
    ClusterState mpsNeighbour = oneTaken.allocate(Allocation.of("mps", List.of(Holding.of(gpus.get(2).id(), new MpsShare(0.4, 10 * GIB), 10 * GIB))));
    return List.of(empty, oneTaken, mpsNeighbour);
  }

  @Test
  void theWholeGpuCostsExactlyItsImportance() {
    for (ImportanceModel m : models()) {
      for (ClusterState s : states()) {
        GpuCosts costs = m.evaluate(s);
        for (Gpu g : cluster.gpus()) {
          assertThat(costs.of(s, g.id(), new Whole())).as(m.name() + " " + g.id()).isEqualTo(costs.of(g.id()));
        }
      }
    }
  }

  @Test
  void costIsMonotoneInTheMpsShare() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (ImportanceModel m : models()) {
      for (ClusterState s : states()) {
        GpuCosts costs = m.evaluate(s);
        String gpu = cluster.gpus().get(0).id();
        for (int i = 0; i < 200; i++) {
          double a = 0.01 + 0.99 * random.nextDouble();
          double b = 0.01 + 0.99 * random.nextDouble();
          double lo = Math.min(a, b);
          double hi = Math.max(a, b);
          // between two steps of the MPS menu the forecast models' cost is flat (a share pays for what it
          // occupies or strands, the same room), so equal costs may differ in the last bit
          assertThat(costs.of(s, gpu, new MpsShare(lo, GIB)))
              .as("seed %d, %s: MPS %.4f vs %.4f", SEED, m.name(), lo, hi)
              .isLessThanOrEqualTo(costs.of(s, gpu, new MpsShare(hi, GIB)) + 1e-12);
        }
      }
    }
  }

  @Test
  void costIsMonotoneInTheMigProfileAtOneStart() {
    List<Placement> growing = List.of(new MigSlice("1g.10gb", 0), new MigSlice("2g.20gb", 0), new MigSlice("3g.40gb", 0),
        new MigSlice("4g.40gb", 0), new MigSlice("7g.80gb", 0));
    for (ImportanceModel m : models()) {
      ClusterState s = ClusterState.empty(cluster);
      GpuCosts costs = m.evaluate(s);
      String gpu = cluster.gpus().get(0).id();
      for (int i = 1; i < growing.size(); i++) {
        assertThat(costs.of(s, gpu, growing.get(i - 1))).as(m.name() + ": " + growing.get(i - 1) + " vs " + growing.get(i))
            .isLessThanOrEqualTo(costs.of(s, gpu, growing.get(i)));
      }
    }
  }

  @Test
  void threeGAtZeroKillsTheFourGSoItCostsMoreThanThreeGAtFourWhereTheModelForecasts() {
    // one GPU, so every forecast model sees a loss in taking it (with four, marginal loss sees none: cost 0)
    Cluster single = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    ClusterState s = ClusterState.empty(single);
    String gpu = single.gpus().get(0).id();
    for (ImportanceModel m : forecastModels()) {
      GpuCosts costs = m.evaluate(s);
      double atZero = costs.of(s, gpu, new MigSlice("3g.40gb", 0));
      double atFour = costs.of(s, gpu, new MigSlice("3g.40gb", 4));
      System.out.printf("%s on an empty A100-SXM4-80GB: importance %.4f, 3g@0 %.4f, 3g@4 %.4f%n", m.name(), costs.of(gpu), atZero, atFour);
      assertThat(costs.of(gpu)).as(m.name()).isPositive();
      assertThat(atZero).as(m.name()).isGreaterThan(atFour);
    }
    // a model without a forecast charges the share equivalent alone: both are half the GPU
    GpuCosts capability = ImportanceModels.capability().evaluate(s);
    assertThat(capability.of(s, gpu, new MigSlice("3g.40gb", 0))).isEqualTo(capability.of(s, gpu, new MigSlice("3g.40gb", 4)))
        .isEqualTo(capability.of(gpu) * 0.5);
  }

  @Test
  void aQuarterOfAnEmptyGpuCostsLessThanTheWholeGpuWhenTheForecastCanUseTheRoomLeft() {
    // the forecast's decode step meets its 1 s SLO alone on a quarter of an A100, so the 3/4 left
    // still serves it three more times: taking the quarter must not cost as much as taking it all
    Cluster single = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    ClusterState s = ClusterState.empty(single);
    String gpu = single.gpus().get(0).id();
    for (ImportanceModel m : forecastModels()) {
      GpuCosts costs = m.evaluate(s);
      double quarter = costs.of(s, gpu, new MpsShare(0.25, 14 * GIB));
      System.out.printf("%s on an empty A100-SXM4-80GB: whole %.4f, MPS 1/4 %.4f%n", m.name(), costs.of(gpu), quarter);
      assertThat(costs.of(gpu)).as(m.name()).isPositive();
      assertThat(quarter).as(m.name()).isLessThan(costs.of(gpu));
    }
  }

  @Test
  void theMenuPricesSharesAgainstTheDecisionsOwnMpsLevels() {
    // a decision offering fifths only: its menu must judge what a fifth strands against fifths (four more
    // fit beside it), not against the default levels 1/2, 1/3, 1/4 the planner does not offer
    Cluster single = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    ClusterState s = ClusterState.empty(single);
    String gpu = single.gpus().get(0).id();
    SharingOptions fifths = new SharingOptions(true, List.of(0.2), SharingOptions.DEFAULT_TOP_K);
    ServiceRequest decode = forecast.classes().get(0).template();
    for (ImportanceModel m : forecastModels()) {
      PlacementProblem problem = PlacementProblem.of(decode, s, m, fifths.applyTo(StrategyOptions.defaults()));
      SharedSlotMenu.Slot slot = SharedSlotMenu.of(problem, fifths).slots().stream()
          .filter(x -> x.placement() instanceof MpsShare).findFirst().orElseThrow();
      GpuCosts costs = m.evaluate(s);
      double offered = costs.forMpsLevels(fifths.mpsLevels()).of(s, gpu, slot.placement());
      double defaultLevels = costs.of(s, gpu, slot.placement());
      System.out.printf("%s, a fifth of an empty A100-SXM4-80GB: %.4f on a menu of fifths, %.4f on the default levels%n",
          m.name(), offered, defaultLevels);
      assertThat(slot.placement()).isInstanceOf(MpsShare.class).extracting(p -> ((MpsShare) p).fraction()).isEqualTo(0.2);
      assertThat(slot.costs().get(0)).as(m.name()).isEqualTo(offered);
      assertThat(offered).as(m.name()).isNotCloseTo(defaultLevels, within(1e-6));
    }
  }
}
