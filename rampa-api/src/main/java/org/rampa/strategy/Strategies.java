package org.rampa.strategy;

import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.rampa.domain.Invalid;

/** Finds strategies by name among the {@link StrategyProvider}s on the classpath. */
public final class Strategies {
  private Strategies() {}

  public static PlacementStrategy named(String name) {
    java.util.Objects.requireNonNull(name, "strategy");
    for (StrategyProvider p : ServiceLoader.load(StrategyProvider.class)) {
      if (p.names().contains(name)) {
        return p.create(name);
      }
    }
    throw Invalid.value("strategy", name, "no strategy of that name is on the classpath (available: " + available() + ")",
        "add rampa-solver (exact) or rampa-heuristics (greedy, dp, baselines) as a dependency");
  }

  public static Set<String> available() {
    Set<String> names = new TreeSet<>();
    ServiceLoader.load(StrategyProvider.class).forEach(p -> names.addAll(p.names()));
    return names;
  }
}
