package org.rampa.strategy;

import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.rampa.domain.Invalid;

/**
 * Finds strategies by name among the {@link StrategyProvider}s on the classpath, each wrapped in the
 * one verifying step ({@link #verified}).
 *
 * @since 0.1.0
 */
public final class Strategies {
  private Strategies() {}

  /**
   * The strategy called {@code name}, verified: every plan it returns has passed the
   * {@link org.rampa.verify.PlanVerifier}.
   *
   * @throws IllegalArgumentException naming the available strategies when none is called {@code name}
   */
  public static PlacementStrategy named(String name) {
    java.util.Objects.requireNonNull(name, "strategy");
    for (StrategyProvider p : ServiceLoader.load(StrategyProvider.class)) {
      if (p.names().contains(name)) {
        return verified(p.create(name));
      }
    }
    throw Invalid.value("strategy", name, "no strategy of that name is on the classpath (available: " + available() + ")",
        "add rampa-solver (exact) or rampa-heuristics (greedy, dp, baselines) as a dependency");
  }

  /**
   * {@code strategy} with every plan it returns checked by the {@link org.rampa.verify.PlanVerifier}
   * against the problem it was asked; a rejected plan is thrown as
   * {@link org.rampa.verify.PlanRejectedException}. A strategy verified already is returned as is.
   */
  public static PlacementStrategy verified(PlacementStrategy strategy) {
    Objects.requireNonNull(strategy, "strategy");
    return strategy instanceof VerifiedStrategy ? strategy : new VerifiedStrategy(strategy);
  }

  /** The names of every strategy on the classpath, sorted. */
  public static Set<String> available() {
    Set<String> names = new TreeSet<>();
    ServiceLoader.load(StrategyProvider.class).forEach(p -> names.addAll(p.names()));
    return names;
  }
}
