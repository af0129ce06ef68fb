package org.rampa.colocation;

import java.time.Duration;
import org.rampa.domain.Invalid;

/**
 * The one verifying step of co-location, as {@code VerifiedStrategy} is for placement strategies:
 * runs a planner and checks the plan it returns with {@link ColocationVerifier} against the problem
 * it was given, so planners only search and a plan never reaches a caller unverified. A refused plan
 * is a bug in the planner and is thrown as {@link org.rampa.verify.PlanRejectedException}; results
 * without a plan pass through.
 */
public final class VerifiedColocationPlanner implements ColocationPlanner {

  private final ColocationPlanner planner;

  private VerifiedColocationPlanner(ColocationPlanner planner) {
    this.planner = planner;
  }

  /** {@code planner} with every plan it returns verified (itself when it is verified already). */
  public static ColocationPlanner of(ColocationPlanner planner) {
    Invalid.requireNonNull("planner", planner);
    return planner instanceof VerifiedColocationPlanner ? planner : new VerifiedColocationPlanner(planner);
  }

  @Override
  public String name() {
    return planner.name();
  }

  @Override
  public ColocationResult plan(ColocationProblem problem, Duration timeLimit) {
    ColocationResult result = planner.plan(problem, timeLimit);
    // memoized: a plan repeats the same GPU configurations, each timed once
    result.plan().ifPresent(plan -> ColocationVerifier.requireValid(problem.memoized(), plan, "planner " + planner.name()));
    return result;
  }

  @Override
  public String toString() {
    return "verified " + planner.name();
  }
}
