package org.rampa.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;

class SharingCatalogTest {

  private final SharingCatalog sharing = SharingCatalog.standard();
  private final GpuCatalog gpus = GpuCatalog.standard();

  @Test
  void everyCatalogTypeWithMigGeometryListsItsProfilesInTheGpuCatalog() {
    for (String id : gpus.ids()) {
      GpuPartitioning p = sharing.partitioning(id);
      GpuType type = gpus.type(id);
      assertThat(p.memoryBytes()).isEqualTo(type.memoryBytes());
      p.mig().ifPresent(g -> assertThat(type.migProfiles()).as(id).containsAll(g.profiles().stream().map(MigProfile::name).toList()));
      if (type.migProfiles().isEmpty()) {
        assertThat(p.mig()).as(id + " has no MIG in the GPU catalog").isEmpty();
      }
    }
    assertThat(sharing.partitioning("A100-SXM4-80GB").mig()).isPresent();
    assertThat(sharing.partitioning("H200-SXM-141GB").mig()).isPresent();
    assertThat(sharing.partitioning("T4").mig()).isEmpty();
  }

  @Test
  void smCountsComeFromTheTableNotSevenths() {
    MigGeometry a100 = sharing.geometry("A100-80GB");
    assertThat(a100.smCount()).isEqualTo(108);
    assertThat(a100.profiles().stream().map(MigProfile::smCount).toList()).containsExactly(14, 14, 28, 42, 56, 98);
    assertThat(sharing.geometry("H100-PCIe-80GB").profile("3g.40gb").smCount()).isEqualTo(46);
    assertThat(sharing.geometry("H100-SXM5-80GB").profile("7g.80gb").smCount()).isEqualTo(132);
    assertThat(a100.profile("3g.40gb").allowedStarts()).containsExactly(0, 4);
  }

  @Test
  void h200KeepsItsUnverifiedMarks() {
    MigGeometry h200 = sharing.geometry("H200-SXM-141GB");
    assertThat(h200.profile("1g.18gb").source()).contains("UNVERIFIED");
    assertThat(h200.profile("1g.35gb").source()).contains("UNVERIFIED");
    assertThat(h200.profile("1g.35gb").confidence()).isEqualTo("low");
  }

  @Test
  void amdTypesCarryCuCountsAndNvidiaTypesRunMps() {
    assertThat(sharing.partitioning("MI100").computeUnits()).isEqualTo(120);
    assertThat(sharing.partitioning("MI210").computeUnits()).isEqualTo(104);
    assertThat(sharing.partitioning("MI250X").computeUnits()).isEqualTo(220);
    assertThat(sharing.partitioning("MI100").mps()).isFalse();
    assertThat(sharing.partitioning("L4").mps()).isTrue();
    assertThat(sharing.partitioning("L4").mpsClientLimit()).isEqualTo(48);
  }

  @Test
  void theModelledNpuHasHardTemplatesOfOneTwoFourAndEightCores() {
    GpuType npu = sharing.npuTypes().get(0);
    GpuPartitioning p = sharing.partitioning(npu.name());
    assertThat(p.npuCores()).isEqualTo(8);
    assertThat(p.templates()).extracting(t -> t.cores()).containsExactly(1, 2, 4, 8);
    assertThat(p.templates().get(3).memoryBytes()).isEqualTo(npu.memoryBytes());
    assertThat(gpus.ids()).doesNotContain(npu.name());
  }
}
