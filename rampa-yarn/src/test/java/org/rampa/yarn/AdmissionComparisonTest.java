package org.rampa.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;

/**
 * Greedy RAMPA against YARN's own DefaultPlacementAlgorithm, both inside the same real
 * ResourceManager on the same arrival sequence. The cluster mixes 8 T4 and 4 A100 GPUs; small
 * services (BERT-large, 80 requests/s within 50 ms) run on any of them, large ones (Llama-2-7B
 * prefill of 512 tokens, 20 requests/s within 100 ms) only on an A100. They arrive interleaved,
 * two small, one large, and never leave. Under the default algorithm each service asks for the one
 * GPU it needs (YARN's yarn.io/gpu cannot say which type); it counts as admitted when its container
 * came and the GPU it got can meet its SLO. Under RAMPA the same services carry the request
 * contract's tags.
 */
class AdmissionComparisonTest {

  private static final String T4 = "T4";
  private static final String A100 = "A100-SXM4-80GB";
  private static YarnTestCluster yarn;

  @BeforeAll
  static void start() throws Exception {
    yarn = new YarnTestCluster("rampa-admission", List.of(T4 + ":4", A100 + ":2", T4 + ":4", A100 + ":2"),
        Map.of(RampaYarnConfig.STRATEGY, "greedy", RampaYarnConfig.IMPORTANCE, "capability"));
  }

  @AfterAll
  static void stop() {
    if (yarn != null) {
      yarn.close();
    }
  }

  record Kind(String name, Model model, Slo slo, List<String> tags) {}

  static final Kind SMALL = new Kind("small", ModelCatalog.model("bert-large"), Slo.of(80, Duration.ofMillis(50), 1),
      List.of("rampa.model=bert-large", "rampa.slo.throughput=80", "rampa.slo.latency-ms=50"));
  static final Kind LARGE = new Kind("large", ModelCatalog.prefill("llama2-7b", 512), Slo.of(20, Duration.ofMillis(100), 1),
      List.of("rampa.model=llama2-7b", "rampa.phase=prefill", "rampa.tokens=512", "rampa.slo.throughput=20",
          "rampa.slo.latency-ms=100"));

  static List<Kind> arrivals() {
    List<Kind> seq = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      seq.add(i % 3 == 2 ? LARGE : SMALL);
    }
    return seq;
  }

  @Test
  void rampaAdmitsMoreServicesThanYarnsDefaultAlgorithmOnTheSameArrivals() throws Exception {
    // the premise: a small service fits one GPU of either type, a large one only an A100
    assertThat(meetsSloOnOne(SMALL, T4)).isTrue();
    assertThat(meetsSloOnOne(SMALL, A100)).isTrue();
    assertThat(meetsSloOnOne(LARGE, T4)).isFalse();
    assertThat(meetsSloOnOne(LARGE, A100)).isTrue();

    List<Kind> seq = arrivals();
    var plain = yarn.startAm("default-algorithm");
    int granted = 0;
    int defaultAdmitted = 0;
    Map<String, Integer> defaultGot = new java.util.TreeMap<>();
    for (int i = 0; i < seq.size(); i++) {
      long id = plain.ask(Set.of("svc-" + i), Resource.newInstance(512, 1, Map.of(YarnTestCluster.GPU, 1L)), 1);
      plain.until("an answer to " + id, am -> am.rejectedOf(id) != null || !am.containersOf(id).isEmpty());
      if (!plain.containersOf(id).isEmpty()) {
        granted++;
        Container c = plain.containersOf(id).get(0);
        defaultGot.merge(seq.get(i).name() + " on " + yarn.typeOf.get(c.getNodeId()), 1, Integer::sum);
        if (meetsSloOnOne(seq.get(i), yarn.typeOf.get(c.getNodeId()))) {
          defaultAdmitted++;
        }
      }
    }
    plain.release(plain.containers);

    var rampa = yarn.startAm("rampa");
    int rampaAdmitted = 0;
    Map<String, Integer> rampaGot = new java.util.TreeMap<>();
    for (int i = 0; i < seq.size(); i++) {
      Set<String> tags = new LinkedHashSet<>(seq.get(i).tags());
      tags.add("rampa.service=svc-" + i);
      long id = rampa.ask(tags);
      rampa.awaitAnswer(id);
      if (rampa.rejectedOf(id) == null) {
        rampaAdmitted++;
        rampaGot.merge(seq.get(i).name() + " on " + YarnTestCluster.tag(rampa.containersOf(id).get(0), ServiceSpec.GPU_TYPE), 1, Integer::sum);
      }
    }
    // every plan RAMPA committed met its SLO when the verifier checked it; the containers match it
    assertThat(yarn.adapter().bookings()).hasSize(rampaAdmitted);

    String summary = "arrivals " + seq.size() + " (" + seq.stream().filter(k -> k == LARGE).count()
        + " large) on 8 T4 + 4 A100: DefaultPlacementAlgorithm granted " + granted + ", admitted with SLO met "
        + defaultAdmitted + " " + defaultGot + "; greedy RAMPA admitted " + rampaAdmitted + " " + rampaGot + " (every one within its SLO)";
    System.out.println("[rampa-yarn] " + summary);
    Files.writeString(Path.of("target", "yarn-admission.txt"), summary + System.lineSeparator());
    assertThat(rampaAdmitted).isGreaterThan(defaultAdmitted);
    rampa.release(rampa.containers);
  }

  /** Whether one GPU of {@code type} can serve {@code kind} within its SLO (the DP is exact on one GPU). */
  static boolean meetsSloOnOne(Kind kind, String type) {
    var cluster = ClusterPresets.of(Map.of(type, 1), 1, ClusterPresets.NETWORK_100G);
    return Rampa.on(cluster).strategy("dp")
        .place(ServiceRequest.builder().id(kind.name()).model(kind.model()).slo(kind.slo()).maxStages(1).build())
        .plan().isPresent();
  }
}
