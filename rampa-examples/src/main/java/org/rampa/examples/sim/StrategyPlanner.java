package org.rampa.examples.sim;

import org.rampa.domain.ClusterState;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.ImportanceModel;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.StrategyOptions;

/** A {@link PlacementStrategy} with a fixed importance model: what every library user runs. */
public class StrategyPlanner implements Planner {

  private final PlacementStrategy strategy;
  private final ImportanceModel importance;
  private final StrategyOptions options;

  public StrategyPlanner(PlacementStrategy strategy, ImportanceModel importance, StrategyOptions options) {
    this.strategy = strategy;
    this.importance = importance;
    this.options = options;
  }

  @Override
  public PlacementResult plan(ServiceRequest request, ClusterState state) {
    return strategy.place(PlacementProblem.of(request, state, importance, options));
  }
}
