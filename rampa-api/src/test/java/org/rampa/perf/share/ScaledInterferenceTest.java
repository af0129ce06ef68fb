package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.domain.GpuType;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.json.RampaJson;

class ScaledInterferenceTest {

  private final GpuType a100 = GpuCatalog.standard().type("A100-SXM4-80GB");

  private static CoRunner mps(String service) {
    return new CoRunner(service, new MpsShare(0.3, 0), 0.3, 0.5, 0.5, 1e11);
  }

  @Test
  void scalesTheExcessOverOnePerServiceAndInCommon() {
    ScaledInterference doubled = new ScaledInterference(new LinearInterference(0.05), Map.of("a", 1.1), 2);
    List<CoRunner> two = List.of(mps("b"), mps("c"));
    // base α = 1 + 0.05 × 2 = 1.1; a: 1 + 2 × 1.1 × 0.1; b is not listed, so its factor is 1
    assertThat(doubled.slowdown(a100, mps("a"), two)).isCloseTo(1.22, within(1e-12));
    assertThat(doubled.slowdown(a100, mps("b"), List.of(mps("a"), mps("c")))).isCloseTo(1.2, within(1e-12));
    CoRunner isolated = new CoRunner("a", new MigSlice("3g.40gb", 0), 42.0 / 108, 0.5, 0.5, 1e11);
    assertThat(doubled.slowdown(a100, isolated, two)).isEqualTo(1);
    assertThat(new ScaledInterference(new LinearInterference(0.05), Map.of(), 1).slowdown(a100, mps("a"), two))
        .isEqualTo(new LinearInterference(0.05).slowdown(a100, mps("a"), two));
  }

  @Test
  void jsonRoundTripsAndBadFactorsNameTheField() {
    ScaledInterference m = new ScaledInterference(new LinearInterference(0.05), Map.of("a", 0.9), 2);
    String json = RampaJson.write(m);
    assertThat(json).contains("\"model\" : \"scaled\"");
    assertThat(RampaJson.read(json, InterferenceModel.class)).isEqualTo(m);
    assertThatThrownBy(() -> new ScaledInterference(new NoInterference(), Map.of("a", -1.0), 1))
        .hasMessageContaining("scaledInterference.factors[a] = -1.0");
    assertThatThrownBy(() -> new ScaledInterference(new NoInterference(), Map.of(), Double.NaN)).hasMessageContaining("scaledInterference.scale");
  }
}
