package org.rampa.heuristics.strategy;

import java.util.HashSet;
import java.util.Set;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The settings of "greedy", from {@link StrategyOptions#extra()}.
 *
 * @param maxReplicas most data-parallel replicas of one stage (default 64)
 * @param maxCandidates most GPU sets evaluated, cheapest first (default 256); with sharing, as many
 *     again for sets holding a share
 * @param sharing whether and how stages may take shared GPUs ({@link SharingOptions}, default off)
 */
record GreedyOptions(int maxReplicas, int maxCandidates, SharingOptions sharing) {

  static final Set<String> KEYS = keys();

  static GreedyOptions of(StrategyOptions options) {
    ExtraOptions extra = ExtraOptions.of(options, GreedyStrategy.NAME, KEYS);
    return new GreedyOptions(extra.positiveInt("maxReplicas", 64), extra.positiveInt("maxCandidates", 256), SharingOptions.of(extra));
  }

  private static Set<String> keys() {
    Set<String> keys = new HashSet<>(Set.of("maxReplicas", "maxCandidates"));
    keys.addAll(SharingOptions.KEYS);
    return Set.copyOf(keys);
  }
}
