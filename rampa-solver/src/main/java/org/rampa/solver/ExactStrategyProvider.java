package org.rampa.solver;

import java.util.Set;
import org.rampa.domain.Invalid;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.StrategyProvider;

/** Makes "exact" (SCIP) and "exact-cpsat" (CP-SAT) available to {@code Strategies.named}. */
public final class ExactStrategyProvider implements StrategyProvider {

  @Override
  public Set<String> names() {
    return Set.of(ExactStrategy.NAME, ExactStrategy.CPSAT_NAME);
  }

  @Override
  public PlacementStrategy create(String name) {
    return switch (name) {
      case ExactStrategy.NAME -> ExactStrategy.scip();
      case ExactStrategy.CPSAT_NAME -> ExactStrategy.cpSat();
      default -> throw Invalid.value("strategy", name, "not provided by rampa-solver", "use one of " + names());
    };
  }
}
