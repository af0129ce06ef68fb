package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.SharingOptions;

/**
 * The forecast-driven tables remember per-class facts ({@link PerClassMemo}) across a sliding
 * window's snapshots, where every arrival brings a new request object and new weights: on each
 * snapshot, the menu's demand ({@link MenuDemand}, for the default levels and for others) and
 * scarcity's D(t) of one long-lived instance equal, bit for bit, those of a fresh instance. The
 * classes share a model at different SLOs, so a memo keyed on less than the class would differ.
 */
class PerClassMemoTest {

  private static final long SEED = 20261201L;

  private final Cluster cluster = ClusterPresets.small();
  private final PerformanceModel performance = PerformanceModel.defaults();

  private final List<ServiceRequest> classes = List.of(
      request(ModelCatalog.decode("llama2-7b", 512), Slo.of(1, Duration.ofSeconds(1), 1)),
      request(ModelCatalog.decode("llama2-7b", 512), Slo.of(1, Duration.ofMillis(40), 1)),
      request(ModelCatalog.decode("llama2-7b", 512), Slo.of(20, Duration.ofMillis(25), 1)),
      request(ModelCatalog.model("resnet50"), Slo.of(50, Duration.ofMillis(100), 8)));

  @Test
  void tablesOverASlidingWindowEqualThoseComputedAfresh() {
    SplittableRandom random = new SplittableRandom(SEED);
    SlidingWindowForecast window = SlidingWindowForecast.lastArrivals(12);
    MenuDemand menu = new MenuDemand(performance);
    ScarcityImportance scarcity = new ScarcityImportance(window::snapshot, new SingleTypeLayouts(performance));
    List<List<Double>> levels = List.of(SharingOptions.DEFAULT_MPS_LEVELS, List.of(0.2, 1.0 / 7));
    boolean anyMpsDemand = false;
    for (int i = 0; i < 60; i++) {
      ServiceRequest template = classes.get(random.nextInt(classes.size()));
      window.observe(ServiceRequest.builder().from(template).id("arrival-" + i).build());
      WorkloadForecast snapshot = window.snapshot();
      List<Double> l = levels.get(i % 2);
      var remembered = menu.of(snapshot, cluster, l);
      assertThat(remembered).as("seed %d, arrival %d, levels %s", SEED, i, l).isEqualTo(new MenuDemand(performance).of(snapshot, cluster, l));
      assertThat(scarcity.demand(snapshot, cluster)).as("seed %d, arrival %d", SEED, i)
          .isEqualTo(new ScarcityImportance(window::snapshot, new SingleTypeLayouts(performance)).demand(snapshot, cluster));
      anyMpsDemand |= remembered.entrySet().stream().anyMatch(e -> e.getKey().contains(" mps ") && e.getValue() > 0);
    }
    assertThat(anyMpsDemand).as("some class runs alone on some MPS level").isTrue();
  }

  private static ServiceRequest request(Model model, Slo slo) {
    return ServiceRequest.builder().id("template").model(model).slo(slo).build();
  }
}
