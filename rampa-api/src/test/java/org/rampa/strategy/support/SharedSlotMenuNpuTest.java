package org.rampa.strategy.support;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Node;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.strategy.support.SharedSlotMenu.Origin;
import org.rampa.strategy.support.SharedSlotMenu.Slot;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.InterferenceGuard;


/**
 * The shared-slot menu on the modelled NPU-8C-64GB (8 AI cores; templates vir01, vir02, vir04 and
 * vir08 of 1, 2, 4 and 8 cores with 8 GB per core): every template on free NPUs, the templates
 * that fit the free cores of NPUs in template mode, all isolated (α = 1), best fits first.
 */
class SharedSlotMenuNpuTest {

  private static final String NPU = "NPU-8C-64GB";
  private final GpuType type = SharingCatalog.standard().npuTypes().stream().filter(t -> t.name().equals(NPU)).findFirst().orElseThrow();
  private final GpuPartitioning parts = type.partitioning();
  private final Cluster cluster = cluster(4);
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final InterferenceGuard guard = InterferenceGuard.defaults();

  private Cluster cluster(int npus) {
    var b = Cluster.builder().network(ClusterPresets.NETWORK_100G).addGpuTypes(type)
        .addNodes(Node.of("n", GpuCatalog.standard().entry("A100-SXM4-80GB").intraNodeLink()));
    for (int i = 0; i < npus; i++) {
      b.addGpus(Gpu.of("n" + i, NPU, "n"));
    }
    return b.build();
  }

  private ClusterState hold(ClusterState state, String id, int npu, String template) {
    Admission a = services.service(id, "n" + npu, new TemplatePartition(template), 2);
    return guard.admit(state, a.request(), a.plan());
  }

  private SharedSlotMenu menu(ClusterState state, SharingOptions options) {
    Admission newcomer = services.service("new", "n0", new Whole(), 3);
    return SharedSlotMenu.of(PlacementProblem.of(newcomer.request(), state, StaticImportance.uniform(), StrategyOptions.defaults()), options);
  }

  private static List<String> templates(List<Slot> slots) {
    return slots.stream().map(s -> s.placement() instanceof TemplatePartition t ? t.template() : "whole").toList();
  }

  @Test
  void freeNpusOfferEveryTemplateAloneAndSharingOffOnlyTheWholeNpu() {
    ClusterState state = hold(ClusterState.empty(cluster), "chat", 0, "vir04");
    List<Slot> free = menu(state, SharingOptions.on()).slots().stream().filter(s -> s.origin() == Origin.FREE_GPUS).toList();
    assertThat(templates(free)).containsExactly("whole", "vir01", "vir02", "vir04", "vir08");
    assertThat(free).allSatisfy(s -> {
      assertThat(s.gpus()).containsExactly("n1", "n2", "n3");
      assertThat(s.alpha()).isEqualTo(1.0);
      assertThat(s.incumbentBudget()).isEqualTo(SharedSlotMenu.UNLIMITED);
      long room = s.placement() instanceof TemplatePartition t ? parts.template(t.template()).memoryBytes() : type.memoryBytes();
      assertThat(s.memoryCapBytes()).isEqualTo(room);
    });
    assertThat(templates(menu(state, SharingOptions.off()).slots())).containsExactly("whole");
  }

  @Test
  void partlyUsedNpusOfferTheTemplatesThatFitTheirFreeCoresIsolated() {
    ClusterState state = hold(hold(ClusterState.empty(cluster), "chat", 0, "vir04"), "code", 0, "vir02");
    state = hold(state, "full", 1, "vir08");
    assertThat(state.capacity().freeTemplateCores()).isEqualTo(Map.of("n0", 2));
    List<Slot> partly = menu(state, SharingOptions.on()).slots().stream().filter(s -> s.origin() == Origin.PARTLY_USED).toList();
    assertThat(templates(partly)).containsExactlyInAnyOrder("vir01", "vir02");
    assertThat(partly).allSatisfy(s -> {
      assertThat(s.gpus()).containsExactly("n0");
      assertThat(s.alpha()).isEqualTo(1.0);
      assertThat(s.incumbentBudget()).isEqualTo(SharedSlotMenu.BUDGET_PROBE_CAP);
      assertThat(s.placementFor(1)).isEqualTo(s.placement());
    });
  }

  @Test
  void ofThePartlyUsedNpusTheFewestCoresLeftComeFirstAndOnlyTopKAreKept() {
    ClusterState state = hold(ClusterState.empty(cluster), "a", 0, "vir02"); // 6 cores left
    state = hold(state, "b", 1, "vir04"); // 4 left
    state = hold(hold(state, "c", 2, "vir04"), "d", 2, "vir02"); // 2 left
    state = state.allocate(RandomInstances.holdPlan("hold", "n3"));
    SharedSlotMenu menu = menu(state, SharingOptions.of(ExtraOptions.of(StrategyOptions.builder().putExtra("sharing", "on")
        .putExtra("sharingTopK", "2").build(), "test", SharingOptions.KEYS)));
    List<Slot> vir02 = menu.slots().stream()
        .filter(s -> s.origin() == Origin.PARTLY_USED && s.placement().equals(new TemplatePartition("vir02"))).toList();
    assertThat(vir02).extracting(s -> s.gpus().get(0)).containsExactly("n2", "n1");
    assertThat(menu.slots()).noneMatch(s -> s.origin() == Origin.FREE_GPUS && !s.placement().equals(new Whole()) && s.gpus().contains("n3"));
    assertThat(parts.templates()).extracting(PartitionTemplate::cores).containsExactly(1, 2, 4, 8);
  }
}
