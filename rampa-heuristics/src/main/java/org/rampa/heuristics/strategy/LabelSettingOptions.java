package org.rampa.heuristics.strategy;

import java.util.List;
import java.util.Set;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The settings of "dp", from {@link StrategyOptions#extra()}.
 *
 * @param maxLabels labels created before the search stops, truncated (default 200000)
 * @param maxSpreadOptions ways to spread one stage's replicas over several nodes tried per stage (default 64)
 * @param maxReplicas most data-parallel replicas of one stage (default 64, as greedy)
 * @param warmStart whether the search starts from its warm start's plan as the incumbent
 *     ({@code incumbent} = {@code greedy}, the default, or {@code none})
 * @param sharing whether stages may take shares of GPUs ({@link SharingOptions}, default off)
 */
record LabelSettingOptions(int maxLabels, int maxSpreadOptions, int maxReplicas, boolean warmStart, SharingOptions sharing) {

  static final Set<String> KEYS = keys();

  private static Set<String> keys() {
    Set<String> keys = new java.util.HashSet<>(Set.of("maxLabels", "maxSpreadOptions", "maxReplicas", "incumbent"));
    keys.addAll(SharingOptions.KEYS);
    return Set.copyOf(keys);
  }

  static LabelSettingOptions of(StrategyOptions options) {
    ExtraOptions extra = ExtraOptions.of(options, LabelSettingStrategy.NAME, KEYS);
    return new LabelSettingOptions(extra.positiveInt("maxLabels", 200_000), extra.positiveInt("maxSpreadOptions", 64),
        extra.positiveInt("maxReplicas", 64), extra.choice("incumbent", "greedy", List.of("greedy", "none")).equals("greedy"),
        SharingOptions.of(extra));
  }
}
