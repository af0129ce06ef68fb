package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.Holding;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.examples.cli.RampaCliTest.Run;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.strategy.PlacementResult;

/** The plan command on a cluster whose ledger has a MIG layout and MPS holdings. */
class SharedPlanCommandTest {

  private static final long GIB = 1L << 30;

  private static String document() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 4, ClusterPresets.NETWORK_100G);
    ServiceRequest request = ServiceRequest.builder().id("bert").model(ModelCatalog.prefill("bert-large", 384))
        .slo(Slo.of(10, Duration.ofMillis(200), 4)).build();
    return RampaJson.write(ProblemDocument.builder().cluster(cluster).request(request)
        .putMigLayouts("node000-gpu0", List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4)))
        .putAllocations("cnn", Allocation.of("cnn", List.of(Holding.of("node000-gpu0", new MigSlice("3g.40gb", 4), 2 * GIB))))
        .putAllocations("a", Allocation.of("a", List.of(Holding.of("node000-gpu1", new MpsShare(0.5, 4 * GIB), 4 * GIB))))
        .putAllocations("b", Allocation.of("b", List.of(Holding.of("node000-gpu1", new MpsShare(0.3, 4 * GIB), 4 * GIB))))
        .build());
  }

  @Test
  void aDocumentWithMigLayoutsAndMpsHoldingsIsPlannedOnTheRest(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("shared.json");
    Files.writeString(file, document());
    Run r = RampaCliTest.run("plan", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    PlacementResult result = RampaJson.read(r.out(), PlacementResult.class);
    assertThat(result.plan()).isPresent();
    assertThat(result.plan().get().stages()).allSatisfy(s -> assertThat(s.gpus()).doesNotContain("node000-gpu0", "node000-gpu1"));
    assertThat(r.out()).contains("\"kind\" : \"whole\"");
  }

  @Test
  void badSharedInputExitsTwoNamingTheField(@TempDir Path dir) throws Exception {
    String good = document();
    Map<String, String[]> broken = Map.of(
        "illegal start", new String[] {"\"start\" : 4\n    } ]", "\"start\" : 3\n    } ]", "migLayouts[node000-gpu0]"},
        "share over 1", new String[] {"\"fraction\" : 0.3", "\"fraction\" : 0.6", "COMPUTE_SUM"});
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
