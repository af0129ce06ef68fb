package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.json.ProblemDocument;
import org.rampa.json.RampaJson;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;

/** rampa verify judges an incumbent's SLO under the interference a foreign plan brings. */
class VerifyCommandTest {

  private static final PerformanceModel PERF = PerformanceModel.defaults();

  private static Plan onHalf(ServiceRequest request, Cluster cluster) {
    Model m = request.model();
    long memory = PERF.stageMemoryBytes(m, 0, m.size(), request.slo().batchSize());
    StageAssignment half = new StageAssignment(0, m.size(), List.of(cluster.gpus().get(0).id()), new MpsShare(0.5, memory));
    return PERF.plan(request, List.of(half), cluster, 0, "manual");
  }

  @Test
  void aPlanThatSlowsAnIncumbentPastItsSloExitsThreeNamingIt(@TempDir Path dir) throws Exception {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    ServiceRequest loose = ServiceRequest.builder().id("incumbent").model(ModelCatalog.model("resnet50"))
        .slo(Slo.of(1, Duration.ofSeconds(1), 8)).build();
    // the incumbent's latency bound: 1 % above its time alone on its half, so one co-runner's 5 % breaks it
    Duration alone = onHalf(loose, cluster).latency();
    ServiceRequest incumbent = ServiceRequest.builder().from(loose).slo(Slo.of(1, Duration.ofNanos(alone.toNanos() * 101 / 100), 8)).build();
    Plan held = onHalf(incumbent, cluster);
    ServiceRequest newcomer = ServiceRequest.builder().id("newcomer").model(ModelCatalog.model("resnet50"))
        .slo(Slo.of(1, Duration.ofSeconds(1), 8)).build();
    Path problem = Files.writeString(dir.resolve("problem.json"), RampaJson.write(ProblemDocument.builder().cluster(cluster).request(newcomer)
        .putAllocations("incumbent", Allocation.of(incumbent, held)).build()));
    Path plan = Files.writeString(dir.resolve("plan.json"), RampaJson.write(onHalf(newcomer, cluster)));

    BadInputs.Run r = BadInputs.run("verify", "--problem", problem.toString(), "--plan", plan.toString());

    assertThat(r.code()).as(r.err() + r.out()).isEqualTo(RampaCli.PLAN_INVALID);
    JsonNode verdict = BadInputs.tree(r.out());
    assertThat(verdict.get("valid").asBoolean()).isFalse();
    assertThat(verdict.get("violations").findValuesAsText("kind")).contains("INTERFERENCE");
    assertThat(r.out()).contains("service \\\"incumbent\\\" misses its SLO with co-runners");
  }

  @Test
  void theSamePlanNextToALooseIncumbentIsValid(@TempDir Path dir) throws Exception {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    ServiceRequest incumbent = ServiceRequest.builder().id("incumbent").model(ModelCatalog.model("resnet50"))
        .slo(Slo.of(1, Duration.ofSeconds(1), 8)).build();
    ServiceRequest newcomer = ServiceRequest.builder().from(incumbent).id("newcomer").build();
    Path problem = Files.writeString(dir.resolve("problem.json"), RampaJson.write(ProblemDocument.builder().cluster(cluster).request(newcomer)
        .putAllocations("incumbent", Allocation.of(incumbent, onHalf(incumbent, cluster))).build()));
    Path plan = Files.writeString(dir.resolve("plan.json"), RampaJson.write(onHalf(newcomer, cluster)));

    BadInputs.Run r = BadInputs.run("verify", "--problem", problem.toString(), "--plan", plan.toString());

    assertThat(r.code()).as(r.err() + r.out()).isZero();
    assertThat(BadInputs.tree(r.out()).get("violations")).isEmpty();
  }
}
