package org.rampa.heuristics.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.heuristics.split.PeriodSplitters;
import org.rampa.heuristics.split.SplitBruteForce;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.SplitProblem;
import org.rampa.split.SplitResult;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.PlanVerifier;

/**
 * Importers on the real published profiles shipped as test resources (MIT, see the LICENSE.txt
 * next to them), and the period regression on them.
 */
class ProfilesTest {

  static Path resource(String name) {
    try {
      return Path.of(ProfilesTest.class.getResource("/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static PipeDreamProfile pipedream(String file) {
    return PipeDreamProfile.read(resource("pipedream/" + file + ".graph.txt"));
  }

  @Test
  void pipeDreamImportZeroesTheDataLoaderAndKeepsEdges() {
    PipeDreamProfile alexnet = pipedream("image_classification_alexnet");
    assertThat(alexnet.layers()).hasSize(23);
    ProfiledLayer input = alexnet.layers().get(0);
    assertThat(input.module()).isEqualTo("Input");
    assertThat(input.forwardMs()).isZero(); // 635.902 ms in the file: the data loader
    ProfiledLayer conv = alexnet.layers().get(1);
    assertThat(conv.id()).isEqualTo("node2");
    assertThat(conv.forwardMs()).isEqualTo(22.316);
    assertThat(conv.backwardMs()).isEqualTo(6.405);
    assertThat(conv.parameterBytes()).isEqualTo(93184);
    assertThat(conv.inputs()).containsExactly(0);
    // every layer reads only earlier layers (a valid topological order)
    for (int i = 0; i < alexnet.layers().size(); i++) {
      int layer = i;
      assertThat(alexnet.layers().get(i).inputs()).allMatch(p -> p >= 0 && p < layer);
    }
  }

  @Test
  void nonChainGraphsAreLinearisedAndSkipTensorsChargedAtEveryCutTheyCross() {
    PipeDreamProfile resnet = pipedream("image_classification_resnet18");
    Model model = resnet.toModel(ProfileMode.INFERENCE, "v100");
    assertThat(model.size()).isEqualTo(resnet.layers().size());
    // a residual block: some layer reads a layer other than its predecessor
    int skip = -1;
    for (int i = 0; i < model.size() && skip < 0; i++) {
      for (int p : model.inputsOf(i)) {
        if (p < i - 1) {
          skip = i;
        }
      }
    }
    assertThat(skip).isPositive();
    int producer = model.inputsOf(skip).stream().mapToInt(Integer::intValue).min().getAsInt();
    for (int cut = producer + 1; cut <= skip; cut++) {
      assertThat(model.cutBytesPerSample(cut)).isGreaterThanOrEqualTo(resnet.layers().get(producer).activationBytes());
    }
  }

  @Test
  void gnmtMultiOutputActivationsAreSummed() {
    PipeDreamProfile gnmt = pipedream("translation_gnmt");
    assertThat(gnmt.layers().stream().filter(l -> l.activationBytes() == 6291456L + 131072L + 131072L)).isNotEmpty();
    assertThat(gnmt.layers().stream().filter(l -> ProfiledLayer.isDataLoader(l.module()))).hasSize(3);
  }

  /**
   * Straight pipelines on n identical devices, no transfers, forward + backward times (ms per
   * profiled minibatch), as PipeDream's profiles give them.
   */
  @ParameterizedTest(name = "{0} on {1} devices: {2} ms")
  @CsvSource({
      "image_classification_vgg16, 2, 370.931",
      "image_classification_vgg16, 4, 216.450",
      "image_classification_vgg16, 8, 159.531",
      "image_classification_alexnet, 2, 43.075",
      "image_classification_alexnet, 4, 28.721",
      "image_classification_alexnet, 8, 28.721",
      "translation_gnmt, 2, 45.936",
      "translation_gnmt, 4, 25.868",
      "translation_gnmt, 8, 19.032"})
  void straightPipelinePeriods(String file, int devices, double expectedMs) {
    PipeDreamProfile profile = pipedream(file);
    LayerCostTable table = profile.costTable(ProfileMode.TRAINING, "v100");
    SplitResult dp = PeriodSplitters.exact().split(SplitProblem.identical(table, "v100", devices, TransferMode.NONE));
    assertThat(dp.period()).isCloseTo(expectedMs, within(1e-6));
    assertThat(dp.stages().size()).isLessThanOrEqualTo(devices);
    assertThat(SplitBruteForce.periodOf(SplitProblem.identical(table, "v100", devices, TransferMode.NONE), dp.stages()))
        .isCloseTo(dp.period(), within(1e-9));
    // independent checks: the classic linear-partition search, and brute force where it is small enough
    assertThat(linearPartition(table.timesOf("v100"), devices)).isCloseTo(dp.period(), within(1e-6));
    if (compositions(table.layers(), devices) <= 400_000) {
      double brute = Double.POSITIVE_INFINITY;
      for (int k = 1; k <= Math.min(devices, table.layers()); k++) {
        brute = Math.min(brute, SplitBruteForce.period(SplitProblem.onDevices(table, Collections.nCopies(k, "v100"), TransferMode.NONE)));
      }
      assertThat(brute).isCloseTo(dp.period(), within(1e-9));
    }
  }

  @Test
  void modelRouteAgreesWithTheCostTable() {
    // the same split priced by the performance model (measured profiles, seconds) gives the same period
    PipeDreamProfile gnmt = pipedream("translation_gnmt");
    Model model = gnmt.toModel(ProfileMode.TRAINING, "v100");
    var type = RandomInstances.type("v100", 125e12, 32L << 30, 900e9);
    LayerCostTable fromModel = LayerCostTable.forModel(model, 1, List.of(type), RandomInstances.network(),
        PerformanceModel.withTransfers(TransferMode.NONE));
    SplitResult seconds = PeriodSplitters.exact().split(SplitProblem.identical(fromModel, "v100", 4, TransferMode.NONE));
    assertThat(seconds.period() * 1000).isCloseTo(25.868, within(1e-5));
  }

  @Test
  void strategiesPlaceAnImportedProfileOnGpusOfItsType() {
    // GNMT's measured forward times on a cluster of eight GPUs of the profiled type, two nodes
    Model model = pipedream("translation_gnmt").toModel(ProfileMode.INFERENCE, "v100");
    var type = RandomInstances.type("v100", 125e12, 32L << 30, 900e9);
    var b = Cluster.builder().addGpuTypes(type).network(RandomInstances.network());
    for (String node : List.of("n0", "n1")) {
      b.addNodes(Node.of(node, RandomInstances.nvlink()));
      for (int g = 0; g < 4; g++) {
        b.addGpus(Gpu.of(node + "g" + g, "v100", node));
      }
    }
    var state = ClusterState.empty(b.build());
    var perf = PerformanceModel.defaults();
    double seconds = perf.stageSeconds(model, 0, model.size(), type, 1);
    var request = ServiceRequest.builder().id("gnmt").model(model)
        .slo(Slo.of(2.5 / seconds, Duration.ofNanos((long) (3 * seconds * 1e9)), 1)).maxStages(4).build();
    var problem = new PlacementProblem(request, state, StaticImportance.uniform(), perf,
        StrategyOptions.defaults());
    var dp = Strategies.named("dp").place(problem);
    var greedy = Strategies.named("greedy").place(problem);
    assertThat(dp.status()).as(dp.reason()).isEqualTo(SolveStatus.OPTIMAL);
    assertThat(greedy.status().hasPlan()).as(greedy.reason()).isTrue();
    for (var plan : List.of(dp.plan().get(), greedy.plan().get())) {
      assertThat(new PlanVerifier(perf).verify(request, plan, state).violations()).isEmpty();
      assertThat(plan.throughput()).isGreaterThanOrEqualTo(2.5 / seconds);
    }
    // 2.5 times the throughput of one GPU needs at least three GPUs
    assertThat(dp.plan().get().cost()).isEqualTo(3.0);
    assertThat(greedy.plan().get().cost()).isGreaterThanOrEqualTo(3.0);
  }

  /** Tarnawski et al.'s layer graphs: contiguous min-max load on k = 6 identical accelerators. */
  @ParameterizedTest(name = "{0}, k = 6: {1}")
  @CsvSource({"bert24_inference, 17.78990625, 32", "gnmt_inference, 33.03255468749998, 96"})
  void tarnawskiLayerGraphs(String file, double expectedMaxLoad, int nodes) {
    TarnawskiLayerGraph graph = TarnawskiLayerGraph.read(resource("dnn-partitioning/" + file + ".json"));
    assertThat(graph.nodeIds()).hasSize(nodes);
    assertThat(graph.maxDevices()).isEqualTo(6);
    assertThat(graph.maxSizePerDevice()).isEqualTo(17185374208L);
    SplitProblem problem = graph.splitProblem(6);
    SplitResult r = PeriodSplitters.exact().split(problem);
    assertThat(r.feasible()).isTrue();
    assertThat(r.period()).isCloseTo(expectedMaxLoad, within(1e-9));
    assertThat(SplitBruteForce.periodOf(problem, r.stages())).isCloseTo(r.period(), within(1e-9));
    if (file.startsWith("bert24")) {
      double brute = Double.POSITIVE_INFINITY;
      for (int k = 1; k <= 6; k++) {
        brute = Math.min(brute, SplitBruteForce.period(
            new SplitProblem(problem.table(), Collections.nCopies(k, TarnawskiLayerGraph.DEVICE), false, TransferMode.SERIAL, List.of())
                .withMemoryCap(graph.maxSizePerDevice())));
      }
      assertThat(brute).isCloseTo(r.period(), within(1e-9));
    }
  }

  /** Least P such that packing layers greedily into stages of at most P needs at most n stages. */
  static double linearPartition(List<Double> times, int n) {
    List<Double> candidates = new ArrayList<>();
    for (int a = 0; a < times.size(); a++) {
      double sum = 0;
      for (int b = a; b < times.size(); b++) {
        sum += times.get(b);
        candidates.add(sum);
      }
    }
    Collections.sort(candidates);
    int lo = 0;
    int hi = candidates.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (stagesNeeded(times, candidates.get(mid) * (1 + 1e-12)) <= n) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return candidates.get(lo);
  }

  private static int stagesNeeded(List<Double> times, double period) {
    int stages = 1;
    double load = 0;
    for (double t : times) {
      if (t > period) {
        return Integer.MAX_VALUE;
      }
      if (load + t > period) {
        stages++;
        load = 0;
      }
      load += t;
    }
    return stages;
  }

  private static long compositions(int layers, int maxParts) {
    long total = 0;
    for (int k = 1; k <= Math.min(maxParts, layers); k++) {
      total += binomial(layers - 1, k - 1);
    }
    return total;
  }

  private static long binomial(int n, int k) {
    long r = 1;
    for (int i = 1; i <= k; i++) {
      r = r * (n - k + i) / i;
    }
    return r;
  }
}
