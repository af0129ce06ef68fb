package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Node;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;
import org.rampa.solver.backend.LinearProgram;
import org.rampa.solver.flow.IntervalFlowFormulation;

/**
 * The interval/flow model, written out, for a fixed set of instances: both cluster presets, as they
 * are and with every other node's intra link slow (the large one then has slow nodes without a slot)
 * x every transfer mode x a CNN and a transformer x every {@link IntervalFlowFormulation.Charging},
 * plus seeded tiny instances with slow nodes and held GPUs.
 * Each model's SHA-256 must equal the one recorded in {@code interval-flow-golden.txt}: a refactoring
 * of the formulation must not change a single variable, bound, coefficient or row order. A deliberate
 * change of the model replaces that file with the listing this test prints when it fails.
 */
class IntervalFlowGoldenTest {

  private static final List<String> MODELS = List.of("resnet50", "gpt2-small");

  @Test
  void modelsAreByteIdenticalToTheRecordedOnes() throws IOException {
    StringBuilder actual = new StringBuilder();
    StaticImportance importance = StaticImportance.byType(Map.of("T4", 1.0, "A10", 2.0, "A100-SXM4-80GB", 5.0, "H100-SXM5-80GB", 9.0));
    for (Cluster cluster : List.of(ClusterPresets.small(), ClusterPresets.large(), withSlowNodes(ClusterPresets.small()),
        withSlowNodes(ClusterPresets.large()))) {
      ClusterState state = ClusterState.empty(cluster);
      for (TransferMode mode : TransferMode.values()) {
        PerformanceModel performance = PerformanceModel.withTransfers(mode);
        for (String name : MODELS) {
          ServiceRequest request = request(name, ModelCatalog.model(name), cluster, performance);
          for (IntervalFlowFormulation.Charging charging : IntervalFlowFormulation.Charging.values()) {
            String label = cluster.nodes().size() + "nodes-" + cluster.nodes().get(0).intraLink().name() + " " + mode + " "
                + name + " " + charging;
            actual.append(label).append(' ').append(hash(new IntervalFlowFormulation(request, state,
                importance.evaluate(state), performance, charging).model)).append('\n');
          }
        }
      }
    }
    for (long seed = 0; seed < 40; seed++) {
      PlacementProblem p = TinyInstances.problem(seed, true);
      for (IntervalFlowFormulation.Charging charging : IntervalFlowFormulation.Charging.values()) {
        actual.append("tiny").append(seed).append(' ').append(charging).append(' ').append(hash(new IntervalFlowFormulation(
            p.request(), p.state(), p.importance().evaluate(p.state()), p.performance(), charging).model)).append('\n');
      }
    }
    String expected;
    try (InputStream in = IntervalFlowGoldenTest.class.getResourceAsStream("interval-flow-golden.txt")) {
      expected = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(actual.toString()).isEqualTo(expected);
  }

  /** The preset with every other node's intra link slower than the network. */
  private static Cluster withSlowNodes(Cluster preset) {
    Link slow = Link.of("slow-pcie", preset.network().bandwidthBytesPerSecond() / 3, Duration.ofNanos(50_000));
    List<Node> nodes = new ArrayList<>();
    for (int n = 0; n < preset.nodes().size(); n++) {
      Node node = preset.nodes().get(n);
      nodes.add(n % 2 == 0 ? Node.of(node.id(), slow) : node);
    }
    return Cluster.builder().from(preset).nodes(nodes).build();
  }

  /** An SLO around what the fastest type can do: several stages and replicas, some co-location. */
  private static ServiceRequest request(String name, Model model, Cluster cluster, PerformanceModel performance) {
    int batch = 4;
    double fastest = Double.POSITIVE_INFINITY;
    for (GpuType t : cluster.gpuTypes()) {
      double total = 0;
      for (int l = 0; l < model.size(); l++) {
        total += performance.layerSeconds(model.layer(l), t, batch);
      }
      fastest = Math.min(fastest, total);
    }
    Slo slo = Slo.builder().requiredThroughput(batch / (fastest * 0.4)).batchSize(batch)
        .latencyBound(Duration.ofNanos((long) (fastest * 3 * 1e9))).build();
    return ServiceRequest.builder().id(name).model(model).slo(slo).maxStages(4).build();
  }

  /** SHA-256 of every variable, objective coefficient and row, exactly as a backend receives them. */
  private static String hash(LinearProgram model) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    for (int v = 0; v < model.variableCount(); v++) {
      digest.update((model.variables().get(v) + " " + model.objective(v) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    for (LinearProgram.Row row : model.rows()) {
      digest.update((row + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return model.variableCount() + "v " + model.rows().size() + "r " + HexFormat.of().formatHex(digest.digest());
  }
}
