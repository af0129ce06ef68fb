package org.rampa.strategy;

/**
 * Decides how to cut a model into stages and which GPUs run them. Implementations are stateless
 * or thread-confined per call, never return a plan the {@link org.rampa.verify.PlanVerifier}
 * rejects, and report infeasibility as a result, not an exception.
 */
public interface PlacementStrategy {

  /** The name users select the strategy by ("exact", "greedy", "performance-first", ...). */
  String name();

  PlacementResult place(PlacementProblem problem);
}
