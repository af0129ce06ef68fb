package org.rampa.strategy;

import org.rampa.verify.PlanVerifier;

/**
 * The one verifying step: runs a strategy and checks the plan it returns with the
 * {@link PlanVerifier} against the problem's state and performance model, so strategies only
 * search (with the cheap SLO check of {@code org.rampa.perf} inside their loops) and a plan never
 * reaches a caller unverified. A rejected plan is a bug in the strategy and is thrown as
 * {@link org.rampa.verify.PlanRejectedException}; results without a plan pass through.
 */
final class VerifiedStrategy implements PlacementStrategy {

  private final PlacementStrategy strategy;

  VerifiedStrategy(PlacementStrategy strategy) {
    this.strategy = strategy;
  }

  @Override
  public String name() {
    return strategy.name();
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    PlacementResult result = strategy.place(problem);
    result.plan().ifPresent(plan ->
        new PlanVerifier(problem.performance()).verify(problem.request(), plan, problem.state()).orThrow(problem.request().id()));
    return result;
  }

  @Override
  public String toString() {
    return "verified " + strategy.name();
  }
}
