package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.examples.cli.RampaCliTest.Run;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;

/**
 * The defrag command: two A100s, each a quarter held by a decode step that tolerates a co-runner;
 * one migration joins them and frees a whole GPU, which the forecast's whole-GPU and MIG entries can
 * then use; greedy finds it, exact proves it best.
 */
class DefragCommandTest {

  private static Path document(Path dir) throws Exception {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "greedy");
    var a = services.service("a", "node000-gpu0", new MpsShare(0.25, services.memory()), 3);
    var b = services.service("b", "node000-gpu1", new MpsShare(0.25, services.memory()), 3);
    var unused = services.service("unused", "node000-gpu0", new Whole(), 2);
    Path file = dir.resolve("problem.json");
    Files.writeString(file, RampaJson.write(ProblemDocument.builder().cluster(cluster).request(unused.request())
        .putAllocations("a", Allocation.of(a.request(), a.plan()))
        .putAllocations("b", Allocation.of(b.request(), b.plan()))
        .options(SharingOptions.on().applyTo(StrategyOptions.defaults()))
        .build()));
    return file;
  }

  private static JsonNode defrag(String... args) throws Exception {
    Run r = RampaCliTest.run(args);
    assertThat(r.code()).as(r.err()).isZero();
    return RampaJson.mapper().readTree(r.out());
  }

  @Test
  void oneMigrationFreesAGpuAndTheRoomGrows(@TempDir Path dir) throws Exception {
    Path file = document(dir);
    JsonNode out = defrag("defrag", file.toString(), "--budget", "2", "--demand", "whole=2");
    assertThat(out.get("moves")).as(out.toString()).hasSize(1);
    JsonNode move = out.get("moves").get(0);
    assertThat(move.get("kind").asText()).isEqualTo("migrate");
    assertThat(move.get("service").asText()).isIn("a", "b");
    assertThat(out.get("roomAfter").asDouble()).isGreaterThan(out.get("roomBefore").asDouble());
    assertThat(out.get("strandedAfter").asDouble()).isLessThan(out.get("strandedBefore").asDouble());
    assertThat(out.get("moveCost").asDouble()).isEqualTo(1.0);
    assertThat(out.get("status").asText()).isEqualTo("FEASIBLE");
    assertThat(out.get("defragmenter").asText()).isEqualTo("greedy-defrag");
  }

  @Test
  void theExactDefragmenterProvesTheSameMigrationBest(@TempDir Path dir) throws Exception {
    Path file = document(dir);
    JsonNode greedy = defrag("defrag", file.toString(), "--budget", "2", "--demand", "whole=2");
    JsonNode out = defrag("defrag", file.toString(), "--budget", "2", "--demand", "whole=2", "--defragmenter", "exact");
    assertThat(out.get("defragmenter").asText()).isEqualTo("exact-defrag");
    assertThat(out.get("status").asText()).as(out.toString()).isEqualTo("OPTIMAL");
    assertThat(out.get("moves")).hasSize(1);
    assertThat(out.get("moves").get(0).get("kind").asText()).isEqualTo("migrate");
    assertThat(out.get("roomAfter").asDouble()).isEqualTo(greedy.get("roomAfter").asDouble());
    assertThat(out.get("moveCost").asDouble()).isEqualTo(1.0);
  }

  @Test
  void theDocumentsBudgetOfZeroMovesNothing(@TempDir Path dir) throws Exception {
    JsonNode out = defrag("defrag", document(dir).toString());
    assertThat(out.get("budget").asInt()).isZero();
    assertThat(out.get("moves")).isEmpty();
    assertThat(out.get("roomAfter").asDouble()).isEqualTo(out.get("roomBefore").asDouble());
    assertThat(out.get("status").asText()).isEqualTo("OPTIMAL");
  }

  @Test
  void badOptionsExitTwoNamingFieldValueAndRule(@TempDir Path dir) throws Exception {
    Path file = document(dir);
    Run budget = RampaCliTest.run("defrag", file.toString(), "--budget", "17");
    assertThat(budget.code()).isEqualTo(RampaCli.BAD_INPUT);
    assertThat(budget.err()).contains("defrag.budget = 17: must lie in [0, 16]");
    Run demand = RampaCliTest.run("defrag", file.toString(), "--demand", "whole=-1");
    assertThat(demand.code()).isEqualTo(RampaCli.BAD_INPUT);
    assertThat(demand.err()).contains("demand[whole] = -1.0");
    Run which = RampaCliTest.run("defrag", file.toString(), "--defragmenter", "optimal");
    assertThat(which.code()).isEqualTo(RampaCli.BAD_INPUT);
    assertThat(which.err()).contains("--defragmenter = optimal: is not a defragmenter").contains("greedy, exact");
  }
}
