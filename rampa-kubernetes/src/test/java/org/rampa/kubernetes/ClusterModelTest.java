package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.rampa.kubernetes.KubeFixtures.gpuNode;
import static org.rampa.kubernetes.KubeFixtures.nodeInfo;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.MigSlice;

/** GPU feature discovery labels and device-plugin resources as a RAMPA cluster. */
class ClusterModelTest {

  private static ClusterModel model(NodeInfo... nodes) {
    return ClusterModel.of(List.of(nodes), GpuProducts.standard(), ClusterPresets.NETWORK_100G);
  }

  @Test
  void knownProductsBecomeCatalogTypesWithOneGpuPerCount() {
    ClusterModel m = model(nodeInfo(gpuNode("h", "NVIDIA-H100-80GB-HBM3", 8, 81559)),
        nodeInfo(gpuNode("t", "Tesla-T4", 4, 15360)), nodeInfo(KubeFixtures.cpuNode("cpu")));

    assertThat(m.problems()).isEmpty();
    assertThat(m.cluster().orElseThrow().gpus()).hasSize(12);
    assertThat(m.cluster().orElseThrow().typeOf("h/gpu7").name()).isEqualTo("H100-SXM5-80GB");
    assertThat(m.cluster().orElseThrow().typeOf("t/gpu0").name()).isEqualTo("T4");
  }

  @Test
  void unknownProductsAndMismatchedMemoryAreReportedNotGuessed() {
    ClusterModel m = model(
        nodeInfo(gpuNode("nvl", "NVIDIA-H100-NVL", 2, 95830)),
        nodeInfo(gpuNode("shared", "Tesla-T4-SHARED", 1, 15360)),
        nodeInfo(gpuNode("wrong", "NVIDIA-A100-SXM4-80GB", 1, 40960)),
        nodeInfo(gpuNode("ok", "NVIDIA-L4", 1, 23034)));

    assertThat(m.problems().keySet()).containsExactlyInAnyOrder("nvl", "shared", "wrong");
    assertThat(m.problems().get("nvl")).contains("\"NVIDIA-H100-NVL\"").contains("--gpu-product NVIDIA-H100-NVL=<catalog type>");
    assertThat(m.problems().get("wrong")).isEqualTo("label nvidia.com/gpu.memory = 40960 MiB, but catalog type A100-SXM4-80GB "
        + "(product NVIDIA-A100-SXM4-80GB) has 81920 MiB. Maybe map the product to the right type with --gpu-product");
    assertThat(m.cluster().orElseThrow().gpus()).hasSize(1);
  }

  @Test
  void anOperatorMappingMakesAnUnknownProductUsable() {
    ClusterModel m = ClusterModel.of(List.of(nodeInfo(gpuNode("nvl", "NVIDIA-H100-NVL", 2, 81559))),
        GpuProducts.standard().with(Map.of("NVIDIA-H100-NVL", "H100-PCIe-80GB")), ClusterPresets.NETWORK_100G);

    assertThat(m.problems()).isEmpty();
    assertThat(m.cluster().orElseThrow().typeOf("nvl/gpu1").name()).isEqualTo("H100-PCIe-80GB");
    assertThatThrownBy(() -> GpuProducts.standard().with(Map.of("X", "H100-NVL")))
        .hasMessageStartingWith("gpuProduct[X] = H100-NVL: is not a type of RAMPA's GPU catalog. Maybe use one of");
  }

  @Test
  void migInstancesArePackedIntoLegalLayoutsOnTheGpusNotAdvertisedWhole() {
    // 2 GPUs: one whole, one split into 4g.40gb + 2g.20gb + 1g.10gb
    ClusterModel m = model(nodeInfo(gpuNode("m", "NVIDIA-A100-SXM4-80GB", 2, 81920, 1,
        Map.of("4g.40gb", 1, "2g.20gb", 1, "1g.10gb", 1))));

    assertThat(m.problems()).isEmpty();
    ClusterState s = m.emptyState();
    assertThat(s.migLayout("m/gpu0")).isEmpty();
    assertThat(s.migLayout("m/gpu1")).extracting(MigSlice::profile).containsExactly("4g.40gb", "2g.20gb", "1g.10gb");
    assertThat(s.capacity().count()).isEqualTo(1);
    assertThat(s.capacity().freeMigInstances().get("m/gpu1")).hasSize(3);
  }

  @Test
  void sevenSmallInstancesFillOneGpuAndAnEighthDoesNotFit() {
    ClusterModel seven = model(nodeInfo(gpuNode("m", "NVIDIA-A100-SXM4-80GB", 1, 81920, 0, Map.of("1g.10gb", 7))));
    ClusterModel eight = model(nodeInfo(gpuNode("m", "NVIDIA-A100-SXM4-80GB", 1, 81920, 0, Map.of("1g.10gb", 8))));

    assertThat(seven.emptyState().migLayout("m/gpu0")).hasSize(7);
    assertThat(eight.cluster()).isEmpty();
    assertThat(eight.problems().get("m")).isEqualTo("its MIG instances {1g.10gb=8} do not fit the 1 GPU(s) not advertised as whole "
        + "nvidia.com/gpu (A100-80GB geometry)");
  }

  @Test
  void migOnATypeWithoutMigIsReported() {
    ClusterModel m = model(nodeInfo(gpuNode("t", "Tesla-T4", 1, 15360, 0, Map.of("1g.5gb", 1))));

    assertThat(m.problems().get("t")).isEqualTo("advertises MIG instances {1g.5gb=1} but RAMPA's catalog has no MIG geometry for T4");
  }
}
