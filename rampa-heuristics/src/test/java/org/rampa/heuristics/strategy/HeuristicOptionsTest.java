package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;

class HeuristicOptionsTest {

  private static StrategyOptions with(Map<String, String> extra) {
    return StrategyOptions.builder().extra(extra).build();
  }

  @Test
  void defaultsAreEachFamilysOwn() {
    assertThat(GreedyOptions.of(StrategyOptions.defaults())).isEqualTo(new GreedyOptions(64, 256, SharingOptions.off()));
    assertThat(LabelSettingOptions.of(StrategyOptions.defaults())).isEqualTo(new LabelSettingOptions(200_000, 64, 64, true, SharingOptions.off()));
    assertThat(BaselineOptions.of(StrategyOptions.defaults(), "first-fit")).isEqualTo(new BaselineOptions(32));
  }

  @Test
  void givenValuesAreParsedOnce() {
    assertThat(GreedyOptions.of(with(Map.of("maxReplicas", " 8", "maxCandidates", "3")))).isEqualTo(new GreedyOptions(8, 3, SharingOptions.off()));
    assertThat(GreedyOptions.of(with(Map.of("sharing", "on", "sharingTopK", "2"))).sharing())
        .isEqualTo(new SharingOptions(true, SharingOptions.DEFAULT_MPS_LEVELS, 2));
    assertThat(LabelSettingOptions.of(with(Map.of("incumbent", "none", "maxLabels", "1"))))
        .isEqualTo(new LabelSettingOptions(1, 64, 64, false, SharingOptions.off()));
    assertThat(LabelSettingOptions.of(with(Map.of("sharing", "on"))).sharing()).isEqualTo(SharingOptions.on());
  }

  @Test
  void anUnknownOptionIsAnErrorNamingItAndTheKnownOnes() {
    assertThatThrownBy(() -> GreedyOptions.of(with(Map.of("maxLabels", "5"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("options.extra.maxLabels = 5")
        .hasMessageContaining("not an option of greedy (known: [maxCandidates, maxReplicas, sharing, sharingMargin, sharingMpsLevels, sharingTopK])");
    // baselines keep whole GPUs: sharing is not among their options
    assertThatThrownBy(() -> BaselineOptions.of(with(Map.of("sharing", "on")), "first-fit"))
        .hasMessageContaining("not an option of first-fit (known: [maxReplicas])");
    assertThatThrownBy(() -> BaselineOptions.of(with(Map.of("maxCandidates", "5")), "even-split"))
        .hasMessageContaining("not an option of even-split (known: [maxReplicas])");
  }

  @Test
  void badValuesNameTheRule() {
    assertThatThrownBy(() -> GreedyOptions.of(with(Map.of("maxReplicas", "0"))))
        .hasMessageContaining("options.extra.maxReplicas = 0: must be an integer >= 1 (greedy)").hasMessageContaining("Maybe");
    assertThatThrownBy(() -> LabelSettingOptions.of(with(Map.of("maxLabels", "many"))))
        .hasMessageContaining("options.extra.maxLabels = many: must be an integer >= 1 (dp)");
    assertThatThrownBy(() -> LabelSettingOptions.of(with(Map.of("incumbent", "exact"))))
        .hasMessageContaining("options.extra.incumbent = exact: must be one of [greedy, none] (dp)");
  }
}
