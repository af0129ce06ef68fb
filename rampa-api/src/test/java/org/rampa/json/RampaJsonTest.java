package org.rampa.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Layer;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.LatencyProfile;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;

class RampaJsonTest {

  private static <T> void roundTrip(T value, Class<T> type) {
    String json = RampaJson.write(value);
    T back = RampaJson.read(json, type);
    assertThat(back).isEqualTo(value);
    assertThat(RampaJson.write(back)).isEqualTo(json);
  }

  @Test
  void everyDocumentTypeRoundTripsToAnEqualValue() {
    Property.forSeeds("JSON round trip is identity", 60, seed -> {
      RandomInstances gen = new RandomInstances(seed);
      Cluster cluster = gen.cluster(1 + gen.random().nextInt(4), 4, 1 + gen.random().nextInt(3));
      Model model = gen.model(1 + gen.random().nextInt(12), 3, 0.3);
      if (gen.random().nextBoolean()) {
        Layer profiled = Layer.builder().from(model.layer(0)).addProfiles(LatencyProfile.of("slow",
            LatencyPoint.of(1, Duration.ofNanos(1 + gen.random().nextInt(1_000_000))))).build();
        List<Layer> layers = new java.util.ArrayList<>(model.layers());
        layers.set(0, profiled);
        model = Model.of(model.name(), layers);
      }
      ServiceRequest request = ServiceRequest.builder().from(gen.request("svc-" + seed, model, 1 + gen.random().nextDouble() * 100,
          Duration.ofNanos(1 + gen.random().nextLong(1_000_000_000L)), 1 + gen.random().nextInt(16), 1 + gen.random().nextInt(8)))
          .arrivalTime(Duration.ofMillis(gen.random().nextInt(100_000))).build();
      ClusterState state = gen.partiallyAllocated(cluster, 0.4);
      Gpu g = cluster.gpus().get(0);
      Plan plan = PerformanceModel.defaults().plan(request, List.of(StageAssignment.of(0, model.size(), g.id())), cluster,
          gen.random().nextDouble() * 10, "test");
      roundTrip(cluster, Cluster.class);
      roundTrip(model, Model.class);
      roundTrip(request, ServiceRequest.class);
      roundTrip(state, ClusterState.class);
      roundTrip(plan, Plan.class);
      roundTrip(ProblemDocument.builder().cluster(cluster).allocations(state.allocations()).request(request)
          .strategy("exact").options(StrategyOptions.builder().timeLimit(Duration.ofMillis(1 + gen.random().nextInt(5000)))
              .transfers(TransferMode.values()[gen.random().nextInt(3)]).putExtra("backend", "scip").build())
          .putImportanceByType("slow", gen.random().nextDouble()).build(), ProblemDocument.class);
      roundTrip(PlacementResult.builder().status(SolveStatus.OPTIMAL).plan(plan).strategy("x").solveTime(Duration.ofMillis(3))
          .bound(1.5).gap(0).putStatistics("nodes", 12.0).build(), PlacementResult.class);
    });
  }

  @Test
  void catalogModelsAndPresetsRoundTrip() {
    roundTrip(ModelCatalog.decode("llama2-70b", 2048), Model.class);
    roundTrip(ClusterPresets.small(), Cluster.class);
  }

  @Test
  void durationsAreIsoStringsAndUnknownFieldsAreErrors() {
    String json = RampaJson.write(org.rampa.domain.Slo.of(10, Duration.ofMillis(250), 4));
    assertThat(json).contains("\"latencyBound\" : \"PT0.25S\"");
    assertThatThrownBy(() -> RampaJson.read(json.replace("\"batchSize\"", "\"batchsize\""), org.rampa.domain.Slo.class))
        .isInstanceOf(JsonInputException.class).hasMessageContaining("$.batchsize");
  }

  @Test
  void aValidationErrorDeepInADocumentNamesItsJsonPath() {
    String json = RampaJson.write(new RandomInstances(5).cluster(2, 2, 2));
    String broken = json.replaceFirst("\"bandwidthBytesPerSecond\" : [0-9.E]+", "\"bandwidthBytesPerSecond\" : 0");
    assertThatThrownBy(() -> RampaJson.read(broken, Cluster.class))
        .isInstanceOf(JsonInputException.class)
        .hasMessageContaining("$.nodes[0].intraLink")
        .hasMessageContaining("bandwidthBytesPerSecond = 0.0");
  }

  @Test
  void aWrongTypeNamesItsJsonPath() {
    String json = RampaJson.write(ModelCatalog.model("resnet50"));
    String broken = json.replaceFirst("\"weightBytes\" : \\d+", "\"weightBytes\" : \"lots\"");
    assertThatThrownBy(() -> RampaJson.read(broken, Model.class))
        .isInstanceOf(JsonInputException.class).hasMessageContaining("$.layers[0].weightBytes");
  }

  @Test
  void aMissingRequiredFieldIsNamed() {
    assertThatThrownBy(() -> RampaJson.read("{\"name\":\"m\"}", Model.class)).isInstanceOf(JsonInputException.class)
        .hasMessageContaining("Model");
    assertThatThrownBy(() -> RampaJson.read("{\"requiredThroughput\":5}", org.rampa.domain.Slo.class))
        .hasMessageContaining("latencyBound");
  }
}
