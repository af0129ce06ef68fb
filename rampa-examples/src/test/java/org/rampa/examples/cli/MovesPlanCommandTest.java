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
import org.rampa.json.ImmutableMovesDocument;
import org.rampa.json.ImmutableProblemDocument;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;

/**
 * The plan command with {@code "moves"}: two A100s each half held by a decode step with room for
 * co-runners, and a newcomer too tight to share a GPU, so it fits only once one tenant joins the other.
 */
class MovesPlanCommandTest {

  private static String document(int budget, String search, String strategy) {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "greedy");
    var a = services.service("a", "node000-gpu0", new MpsShare(0.5, services.memory()), 1.2);
    var b = services.service("b", "node000-gpu1", new MpsShare(0.5, services.memory()), 1.2);
    var newcomer = services.service("new", "node000-gpu0", new Whole(), 1.02);
    return RampaJson.write(ProblemDocument.builder().cluster(cluster).request(newcomer.request())
        .putAllocations("a", Allocation.of(a.request(), a.plan()))
        .putAllocations("b", Allocation.of(b.request(), b.plan()))
        .strategy(strategy)
        // margin-free: the tenants' plans state nominal times and leave 20 % slack, less than a share tier's default margin
        .options(SharingOptions.on().withMargin("none").applyTo(StrategyOptions.defaults()))
        .moves(ImmutableMovesDocument.builder().budget(budget).search(search).build())
        .build());
  }

  private static JsonNode plan(Path dir, String json) throws Exception {
    Path file = dir.resolve("problem.json");
    Files.writeString(file, json);
    Run r = RampaCliTest.run("plan", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    return RampaJson.mapper().readTree(r.out());
  }

  @Test
  void withoutABudgetTheNewcomerIsRefusedAsToday(@TempDir Path dir) throws Exception {
    JsonNode out = plan(dir, document(0, "exact", "greedy"));
    assertThat(out.path("plan").isMissingNode() || out.get("plan").isNull()).as(out.toString()).isTrue();
    assertThat(out.has("moves")).isFalse();
  }

  @Test
  void withOneMoveTheResultListsTheMigrationNextToTheNewcomersPlan(@TempDir Path dir) throws Exception {
    // dp proves every refusal, so the exact search proves its one move the least; greedy may give up without a proof, which
    // leaves the exact search's answer FEASIBLE unless its latency floor proves the state without moves infeasible (OPTIMAL)
    for (String[] c : new String[][] {{"exact", "dp", "OPTIMAL"}, {"exact", "greedy", "OPTIMAL|FEASIBLE"}, {"greedy", "greedy", "FEASIBLE"}}) {
      String search = c[0];
      JsonNode out = plan(dir, document(1, search, c[1]));
      assertThat(out.get("plan")).as(search + ": " + out).isNotNull();
      assertThat(out.get("moves")).hasSize(1);
      JsonNode move = out.get("moves").get(0);
      assertThat(move.get("kind").asText()).isEqualTo("migrate");
      assertThat(move.get("service").asText()).isIn("a", "b");
      // its own half or, a placement change, a smaller menu share that still meets its bound next to the other tenant
      assertThat(move.get("to").asText()).matches(".* mps 0\\.(5|3+|25)");
      assertThat(out.get("plan").get("stages").get(0).get("gpus").get(0).asText()).isEqualTo(move.get("from").asText());
      assertThat(out.get("moveSearch").get("status").asText()).as(String.join(" ", c)).isIn((Object[]) c[2].split("\\|"));
    }
  }

  /**
   * {@code keepPlacements}: the half tenant must shrink to a quarter on the other GPU to admit the
   * newcomer ({@code PlacementChangeTest}'s second instance); by default the exact search finds that
   * migration, keeping placements it finds none.
   */
  @Test
  void keepPlacementsLeavesOutMigrationsThatChangeAPlacement(@TempDir Path dir) throws Exception {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    DecodeServices services = new DecodeServices(cluster, "dp");
    ImmutableProblemDocument.Builder doc = ProblemDocument.builder().cluster(cluster)
        .request(services.service("new", "node000-gpu0", new Whole(), 1.2).request()).strategy("dp")
        .options(SharingOptions.on().withMargin("none").applyTo(StrategyOptions.defaults()));
    Object[][] tenants = {{"half", "node000-gpu0", 0.5, 5.0}, {"quarter", "node000-gpu0", 0.25, 1.08},
        {"z-half", "node000-gpu1", 0.5, 2.0}, {"z-quarter", "node000-gpu1", 0.25, 2.0}};
    for (Object[] t : tenants) {
      var a = services.service((String) t[0], (String) t[1], new MpsShare((double) t[2], services.memory()), (double) t[3]);
      doc.putAllocations((String) t[0], Allocation.of(a.request(), a.plan()));
    }
    for (boolean keep : new boolean[] {false, true}) {
      String json = RampaJson.write(doc.moves(ImmutableMovesDocument.builder().budget(1).keepPlacements(keep).build()).build());
      JsonNode out = plan(dir, json);
      if (keep) {
        assertThat(out.get("moves")).as(out.toString()).isEmpty();
        assertThat(out.get("moveSearch").get("status").asText()).isEqualTo("INFEASIBLE");
      } else {
        assertThat(out.get("moves")).as(out.toString()).hasSize(1);
        assertThat(out.get("moves").get(0).get("service").asText()).isEqualTo("half");
        assertThat(out.get("moves").get(0).get("to").asText()).contains("mps 0.25");
        assertThat(out.get("moveSearch").get("status").asText()).isEqualTo("OPTIMAL");
      }
    }
  }

  @Test
  void badMovesExitTwoNamingFieldValueAndRule(@TempDir Path dir) throws Exception {
    String good = document(1, "exact", "greedy");
    Map<String, String[]> broken = Map.of(
        "negative budget", new String[] {"\"budget\" : 1", "\"budget\" : -1", "moves.budget = -1: must lie in [0, 16]"},
        "unknown search", new String[] {"\"search\" : \"exact\"", "\"search\" : \"magic\"", "moves.search = magic: must be one of [exact, greedy]"},
        "free migration", new String[] {"\"migration\" : 1.0", "\"migration\" : 0.0", "moves.costs.migration = 0.0: must be a finite number > 0"});
    for (var e : broken.entrySet()) {
      String[] edit = e.getValue();
      assertThat(good).as(e.getKey()).contains(edit[0]);
      Path file = dir.resolve(e.getKey().replace(' ', '-') + ".json");
      Files.writeString(file, good.replace(edit[0], edit[1]));
      Run r = RampaCliTest.run("plan", file.toString());
      assertThat(r.code()).as(e.getKey() + ": " + r.out()).isEqualTo(RampaCli.BAD_INPUT);
      assertThat(r.err()).as(e.getKey()).contains(edit[2]);
    }
  }
}
