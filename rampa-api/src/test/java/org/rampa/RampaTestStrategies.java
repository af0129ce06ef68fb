package org.rampa;

import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;

/** Strategies for tests of the entry point's own checks. */
final class RampaTestStrategies {
  private RampaTestStrategies() {}

  /** Fails the test if reached: the planner must refuse the input before asking any strategy. */
  static final class Unreachable implements PlacementStrategy {
    @Override
    public String name() {
      return "unreachable";
    }

    @Override
    public PlacementResult place(PlacementProblem problem) {
      throw new AssertionError("the strategy was asked to place a request the planner should have refused");
    }
  }
}
