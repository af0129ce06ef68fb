package org.rampa.heuristics.strategy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.rampa.domain.Invalid;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.StrategyProvider;

/**
 * The strategies of rampa-heuristics, found by {@link org.rampa.strategy.Strategies#named}: "greedy",
 * "dp", and the baselines "performance-first", "fewest-gpus", "even-split", "compute-balanced",
 * "first-fit".
 */
public final class HeuristicStrategyProvider implements StrategyProvider {

  private static final Map<String, Supplier<PlacementStrategy>> STRATEGIES = strategies();

  private static Map<String, Supplier<PlacementStrategy>> strategies() {
    Map<String, Supplier<PlacementStrategy>> m = new LinkedHashMap<>();
    m.put(GreedyStrategy.NAME, GreedyStrategy::new);
    m.put(LabelSettingStrategy.NAME, LabelSettingStrategy::new);
    for (Baseline b : Baseline.values()) {
      m.put(b.strategyName, () -> new BaselineStrategy(b));
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  @Override
  public Set<String> names() {
    return STRATEGIES.keySet();
  }

  @Override
  public PlacementStrategy create(String name) {
    Supplier<PlacementStrategy> s = STRATEGIES.get(name);
    if (s == null) {
      throw Invalid.value("strategy", name, "rampa-heuristics has no strategy of that name", "use one of " + STRATEGIES.keySet());
    }
    return s.get();
  }
}
