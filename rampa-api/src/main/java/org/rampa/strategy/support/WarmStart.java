package org.rampa.strategy.support;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.rampa.domain.Plan;
import org.rampa.strategy.ImmutableStrategyOptions;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;

/**
 * The one way a search starts from another strategy's plan (an incumbent bound for a label-setting
 * search, a MIP start for a solver): the other strategy plans the same request on the same state
 * with the same importance and performance model, within the time the caller has left. It gets the
 * caller's general options but none of the caller's strategy-specific ones (those name the caller's
 * settings, not its own), so it runs at its own defaults.
 */
public final class WarmStart {

  /** The least time limit a warm start is given, even when the caller's time is all spent. */
  private static final Duration LEAST = Duration.ofMillis(1);

  private final PlacementStrategy strategy;

  private WarmStart(PlacementStrategy strategy) {
    this.strategy = strategy;
  }

  /** Warm starts from {@code strategy}'s plans. */
  public static WarmStart from(PlacementStrategy strategy) {
    return new WarmStart(Objects.requireNonNull(strategy, "strategy"));
  }

  /** The warm-start strategy's name. */
  public String name() {
    return strategy.name();
  }

  /** The warm-start strategy's plan for {@code problem} within {@code remaining}, when it finds one. */
  public Optional<Plan> plan(PlacementProblem problem, Duration remaining) {
    return strategy.place(withOptions(problem, ownOptions(problem, remaining))).plan();
  }

  /**
   * As {@link #plan(PlacementProblem, Duration)}, keeping the caller's {@code sharing} choice: the
   * warm start then searches the same shared slots as the caller (its strategy must accept the
   * sharing options).
   */
  public Optional<Plan> plan(PlacementProblem problem, Duration remaining, SharingOptions sharing) {
    return strategy.place(withOptions(problem, sharing.applyTo(ownOptions(problem, remaining)))).plan();
  }

  private static StrategyOptions ownOptions(PlacementProblem problem, Duration remaining) {
    Duration limit = remaining.compareTo(LEAST) < 0 ? LEAST : remaining;
    return ImmutableStrategyOptions.copyOf(problem.options()).withTimeLimit(limit).withExtra(Map.of());
  }

  private static PlacementProblem withOptions(PlacementProblem problem, StrategyOptions options) {
    return new PlacementProblem(problem.request(), problem.state(), problem.importance(), problem.performance(), options,
        problem.ticker());
  }
}
