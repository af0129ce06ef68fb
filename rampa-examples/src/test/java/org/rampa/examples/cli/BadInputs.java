package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;

/**
 * Valid input documents for every command, for the bad-input corpus and the mutation test to
 * break, and the one check of a clean answer: an exit code and, for exit 2, one line starting
 * "rampa: " and no stack trace.
 */
final class BadInputs {
  private BadInputs() {}

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RampaCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  /**
   * Exit 0, 2 or (rampa verify's invalid plan) 3, never 1; a refusal is a message (ours start
   * "rampa: ", picocli's usage errors name the option) without a stack trace or a Java exception's name.
   */
  static void assertClean(Run r, String what) {
    assertThat(r.code()).as(what + "\n" + r.err()).isIn(0, 2, RampaCli.PLAN_INVALID);
    assertThat(r.err()).as(what).doesNotContain("\tat ").doesNotContain("internal error").doesNotContain("Exception")
        .doesNotContain("CoercionConfig");
    if (r.code() == 2) {
      assertThat(r.err()).as(what).isNotBlank();
    }
  }

  /** A small free cluster (8 GPUs of four types) and one BERT service the greedy strategy places. */
  static ObjectNode problem() {
    ServiceRequest request = ServiceRequest.builder().id("bert").model(ModelCatalog.prefill("bert-base", 128))
        .slo(Slo.of(50, Duration.ofMillis(200), 4)).build();
    String json = RampaJson.write(ProblemDocument.builder().cluster(ClusterPresets.mixed(new int[] {1, 1, 1, 1}, 2))
        .request(request).strategy("greedy").putImportanceByType("T4", 2.0).build());
    return (ObjectNode) tree(json);
  }

  /**
   * A cluster whose ledger has a MIG layout with a held instance and two MPS holdings on one GPU,
   * and a BERT service to place on the rest: a problem document with placements.
   */
  static ObjectNode sharedProblem() {
    long gib = 1L << 30;
    org.rampa.domain.Cluster cluster = ClusterPresets.of(java.util.Map.of("A100-SXM4-80GB", 1), 4, ClusterPresets.NETWORK_100G);
    ServiceRequest request = ServiceRequest.builder().id("bert").model(ModelCatalog.prefill("bert-large", 384))
        .slo(Slo.of(10, Duration.ofMillis(200), 4)).build();
    var first = new org.rampa.domain.share.MigSlice("3g.40gb", 0);
    var second = new org.rampa.domain.share.MigSlice("3g.40gb", 4);
    return (ObjectNode) tree(RampaJson.write(ProblemDocument.builder().cluster(cluster).request(request)
        .putMigLayouts("node000-gpu0", java.util.List.of(first, second))
        .putAllocations("cnn", org.rampa.domain.Allocation.of("cnn", java.util.List.of(org.rampa.domain.Holding.of("node000-gpu0", second, 2 * gib))))
        .putAllocations("a", org.rampa.domain.Allocation.of("a", java.util.List.of(
            org.rampa.domain.Holding.of("node000-gpu1", new org.rampa.domain.share.MpsShare(0.5, 4 * gib), 4 * gib))))
        .build()));
  }

  /** The learned policy shipped in rampa-heuristics, as text: a valid --policy document. */
  static String shippedPolicy() {
    try (var in = org.rampa.heuristics.learned.LearnedColocationPlanner.class.getResourceAsStream("learned-policy.json")) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  static final String CLUSTER_CSV = "gpu_type,count\n# two kinds\nL4,2\nA10,2\n";

  static final String DEMAND_CSV = "model,rate,slo_ms,max_batch\nresnet50,40,50,8\nbert-base,20,80,2\n";

  static final String WORKLOAD = """
      {"classes": [
        {"model": "resnet50", "phase": "model", "tokens": 0, "batch": 8, "slo": "LOOSE", "weight": 1, "maxStages": 2},
        {"model": "bert-base", "phase": "prefill", "tokens": 128, "batch": 4, "slo": "MEDIUM", "weight": 2, "maxStages": 2}
      ]}
      """;

  static final String TRACE = "arrival_s,class,lifetime_s\n1.0,0,3600\n2.0,1,3600\n3.5,0,10\n";

  static final String PIPEDREAM = """
      node1 -- Input0 -- forward_compute_time=0.000, backward_compute_time=0.000, activation_size=602112.000, parameter_size=0.000
      node2 -- Conv2d(3, 64) -- forward_compute_time=1.500, backward_compute_time=2.000, activation_size=[1000.000; 2000.000], parameter_size=23296.000
      node3 -- ReLU(inplace) -- forward_compute_time=0.500, backward_compute_time=0.250, activation_size=3000.000, parameter_size=0.000
      \tnode1 -- node2
      \tnode2 -- node3
      """;

  static final String TARNAWSKI = """
      {"maxSizePerFPGA": 17185374208.0, "maxFPGAs": 4, "maxCPUs": 1,
       "nodes": [{"name": "node1", "id": 1, "fpgaLatency": 0.5, "size": 100.0},
                 {"name": "node2", "id": 2, "fpgaLatency": 1.5, "size": 200.0},
                 {"name": "node3", "id": 3, "fpgaLatency": 1.0, "size": 300.0}],
       "edges": [{"sourceId": 1, "destId": 2, "cost": 0.1, "size": 10.0},
                 {"sourceId": 2, "destId": 3, "cost": 0.2, "size": 10.0}]}
      """;

  static JsonNode tree(String json) {
    try {
      return RampaJson.mapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  static Path write(Path dir, String name, String content) {
    try {
      return Files.writeString(dir.resolve(name), content);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
