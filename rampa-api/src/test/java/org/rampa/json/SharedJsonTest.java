package org.rampa.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageAssignment;
import org.rampa.testing.Property;

/** JSON of shared GPUs: every placement kind, ledgers with MIG layouts and MPS holdings, plans on shares. */
class SharedJsonTest {

  private static final long GIB = 1L << 30;
  private static final double[] MPS_MENU = {0.1, 0.2, 0.25, 0.3, 0.5};

  private static <T> void roundTrip(T value, Class<T> type) {
    String json = RampaJson.write(value);
    T back = RampaJson.read(json, type);
    assertThat(back).isEqualTo(value);
    assertThat(RampaJson.write(back)).isEqualTo(json);
  }

  /** A legal MIG layout: the candidates (profile, allowed start) in random order, each kept when still legal. */
  static List<MigSlice> randomLayout(MigGeometry geometry, Random random) {
    List<MigSlice> candidates = new ArrayList<>();
    for (MigProfile p : geometry.profiles()) {
      p.allowedStarts().forEach(s -> candidates.add(new MigSlice(p.name(), s)));
    }
    Collections.shuffle(candidates, random);
    List<MigSlice> layout = new ArrayList<>();
    for (MigSlice s : candidates) {
      layout.add(s);
      if (MigLayout.check(geometry, layout).isPresent()) {
        layout.remove(layout.size() - 1);
      }
    }
    return layout;
  }

