package org.rampa.colocation;

import java.time.Duration;

/**
 * A co-location planner: the exact pattern MILP, the ParvaGPU-style heuristic or a baseline. A
 * planner only searches; {@link VerifiedColocationPlanner} checks every plan it returns.
 */
public interface ColocationPlanner {

  String name();

  /** Plans {@code problem} within about {@code timeLimit}; wrapped in {@link VerifiedColocationPlanner}, every plan returned passes {@link ColocationVerifier}. */
  ColocationResult plan(ColocationProblem problem, Duration timeLimit);
}
