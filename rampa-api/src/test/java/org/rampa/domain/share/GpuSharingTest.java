package org.rampa.domain.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Holding;
import org.rampa.domain.Link;
import org.rampa.domain.Node;
import org.rampa.json.JsonInputException;
import org.rampa.json.RampaJson;

/**
 * A GPU type says how it can be shared ({@link GpuType#sharing()}), in code and in JSON; nothing is
 * looked up by name, so a custom type is shared exactly as declared and a catalog name gives no
 * capability the type does not carry.
 */
class GpuSharingTest {

  private static final long GIB = 1L << 30;

  /** A made-up card with the A100-80GB's MIG geometry and MPS: not in the catalog. */
  private static GpuType custom(GpuSharing sharing) {
    return GpuType.builder().name("X-80GB").peakFlopsPerSecond(300e12).memoryBytes(80 * GIB)
        .memoryBandwidthBytesPerSecond(2e12).sharing(sharing).build();
  }

  private static final MigGeometry A100 = SharingCatalog.standard().geometry("A100-80GB");

  private static ClusterState oneGpu(GpuType type) {
    Link nv = Link.of("nv", 1e11, Duration.ofNanos(1_000));
    return ClusterState.empty(Cluster.builder().addGpuTypes(type).network(Link.of("net", 1e10, Duration.ofNanos(10_000)))
        .addNodes(Node.of("n0", nv)).addGpus(Gpu.of("g0", type.name(), "n0")).build());
  }

  @Test
  void aCustomTypeDeclaredInCodeIsSharedAsItSays() {
    GpuType x = custom(GpuSharing.builder().mig(A100).mps(true).build());
    ClusterState state = oneGpu(x);
    assertThat(state.partitioning("g0").mig()).contains(A100);
    assertThat(state.partitioning("g0").mpsClientLimit()).isEqualTo(GpuPartitioning.MPS_CLIENTS_PER_GPU);
    Allocation slice = Allocation.of("s", List.of(Holding.of("g0", new MigSlice("3g.40gb", 4), GIB)));
    assertThat(state.configureMig("g0", List.of(new MigSlice("4g.40gb", 0), new MigSlice("3g.40gb", 4))).conflicts(slice)).isEmpty();
    Allocation share = Allocation.of("t", List.of(Holding.of("g0", new MpsShare(0.5, GIB), GIB)));
    assertThat(state.conflicts(share)).isEmpty();
  }

  @Test
  void aTypeThatDeclaresNothingIsWholeOnlyEvenUnderACatalogName() {
    GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");
    GpuType plain = GpuType.builder().from(a100).sharing(GpuSharing.none()).build();
    assertThat(plain.partitioning()).isEqualTo(GpuPartitioning.wholeOnly("A100-SXM4-80GB", a100.memoryBytes()));
    assertThatThrownBy(() -> oneGpu(plain).configureMig("g0", List.of(new MigSlice("3g.40gb", 0))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no MIG geometry");
  }

  @Test
  void catalogTypesCarryTheCatalogsSharing() {
    for (String id : GpuCatalog.standard().ids()) {
      assertThat(GpuCatalog.standard().type(id).partitioning()).as(id).isEqualTo(SharingCatalog.standard().partitioning(id));
    }
    assertThat(GpuCatalog.standard().type("A100-SXM4-80GB").partitioning().mig()).contains(A100);
    assertThat(GpuCatalog.standard().type("MI100").partitioning().computeUnits()).isPositive();
    for (GpuType npu : SharingCatalog.standard().npuTypes()) {
      assertThat(npu.partitioning().templates()).as(npu.name()).isNotEmpty();
    }
  }

  @Test
  void jsonRoundTripKeepsEveryCapability() {
    GpuType npu = SharingCatalog.standard().npuTypes().get(0);
    for (GpuType t : List.of(custom(GpuSharing.builder().mig(A100).mps(true).mpsClientLimit(16).build()),
        custom(GpuSharing.builder().mps(true).computeUnits(120).build()), npu, custom(GpuSharing.none()),
        GpuCatalog.standard().type("H100-SXM5-80GB"))) {
      GpuType back = RampaJson.read(RampaJson.write(t), GpuType.class);
      assertThat(back).as(t.name()).isEqualTo(t);
      assertThat(back.partitioning()).as(t.name()).isEqualTo(t.partitioning());
    }
  }

  @Test
  void jsonDeclaresCapabilitiesAndDefaultsTheMpsLimits() {
    String json = """
        {"name": "Y-48GB", "peakFlopsPerSecond": 1.5e14, "memoryBytes": 51539607552,
         "memoryBandwidthBytesPerSecond": 9.6e11, "migProfiles": [],
         "sharing": {"mps": true, "computeUnits": 96,
                     "npuCores": 4, "templates": [{"name": "half", "cores": 2, "memoryBytes": 25769803776}]}}
        """;
    GpuPartitioning p = RampaJson.read(json, GpuType.class).partitioning();
    assertThat(p.mps()).isTrue();
    assertThat(p.mpsClientLimit()).isEqualTo(GpuPartitioning.MPS_CLIENTS_PER_GPU);
    assertThat(p.mpsProcessOverheadBytes()).isEqualTo(GpuPartitioning.DEFAULT_MPS_PROCESS_OVERHEAD_BYTES);
    assertThat(p.computeUnits()).isEqualTo(96);
    assertThat(p.template("half").cores()).isEqualTo(2);
    String without = json.substring(0, json.indexOf(",\n \"sharing\"")) + "}";
    assertThat(RampaJson.read(without, GpuType.class).partitioning()).isEqualTo(GpuPartitioning.wholeOnly("Y-48GB", 51539607552L));
  }

  @Test
  void badSharingNamesFieldValueAndRule() {
    String json = """
        {"name": "Z", "peakFlopsPerSecond": 1e14, "memoryBytes": 1073741824,
         "memoryBandwidthBytesPerSecond": 1e12, "migProfiles": [], "sharing": {"mpsClientLimit": 4}}
        """;
    assertThatThrownBy(() -> RampaJson.read(json, GpuType.class)).isInstanceOf(JsonInputException.class)
        .hasMessageContaining("sharing.mpsClientLimit = 4: must be 0 when mps is false. Maybe set \"mps\": true");
    assertThatThrownBy(() -> GpuSharing.builder().templates(List.of(new PartitionTemplate("t", 1, GIB))).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sharing.npuCores = 0: must be >= 1 when templates are declared");
    // the A100's 7g.80gb profile does not fit a 40 GiB card
    assertThatThrownBy(() -> GpuType.builder().name("small").peakFlopsPerSecond(1e14).memoryBytes(40 * GIB)
        .memoryBandwidthBytesPerSecond(1e12).sharing(GpuSharing.builder().mig(A100).build()).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partitioning[small].mig.profiles[7g.80gb].memoryBytes")
        .hasMessageContaining("exceeds the card's");
  }
}
