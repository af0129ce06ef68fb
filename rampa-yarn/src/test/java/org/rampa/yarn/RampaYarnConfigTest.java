package org.rampa.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RampaYarnConfigTest {

  @Test
  void missingKeysTakeTheirDefaults() {
    RampaYarnConfig c = RampaYarnConfig.from(Map.<String, String>of()::get);
    assertThat(c.strategy()).isEqualTo("greedy");
    assertThat(c.importance()).isEqualTo("capability");
    assertThat(c.timeLimit()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.networkGbps()).isEqualTo(100);
    assertThat(c.pendingTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.gpuTypes().entries()).isEmpty();
  }

  @Test
  void everyKeyIsRead() {
    RampaYarnConfig c = RampaYarnConfig.from(Map.of(
        RampaYarnConfig.STRATEGY, "dp",
        RampaYarnConfig.IMPORTANCE, "uniform",
        RampaYarnConfig.TIME_LIMIT, "PT0.5S",
        RampaYarnConfig.NETWORK_GBPS, "25",
        RampaYarnConfig.PENDING_TIMEOUT, "PT30S",
        RampaYarnConfig.GPU_TYPES, "gpu1:8041=A100-SXM4-80GB, gpu1=T4, *=A10")::get);
    assertThat(c.strategy()).isEqualTo("dp");
    assertThat(c.importance()).isEqualTo("uniform");
    assertThat(c.timeLimit()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.networkGbps()).isEqualTo(25);
    assertThat(c.pendingTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void theMostSpecificGpuTypeEntryWins() {
    var map = RampaYarnConfig.GpuTypeMap.parse("k", "gpu1:8041=A100-SXM4-80GB,GPU1=T4,*=A10");
    assertThat(map.typeOf("gpu1", 8041)).contains("A100-SXM4-80GB");
    assertThat(map.typeOf("Gpu1", 9999)).contains("T4");
    assertThat(map.typeOf("other", 8041)).contains("A10");
    assertThat(RampaYarnConfig.GpuTypeMap.parse("k", "gpu1=T4").typeOf("other", 1)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "rampa.yarn.strategy|gredy|rampa.yarn.strategy = gredy: must name an available RAMPA strategy. Maybe one of",
      "rampa.yarn.importance|price|rampa.yarn.importance = price: must name an importance model. Maybe one of [capability, fragmentation, uniform]",
      "rampa.yarn.time-limit|2s|rampa.yarn.time-limit = 2s: must be an ISO-8601 duration in (0, PT24H]",
      "rampa.yarn.time-limit|PT0S|rampa.yarn.time-limit = PT0S: must be an ISO-8601 duration in (0, PT24H]",
      "rampa.yarn.time-limit|PT25H|rampa.yarn.time-limit = PT25H: must be an ISO-8601 duration in (0, PT24H]",
      "rampa.yarn.pending-timeout|-PT1S|rampa.yarn.pending-timeout = PT-1S: must be an ISO-8601 duration in (0, PT24H]",
      "rampa.yarn.network-gbps|fast|rampa.yarn.network-gbps = fast: must be a number",
      "rampa.yarn.network-gbps|0|rampa.yarn.network-gbps = 0.0: must be a bandwidth in Gbit/s in (0, 1e6]",
      "rampa.yarn.gpu-types|gpu1=T5|rampa.yarn.gpu-types = gpu1=T5: GPU type \"T5\" is not in the GPU catalog. Maybe one of",
      "rampa.yarn.gpu-types|gpu1:T4|rampa.yarn.gpu-types = gpu1:T4: entry \"gpu1:T4\" must read NODE=TYPE",
      "rampa.yarn.gpu-types|gpu1=T4,GPU1=A10|rampa.yarn.gpu-types = gpu1=T4,GPU1=A10: node \"gpu1\" is mapped twice",
  })
  void aBadValueIsRefusedNamingTheKeyTheValueAndTheRule(String key, String value, String message) {
    assertThatThrownBy(() -> RampaYarnConfig.from(Map.of(key, value)::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void aBadValueStopsTheResourceManagerAtStartWithThatMessage() {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_HANDLER, YarnConfiguration.PROCESSOR_RM_PLACEMENT_CONSTRAINTS_HANDLER);
    conf.set(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_ALGORITHM_CLASS, RampaPlacementAlgorithm.class.getName());
    // the same resource types as the test clusters: ResourceUtils caches them per JVM
    conf.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    ResourceUtils.resetResourceTypes(conf);
    conf.set("yarn.scheduler.capacity.resource-calculator", DominantResourceCalculator.class.getName());
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.set(RampaYarnConfig.STRATEGY, "gredy");
    ResourceManager rm = new ResourceManager();
    try {
      // the ResourceManager passes the adapter's exception on as it is
      assertThatThrownBy(() -> rm.init(conf))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("rampa.yarn.strategy = gredy: must name an available RAMPA strategy");
    } finally {
      rm.stop();
    }
  }
}
