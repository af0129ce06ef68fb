package org.rampa.heuristics.strategy;

import java.util.Set;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The settings of "greedy", from {@link StrategyOptions#extra()}.
 *
 * @param maxReplicas most data-parallel replicas of one stage (default 64)
 * @param maxCandidates most GPU sets evaluated, cheapest first (default 256)
 */
record GreedyOptions(int maxReplicas, int maxCandidates) {

  static final Set<String> KEYS = Set.of("maxReplicas", "maxCandidates");

  static GreedyOptions of(StrategyOptions options) {
    ExtraOptions extra = ExtraOptions.of(options, GreedyStrategy.NAME, KEYS);
    return new GreedyOptions(extra.positiveInt("maxReplicas", 64), extra.positiveInt("maxCandidates", 256));
  }
}
