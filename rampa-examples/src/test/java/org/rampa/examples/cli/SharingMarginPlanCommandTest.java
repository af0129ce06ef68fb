package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.domain.share.MpsShare;
import org.rampa.examples.cli.RampaCliTest.Run;
import org.rampa.json.RampaJson;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.PlacementResult;

/**
 * Issue 24: a problem document with sharing on and no {@code sharingMargin} is planned under each
 * share tier's default margin, and {@code "sharingMargin": "none"} gives the plan the same document
 * gave before the margins were the default. The expected margin-free result was written by
 * {@code rampa plan} built from commit 378e65c (sharingMargin then defaulted to none) on
 * {@code shared-bert.json}; the comparison leaves its solve time out.
 */
class SharingMarginPlanCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static String resource(String name) throws IOException {
    try (InputStream in = SharingMarginPlanCommandTest.class.getResourceAsStream("margin/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Run plan(Path dir, String name, String document) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, document);
    Run r = RampaCliTest.run("plan", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    return r;
  }

  /** The result JSON without its solve time, the one field that depends on the machine. */
  private static JsonNode withoutSolveTime(String result) throws IOException {
    ObjectNode root = (ObjectNode) JSON.readTree(result);
    root.remove("solveTime");
    return root;
  }

  @Test
  void aDocumentWithoutSharingMarginIsPlannedUnderTheDefaultMargins(@TempDir Path dir) throws Exception {
    String document = resource("shared-bert.json");
    assertThat(document).contains("\"sharing\" : \"on\"").doesNotContain("sharingMargin");
    PlacementResult margined = RampaJson.read(plan(dir, "default.json", document).out(), PlacementResult.class);
    PlacementResult nominal = RampaJson.read(resource("shared-bert-none-plan-378e65c.json"), PlacementResult.class);
    // BERT-base on a quarter of the A100 meets the 80 ms bound on the nominal times (54 ms) but not under the analytic tier's
    // TensorRT margin (x 2.50, 135 ms): the margined plan takes half of the GPU (70 ms with the margin)
    assertThat(((MpsShare) nominal.plan().orElseThrow().stages().get(0).placement()).fraction()).isEqualTo(0.25);
    assertThat(((MpsShare) margined.plan().orElseThrow().stages().get(0).placement()).fraction()).isEqualTo(0.5);
    assertThat(margined.shareMargins()).isEqualTo(TierMargins.defaults().byLabel());
    assertThat(margined.plan().get().latency()).isLessThanOrEqualTo(Duration.ofMillis(80))
        .isGreaterThan(nominal.plan().get().latency());
  }

  @Test
  void sharingMarginNoneGivesThePlanOfBeforeTheDefault(@TempDir Path dir) throws Exception {
    String document = resource("shared-bert.json").replace("\"sharing\" : \"on\"", "\"sharing\" : \"on\", \"sharingMargin\" : \"none\"");
    Run r = plan(dir, "none.json", document);
    assertThat(withoutSolveTime(r.out())).isEqualTo(withoutSolveTime(resource("shared-bert-none-plan-378e65c.json")));
    assertThat(r.out()).doesNotContain("shareMargins");
  }
}
