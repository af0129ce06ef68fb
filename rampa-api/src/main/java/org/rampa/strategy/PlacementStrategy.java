package org.rampa.strategy;

/**
 * Decides how to cut a model into stages and which GPUs run them. Implementations are stateless
 * or thread-confined per call, never return a plan the {@link org.rampa.verify.PlanVerifier}
 * rejects, and report infeasibility as a result, not an exception.
 *
 * @since 0.1.0
 */
public interface PlacementStrategy {

  /** The name users select the strategy by ("exact", "greedy", "performance-first", ...). */
  String name();

  /**
   * Plans {@code problem}'s request on the free resources of its state, within its options' time
   * limit. Infeasibility and running out of time are results (with a reason), not exceptions.
   *
   * @throws IllegalArgumentException when the problem's options are invalid for this strategy
   */
  PlacementResult place(PlacementProblem problem);
}
