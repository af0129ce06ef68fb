package org.rampa.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.rampa.domain.Cluster;

class GpuCatalogTest {

  private final GpuCatalog catalog = GpuCatalog.standard();

  @Test
  void hasAtLeastFifteenTypesWithDensePeaks() {
    assertThat(catalog.ids()).hasSizeGreaterThanOrEqualTo(15);
    // dense, not the 2:4-sparse headline: H100 SXM 989 TFLOP/s, A100 312
    assertThat(catalog.type("H100-SXM5-80GB").peakFlopsPerSecond()).isEqualTo(989e12);
    assertThat(catalog.type("A100-SXM4-80GB").peakFlopsPerSecond()).isEqualTo(312e12);
    assertThat(catalog.type("A100-SXM4-80GB").memoryBytes()).isEqualTo(80L << 30);
  }

  @Test
  void keepsSourcesAndUnverifiedMarks() {
    assertThat(catalog.entry("T4").sources()).contains("datasheet");
    assertThat(catalog.entry("A10G").confidenceNotes()).contains("UNVERIFIED");
    assertThat(catalog.entry("A100-SXM4-80GB").type().migProfiles()).contains("1g.10gb", "3g.40gb", "7g.80gb");
    assertThat(catalog.entry("H100-SXM5-80GB").intraNodeLink().bandwidthBytesPerSecond()).isEqualTo(450e9);
    assertThat(catalog.entry("T4").intraNodeLink().bandwidthBytesPerSecond()).isEqualTo(16e9);
  }

  @Test
  void presetsHaveTheAdvertisedShape() {
    Cluster small = ClusterPresets.small();
    assertThat(small.gpus()).hasSize(48);
    assertThat(small.nodes()).hasSize(12);
    assertThat(small.gpuTypes()).hasSize(4);
    Cluster large = ClusterPresets.large();
    assertThat(large.gpus()).hasSize(1000);
    assertThat(large.nodes()).hasSize(250);
  }
}
