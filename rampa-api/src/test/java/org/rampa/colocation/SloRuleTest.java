package org.rampa.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ImmutableLayer;
import org.rampa.domain.Model;

/** The two readings of an SLO rule: RAMPA's (batch time, tolerance) and ParvaGPU's literal one (whole ms, strictly below, SLO truncated). */
class SloRuleTest {

  private static ColocationService service(Duration slo) {
    Model m = Model.of("m", List.of(ImmutableLayer.builder().name("m").flopsPerSample(0).weightBytes(0).outputBytesPerSample(0).build()));
    return new ColocationService("m", m, List.of(1), List.of(1), 1, slo, 0, 1);
  }

  @Test
  void literalReadingIsParvaGpusIntegerComparisonOnSeededSlosAndLatencies() {
    Random r = new Random(24);
    SloRule literal = SloRule.parvaGpuLiteral();
    for (int i = 0; i < 20_000; i++) {
      // ParvaGPU's SLOs are whole or half milliseconds (418.5); latencies whole ms, as its tables' column
      long sloHalfMillis = 1 + r.nextInt(20_000);
      ColocationService s = service(Duration.ofNanos(sloHalfMillis * 500_000));
      long floorSlo = sloHalfMillis / 2;
      long latencyMillis = r.nextInt(5_000);
      // ParvaGPU: latency < SLO / 2 × 0.9 with the SLO truncated to whole ms; in integers 20 L < 9 ⌊SLO⌋
      boolean parvaGpu = 20 * latencyMillis < 9 * floorSlo;
      assertThat(literal.admits(latencyMillis * 1e-3, s)).as("L %d ms, SLO %.1f ms", latencyMillis, sloHalfMillis / 2.0).isEqualTo(parvaGpu);
      // a batch time is read at the column's resolution: anything that rounds to L is judged as L
      assertThat(literal.admits((latencyMillis + 0.49) * 1e-3, s)).isEqualTo(parvaGpu);
    }
  }

  @Test
  void readingsDifferWhereTheBudgetIsWholeOrTheSloHasAHalfMillisecond() {
    // SLO 100 ms: 0.45 × 100 = 45 exactly; ParvaGPU refuses 45 ms (strictly below), RAMPA admits it (at most)
    ColocationService hundred = service(Duration.ofMillis(100));
    assertThat(SloRule.parvaGpu().admits(0.045, hundred)).isTrue();
    assertThat(SloRule.parvaGpuLiteral().admits(0.045, hundred)).isFalse();
    assertThat(SloRule.parvaGpuLiteral().admits(0.0444, hundred)).isTrue();
    assertThat(SloRule.parvaGpuLiteral().budgetSeconds(hundred)).isCloseTo(0.044, within(1e-15));
    // SLO 418.5 ms: RAMPA's budget 188.325 ms, ParvaGPU's ⌊418.5⌋ = 418, 0.45 × 418 = 188.1, so at most 188 whole ms
    ColocationService half = service(Duration.ofNanos(418_500_000));
    assertThat(SloRule.parvaGpu().budgetSeconds(half)).isCloseTo(0.188325, within(1e-15));
    assertThat(SloRule.parvaGpuLiteral().budgetSeconds(half)).isCloseTo(0.188, within(1e-15));
    assertThat(SloRule.parvaGpu().admits(0.1883, half)).isTrue();
    assertThat(SloRule.parvaGpuLiteral().admits(0.1883, half)).isTrue();
    assertThat(SloRule.parvaGpuLiteral().admits(0.1886, half)).isFalse();
    assertThat(SloRule.parvaGpuLiteral().describe(half)).isEqualTo("whole ms < 0.45 × 418 ms (parvagpu-literal)");
    assertThat(SloRule.parvaGpu().describe(half)).isEqualTo("0.45 × 418.5 ms");
    // an SLO under 1 ms leaves ParvaGPU's bound at 0: nothing is strictly below it
    assertThat(SloRule.parvaGpuLiteral().admits(0, service(Duration.ofNanos(900_000)))).isFalse();
  }

  @Test
  void aRuleWithoutAReadingIsRefused() {
    assertThatThrownBy(() -> new SloRule(0.45, null)).hasMessageContaining("sloRule.reading");
    assertThat(new SloRule(0.45).reading()).isEqualTo(SloRule.Reading.RAMPA);
  }
}
