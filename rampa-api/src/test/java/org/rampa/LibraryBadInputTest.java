package org.rampa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.importance.StaticImportance;
import org.rampa.json.InputFiles;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;

/**
 * The library half of the bad-input corpus: builders and factories fail at the call with the
 * documented exception ({@link IllegalArgumentException}, or {@link NullPointerException} for a
 * null argument), naming the argument or field.
 */
class LibraryBadInputTest {

  private final Cluster cluster = ClusterPresets.small();
  private final ServiceRequest request = ServiceRequest.builder().id("resnet")
      .model(ModelCatalog.model("resnet50")).slo(Slo.of(100, Duration.ofMillis(50), 8)).build();

  private record Case(String name, Runnable call, Class<? extends RuntimeException> type, String[] mentions) {}

  private static Case bad(String name, Runnable call, Class<? extends RuntimeException> type, String... mentions) {
    return new Case(name, call, type, mentions);
  }

  private static Map<String, Double> withNullWeight() {
    Map<String, Double> m = new HashMap<>();
    m.put("T4", null);
    return m;
  }

  private static Map<String, Integer> nodes(String type, Integer count) {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put(type, count);
    return m;
  }

  @TestFactory
  Stream<DynamicTest> everyBadArgumentFailsAtTheCallNamingIt() {
    ClusterState held = ClusterState.empty(cluster).allocate(RandomInstances.holdPlan("resnet", cluster.gpus().get(0).id()));
    List<Case> cases = List.of(
        bad("ClusterStateHolder(null)", () -> new ClusterStateHolder(null), NullPointerException.class, "initial"),
        bad("holder.commit(null)", () -> new ClusterStateHolder(ClusterState.empty(cluster)).commit(null, 0), NullPointerException.class, "plan"),
        bad("holder.release(null)", () -> new ClusterStateHolder(ClusterState.empty(cluster)).release(null, 0), NullPointerException.class, "serviceId"),
        bad("Rampa.on((Cluster) null)", () -> Rampa.on((Cluster) null), NullPointerException.class, "cluster"),
        bad("Rampa.on((ClusterState) null)", () -> Rampa.on((ClusterState) null), NullPointerException.class, "state"),
        bad("strategy((String) null)", () -> Rampa.on(cluster).strategy((String) null), NullPointerException.class, "strategy"),
        bad("strategy(unknown)", () -> Rampa.on(cluster).strategy("exactt"), IllegalArgumentException.class, "strategy = exactt"),
        bad("Strategies.named(null)", () -> Strategies.named(null), NullPointerException.class, "strategy"),
        bad("importance(null)", () -> Rampa.on(cluster).importance(null), NullPointerException.class, "importance"),
        bad("options(null)", () -> Rampa.on(cluster).options(null), NullPointerException.class, "options"),
        bad("state(null)", () -> Rampa.on(cluster).state(null), NullPointerException.class, "state"),
        bad("timeLimit(null)", () -> Rampa.on(cluster).timeLimit(null), NullPointerException.class, "timeLimit"),
        bad("timeLimit(zero)", () -> Rampa.on(cluster).timeLimit(Duration.ZERO), IllegalArgumentException.class, "options.timeLimit = PT0S"),
        bad("timeLimit(two days)", () -> Rampa.on(cluster).timeLimit(Duration.ofDays(2)), IllegalArgumentException.class,
            "options.timeLimit = PT48H", "at most PT24H"),
        bad("timeLimit(Long.MAX seconds)", () -> Rampa.on(cluster).timeLimit(Duration.ofSeconds(Long.MAX_VALUE)),
            IllegalArgumentException.class, "options.timeLimit"),
        bad("relativeGap(NaN)", () -> Rampa.on(cluster).relativeGap(Double.NaN), IllegalArgumentException.class, "options.relativeGap = NaN"),
        bad("relativeGap(1)", () -> Rampa.on(cluster).relativeGap(1), IllegalArgumentException.class, "options.relativeGap = 1.0"),
        bad("transfers(null)", () -> Rampa.on(cluster).transfers(null), NullPointerException.class, "transfers"),
        bad("StrategyOptions timeLimit beyond a day", () -> StrategyOptions.builder().timeLimit(Duration.ofHours(25)).build(),
            IllegalArgumentException.class, "options.timeLimit = PT25H"),
        bad("StaticImportance.byType(null)", () -> StaticImportance.byType(null), NullPointerException.class, "importance.byType"),
        bad("StaticImportance null weight", () -> StaticImportance.byType(withNullWeight()), IllegalArgumentException.class,
            "importance.byType[T4]"),
        bad("StaticImportance negative weight", () -> StaticImportance.byType(Map.of("T4", -1.0)), IllegalArgumentException.class,
            "importance.byType[T4] = -1.0"),
        bad("StaticImportance infinite weight", () -> StaticImportance.byType(Map.of("T4", Double.POSITIVE_INFINITY)),
            IllegalArgumentException.class, "importance.byType[T4] = Infinity"),
        bad("StaticImportance huge weight", () -> StaticImportance.byType(Map.of("T4", 1e300)),
            IllegalArgumentException.class, "importance.byType[T4] = 1.0E300", "[0, 1.0E9]"),
        bad("withGpuWeights(null)", () -> StaticImportance.uniform().withGpuWeights(null), NullPointerException.class, "importance.byGpu"),
        bad("importance with an unknown GPU type", () -> Rampa.on(cluster).importance(StaticImportance.byType(Map.of("T44", 2.0))),
            IllegalArgumentException.class, "importance.byType[T44] = 2.0", "no GPU type T44"),
        bad("importance with an unknown GPU", () -> Rampa.on(cluster)
            .importance(StaticImportance.uniform().withGpuWeights(Map.of("gpu-x", 2.0))), IllegalArgumentException.class,
            "importance.byGpu[gpu-x]"),
        bad("importance with two unknown GPUs names the first in name order", () -> Rampa.on(cluster)
            .importance(StaticImportance.uniform().withGpuWeights(Map.of("gpu-z", 3.0, "gpu-b", 2.0, cluster.gpus().get(0).id(), 1.0))),
            IllegalArgumentException.class, "importance.byGpu[gpu-b] = 2.0", "has no GPU gpu-b"),
        bad("a request whose id is held", () -> Rampa.on(held).strategy(new RampaTestStrategies.Unreachable()).place(request),
            IllegalArgumentException.class, "request.id = resnet", "already held"),
        bad("PlacementProblem of a held id", () -> PlacementProblem.of(request, held, StaticImportance.uniform(), StrategyOptions.defaults()),
            IllegalArgumentException.class, "request.id = resnet", "already held"),
        bad("PlacementProblem with weights for an unknown GPU type", () -> PlacementProblem.of(request, ClusterState.empty(cluster),
            StaticImportance.byType(Map.of("A100", 2.0)), StrategyOptions.defaults()), IllegalArgumentException.class,
            "importance.byType[A100]"),
        bad("ClusterPresets.mixed(null)", () -> ClusterPresets.mixed(null, 4), NullPointerException.class, "nodesPerType"),
        bad("ClusterPresets.mixed negative nodes", () -> ClusterPresets.mixed(new int[] {1, -1, 1, 1}, 4), IllegalArgumentException.class,
            "nodesPerType[A10] = -1"),
        bad("ClusterPresets.mixed zero GPUs per node", () -> ClusterPresets.mixed(new int[] {1, 1, 1, 1}, 0), IllegalArgumentException.class,
            "gpusPerNode = 0"),
        bad("ClusterPresets.mixed too many GPUs per node", () -> ClusterPresets.mixed(new int[] {1, 1, 1, 1}, 1000),
            IllegalArgumentException.class, "gpusPerNode = 1000"),
        bad("ClusterPresets.mixed wrong length", () -> ClusterPresets.mixed(new int[] {1}, 4), IllegalArgumentException.class,
            "nodesPerType.length = 1"),
        bad("ClusterPresets.of huge", () -> ClusterPresets.of(nodes("T4", Integer.MAX_VALUE), 4, ClusterPresets.NETWORK_100G),
            IllegalArgumentException.class, "nodesPerType", "more than 100000"),
        bad("ClusterPresets.of null count", () -> ClusterPresets.of(nodes("T4", null), 4, ClusterPresets.NETWORK_100G),
            IllegalArgumentException.class, "nodesPerType[T4] = null"),
        bad("ClusterPresets.of unknown type", () -> ClusterPresets.of(nodes("T44", 1), 4, ClusterPresets.NETWORK_100G),
            IllegalArgumentException.class, "T44"),
        bad("ClusterPresets.of null network", () -> ClusterPresets.of(nodes("T4", 1), 4, null), NullPointerException.class, "network"),
        bad("a cluster beyond the GPU bound", () -> ClusterPresets.of(nodes("T4", Cluster.MAX_GPUS / 64 + 1), 64, ClusterPresets.NETWORK_100G),
            IllegalArgumentException.class, "nodesPerType", "more than " + Cluster.MAX_GPUS),
        bad("ServiceRequest id null", () -> ServiceRequest.builder().id(null), NullPointerException.class, "id"),
        bad("Slo latency bound null", () -> Slo.of(1, null, 1), NullPointerException.class, "latencyBound"),
        bad("Slo latency bound of two days", () -> Slo.of(1, Duration.ofDays(2), 1), IllegalArgumentException.class,
            "slo.latencyBound = PT48H", "at most PT24H"),
        bad("request maxStages beyond the bound", () -> ServiceRequest.builder().from(request).maxStages(5000).build(),
            IllegalArgumentException.class, "maxStages = 5000", "1024"),
        bad("importance weights map with a null value in a document", () -> org.rampa.json.ProblemDocument.builder()
            .cluster(cluster).request(request).importanceByType(withNullWeight()), NullPointerException.class, "importanceByType"),
        bad("link latency of a day", () -> org.rampa.domain.Link.of("slow", 1e9, Duration.ofDays(1)), IllegalArgumentException.class,
            "link[slow].latency = PT24H", "at most PT1H"),
        bad("SplitProblem on two billion devices", () -> org.rampa.split.SplitProblem.identical(
            org.rampa.split.LayerCostTable.withTensors("ms", Map.of("d", List.of(1.0)), List.of(0L), List.of()), "d", 2_000_000_000,
            org.rampa.perf.TransferMode.NONE), IllegalArgumentException.class, "split.deviceCount = 2000000000", "1024"),
        bad("ModelCatalog.prefill negative", () -> ModelCatalog.prefill("bert-base", -1), IllegalArgumentException.class,
            "sequenceLength = -1"),
        bad("InputFiles of a missing file", () -> InputFiles.readText(java.nio.file.Path.of("no-such-file.json")),
            IllegalArgumentException.class, "no-such-file.json", "does not exist"));
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      Throwable thrown = catchThrowable(c.call()::run);
      assertThat(thrown).as(c.name()).isInstanceOf(c.type());
      for (String m : c.mentions()) {
        assertThat(thrown.getMessage()).as(c.name()).contains(m);
      }
    }));
  }

  /** Issue 20: constructors and factories added with sharing and co-location validate at the call, naming the field. */
  @TestFactory
  Stream<DynamicTest> sharingAndColocationArgumentsFailAtTheCallNamingThem() {
    var a100 = org.rampa.catalog.SharingCatalog.standard().partitioning("A100-SXM4-80GB").requireMig();
    var slice = new org.rampa.domain.share.MigSlice("1g.10gb", 0);
    var resnet = ModelCatalog.model("resnet50");
    var plan = RandomInstances.holdPlan("resnet", cluster.gpus().get(0).id());
    java.util.function.Function<List<Double>, org.rampa.strategy.SharingOptions> sharing = l -> new org.rampa.strategy.SharingOptions(true, l, 4);
    List<Case> cases = List.of(
        bad("SharingOptions level 0.3 (not 1/n)", () -> sharing.apply(List.of(0.3)), IllegalArgumentException.class,
            "options.extra.sharingMpsLevels = 0.3", "1/n"),
        bad("SharingOptions level 0.01 (1/100, beyond the MPS clients)", () -> sharing.apply(List.of(0.01)), IllegalArgumentException.class,
            "options.extra.sharingMpsLevels = 0.01", "[2, 48]"),
        bad("SharingOptions level 1/49", () -> sharing.apply(List.of(1.0 / 49)), IllegalArgumentException.class, "sharingMpsLevels"),
        bad("SharingOptions level 1.0", () -> sharing.apply(List.of(1.0)), IllegalArgumentException.class, "sharingMpsLevels = 1.0"),
        bad("SharingOptions level NaN", () -> sharing.apply(List.of(Double.NaN)), IllegalArgumentException.class, "sharingMpsLevels = NaN"),
        bad("SharingOptions null level", () -> sharing.apply(java.util.Arrays.asList(0.5, null)), IllegalArgumentException.class,
            "options.extra.sharingMpsLevels[1] = null"),
        bad("SharingOptions null levels", () -> sharing.apply(null), IllegalArgumentException.class, "options.extra.sharingMpsLevels = null"),
        bad("PipelinePartition [-3]", () -> new org.rampa.colocation.PipelinePartition(List.of(-3)), IllegalArgumentException.class,
            "partition.cuts = [-3]", ">= 1"),
        bad("PipelinePartition [0, 4]", () -> new org.rampa.colocation.PipelinePartition(List.of(0, 4)), IllegalArgumentException.class,
            "partition.cuts = [0, 4]"),
        bad("PipelinePartition null cut", () -> new org.rampa.colocation.PipelinePartition(java.util.Arrays.asList(2, null)),
            IllegalArgumentException.class, "partition.cuts[1] = null"),
        bad("PipelinePartition null cuts", () -> new org.rampa.colocation.PipelinePartition(null), IllegalArgumentException.class,
            "partition.cuts = null"),
        bad("MigLayout.check with a null slice", () -> org.rampa.domain.share.MigLayout.check(a100, java.util.Arrays.asList(slice, null)),
            IllegalArgumentException.class, "slices[1] = null"),
        bad("MigLayout.check null slices", () -> org.rampa.domain.share.MigLayout.check(a100, null), IllegalArgumentException.class,
            "slices = null"),
        bad("MigLayout.check null geometry", () -> org.rampa.domain.share.MigLayout.check(null, List.of(slice)), IllegalArgumentException.class,
            "geometry = null"),
        bad("ColocationService null slo", () -> new org.rampa.colocation.ColocationService("s", resnet, List.of(1), List.of(1), 10, null, 1, 1),
            IllegalArgumentException.class, "service[s].slo = null"),
        bad("ColocationService null batches", () -> new org.rampa.colocation.ColocationService("s", resnet, null, List.of(1), 10,
            Duration.ofMillis(50), 1, 1), IllegalArgumentException.class, "service[s].batches = null"),
        bad("ColocationService a null batch", () -> new org.rampa.colocation.ColocationService("s", resnet, java.util.Arrays.asList(1, null),
            List.of(1), 10, Duration.ofMillis(50), 1, 1), IllegalArgumentException.class, "service[s].batches[1] = null"),
        bad("ColocationService null process counts", () -> new org.rampa.colocation.ColocationService("s", resnet, List.of(1), null, 10,
            Duration.ofMillis(50), 1, 1), IllegalArgumentException.class, "service[s].processCounts = null"),
        bad("ColocationService null model", () -> new org.rampa.colocation.ColocationService("s", null, List.of(1), List.of(1), 10,
            Duration.ofMillis(50), 1, 1), IllegalArgumentException.class, "service[s].model = null"),
        bad("ColocationService null partitions", () -> new org.rampa.colocation.ColocationService("s", resnet, List.of(1), List.of(1), 10,
            Duration.ofMillis(50), 1, 1, null), IllegalArgumentException.class, "service[s].partitions = null"),
        bad("GpuConfiguration with a null segment", () -> new org.rampa.colocation.GpuConfiguration("A100-SXM4-80GB",
            java.util.Arrays.asList((org.rampa.colocation.Segment) null)), IllegalArgumentException.class, "gpu.segments[0] = null"),
        bad("ColocationPlan with a null GPU", () -> new org.rampa.colocation.ColocationPlan(java.util.Arrays.asList(
            (org.rampa.colocation.GpuConfiguration) null), 1), IllegalArgumentException.class, "plan.gpus[0] = null"),
        bad("MigGeometry with null profiles", () -> new org.rampa.domain.share.MigGeometry("g", 98, 8, null), IllegalArgumentException.class,
            "mig[g].profiles = null"),
        bad("Rampa verify null plan", () -> Rampa.on(cluster).verify(request, null), IllegalArgumentException.class, "plan = null"),
        bad("Rampa verify null request", () -> Rampa.on(cluster).verify(null, plan), IllegalArgumentException.class, "request = null"));
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      Throwable thrown = catchThrowable(c.call()::run);
      assertThat(thrown).as(c.name()).isInstanceOf(c.type());
      for (String m : c.mentions()) {
        assertThat(thrown.getMessage()).as(c.name()).contains(m);
      }
    }));
  }

  /** Issue 20: a SharingOptions that exists round-trips exactly through its extra options. */
  @org.junit.jupiter.api.Test
  void sharingLevelsRoundTripThroughTheirExtraOptions() {
    for (int n = 2; n <= org.rampa.domain.share.GpuPartitioning.MPS_CLIENTS_PER_GPU; n++) {
      var options = new org.rampa.strategy.SharingOptions(true, List.of(1.0 / n), 3);
      var back = org.rampa.strategy.SharingOptions.of(org.rampa.strategy.ExtraOptions.of(options.applyTo(StrategyOptions.defaults()), "test",
          org.rampa.strategy.SharingOptions.KEYS));
      assertThat(back).as("1/" + n).isEqualTo(options);
    }
  }
}