  /** A ledger on A100s and MI100s with MIG layouts, MPS shares, CU masks and whole GPUs, built through allocate. */
  static ClusterState randomSharedState(long seed) {
    Random random = new Random(seed);
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2, "MI100", 1), 2, ClusterPresets.NETWORK_100G);
    ClusterState state = ClusterState.empty(cluster);
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      var parts = SharingCatalog.standard().partitioning(g.type());
      switch (random.nextInt(4)) {
        case 0 -> {
          if (parts.mig().isPresent()) {
            List<MigSlice> layout = randomLayout(parts.mig().get(), random);
            state = state.configureMig(g.id(), layout);
            for (MigSlice s : layout) {
              if (random.nextBoolean()) {
                long room = s.memoryBytes(parts);
                Placement p = random.nextBoolean() ? s : new MigSliceMps(s.profile(), s.start(), 2, room / 4);
                long memory = p instanceof MigSliceMps m ? 2 * m.processMemoryBytes() : room / 2;
                state = state.allocate(Allocation.of("s" + n++, List.of(Holding.of(g.id(), p, memory))));
              }
            }
          }
        }
        case 1 -> {
          double left = 1;
          while (true) {
            double f = MPS_MENU[random.nextInt(MPS_MENU.length)];
            if (f > left + 1e-9) {
              break;
            }
            left -= f;
            Placement p = parts.computeUnits() > 0 ? new CuMask((int) Math.round(f * parts.computeUnits()), GIB) : new MpsShare(f, GIB);
            state = state.allocate(Allocation.of("s" + n++, List.of(Holding.of(g.id(), p, GIB))));
          }
        }
        case 2 -> state = state.allocate(Allocation.of("s" + n++, List.of(Holding.whole(g.id(), GIB))));
        default -> {
          // left free
        }
      }
    }
    return state;
  }

  @Test
  void everyPlacementKindAndSharedLedgerRoundTrips() {
    Property.forSeeds("JSON round trip of shared GPUs is identity", 60, seed -> {
      Random random = new Random(seed);
      for (Placement p : List.of(new Whole(), new MpsShare(MPS_MENU[random.nextInt(5)], random.nextInt(1 << 30)),
          new MigSlice("3g.40gb", random.nextBoolean() ? 0 : 4), new MigSliceMps("1g.10gb", random.nextInt(7), 1 + random.nextInt(4), GIB),
          new CuMask(1 + random.nextInt(120), GIB), new TemplatePartition("vir0" + (1 << random.nextInt(4))))) {
        roundTrip(p, Placement.class);
      }
      ClusterState state = randomSharedState(seed);
      roundTrip(state, ClusterState.class);
      Model model = ModelCatalog.model("resnet50");
      ServiceRequest request = ServiceRequest.builder().id("new").model(model).slo(Slo.of(1, Duration.ofSeconds(1), 1)).build();
      Gpu g = state.cluster().gpus().stream().filter(x -> x.type().equals("A100-SXM4-80GB")).findFirst().orElseThrow();
      Plan plan = PerformanceModel.defaults().plan(request,
          List.of(new StageAssignment(0, model.size(), List.of(g.id()), new MpsShare(0.1, GIB))), state.cluster(), 0.1, "test");
      roundTrip(plan, Plan.class);
      roundTrip(ProblemDocument.builder().cluster(state.cluster()).allocations(state.allocations()).migLayouts(state.migLayouts())
          .mpsOvercommit(state.mpsOvercommit()).request(request).build(), ProblemDocument.class);
      ClusterState fresh = ClusterState.empty(state.cluster());
      roundTrip(fresh.allocate(Allocation.of(request, plan)), ClusterState.class);
    });
  }

  @Test
  void aPlansJsonShowsEachStagesPlacementKindAndStartOrShare() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    Model model = ModelCatalog.model("resnet50");
    ServiceRequest request = ServiceRequest.builder().id("r").model(model).slo(Slo.of(1, Duration.ofSeconds(1), 1)).build();
    List<String> gpus = cluster.gpus().stream().map(Gpu::id).toList();
    Plan plan = PerformanceModel.defaults().plan(request, List.of(
        new StageAssignment(0, 10, List.of(gpus.get(0)), new MigSlice("3g.40gb", 4)),
        new StageAssignment(10, model.size(), List.of(gpus.get(1)), new MpsShare(0.3, GIB))), cluster, 0, "test");
    String json = RampaJson.write(plan);
    assertThat(json).contains("\"kind\" : \"mig\"", "\"profile\" : \"3g.40gb\"", "\"start\" : 4", "\"kind\" : \"mps\"", "\"fraction\" : 0.3");
  }

  /** A problem document with one A100 whose ledger is {@code ledger} (JSON members after "cluster"). */
  private static String document(String ledger) {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    ServiceRequest request = ServiceRequest.builder().id("r").model(ModelCatalog.model("resnet50")).slo(Slo.of(1, Duration.ofSeconds(1), 1)).build();
    return "{\"cluster\":" + RampaJson.write(cluster) + "," + ledger + ",\"request\":" + RampaJson.write(request) + "}";
  }

  private static String mig(String... slices) {
    return "\"migLayouts\":{\"node000-gpu0\":[" + String.join(",", slices) + "]}";
  }

  private static String slice(String profile, int start) {
    return "{\"kind\":\"mig\",\"profile\":\"" + profile + "\",\"start\":" + start + "}";
  }

  private static String holding(String service, String placement, long memory) {
    return "\"" + service + "\":{\"serviceId\":\"" + service + "\",\"holdings\":[{\"gpu\":\"node000-gpu0\",\"placement\":" + placement
        + ",\"memoryBytes\":" + memory + "}]}";
  }

  @Test
  void badSharedLedgersAreRefusedNamingTheFieldAndTheRule() {
    assertThat(RampaJson.read(document(mig(slice("3g.40gb", 0), slice("3g.40gb", 4))), ProblemDocument.class).state().migLayout("node000-gpu0"))
        .hasSize(2);
    assertThatThrownBy(() -> RampaJson.read(document(mig(slice("1g.10gb", 7))), ProblemDocument.class))
        .hasMessageContaining("migLayouts[node000-gpu0]").hasMessageContaining("MIG_START");
    assertThatThrownBy(() -> RampaJson.read(document(mig(slice("3g.40gb", 0), slice("4g.40gb", 0))), ProblemDocument.class))
        .hasMessageContaining("migLayouts[node000-gpu0]").hasMessageContaining("MIG_OVERLAP");
    assertThatThrownBy(() -> RampaJson.read(document(mig(slice("9g.90gb", 0))), ProblemDocument.class))
        .hasMessageContaining("migLayouts[node000-gpu0]").hasMessageContaining("MIG_PROFILE");
    String share = "{\"kind\":\"mps\",\"fraction\":0.7,\"memoryBytes\":1024}";
    assertThatThrownBy(() -> RampaJson.read(document("\"allocations\":{" + holding("a", share, 1024) + "," + holding("b", share, 1024) + "}"),
        ProblemDocument.class)).hasMessageContaining("allocations.holdings[node000-gpu0]").hasMessageContaining("COMPUTE_SUM");
    assertThatThrownBy(() -> RampaJson.read(document("\"allocations\":{" + holding("a", "{\"kind\":\"mps\",\"fraction\":1.5,\"memoryBytes\":0}", 0) + "}"),
        ProblemDocument.class)).hasMessageContaining("mps.fraction = 1.5");
    String oneGig = "{\"kind\":\"mig\",\"profile\":\"1g.10gb\",\"start\":0}";
    assertThatThrownBy(() -> RampaJson.read(document(mig(slice("1g.10gb", 0)) + ",\"allocations\":{" + holding("a", oneGig, 11 * GIB) + "}"),
        ProblemDocument.class)).hasMessageContaining("allocations.holdings[node000-gpu0]").hasMessageContaining("HOLDING_MEMORY");
    assertThatThrownBy(() -> RampaJson.read(document("\"allocations\":{" + holding("a", "{\"kind\":\"mig\",\"profile\":\"1g.10gb\",\"start\":7}", 1) + "}"),
        ProblemDocument.class)).hasMessageContaining("allocations.holdings[node000-gpu0]").hasMessageContaining("PLACEMENT");
  }
}
