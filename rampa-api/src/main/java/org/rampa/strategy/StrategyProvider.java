package org.rampa.strategy;

import java.util.Set;

/**
 * Service-provider interface: a module that ships strategies lists one implementation in
 * {@code META-INF/services/org.rampa.strategy.StrategyProvider}, and {@link Strategies} finds it.
 *
 * @since 0.1.0
 */
public interface StrategyProvider {

  /** The strategy names this provider can create. */
  Set<String> names();

  /** A strategy for one of {@link #names()}. */
  PlacementStrategy create(String name);
}
