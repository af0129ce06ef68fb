package org.rampa.heuristics.strategy;

import java.util.Set;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The settings of the baselines, from {@link StrategyOptions#extra()}.
 *
 * @param maxReplicas most data-parallel replicas of one stage. The default is 32, not greedy's and
 *     dp's 64: the baselines enumerate GPU counts up to {@code maxStages × maxReplicas} in their own
 *     order, and the experiments that compare against them were run with 32; it is kept so their
 *     results do not move.
 */
record BaselineOptions(int maxReplicas) {

  static final Set<String> KEYS = Set.of("maxReplicas");

  static BaselineOptions of(StrategyOptions options, String strategy) {
    return new BaselineOptions(ExtraOptions.of(options, strategy, KEYS).positiveInt("maxReplicas", 32));
  }
}
