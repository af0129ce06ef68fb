package org.rampa.heuristics.learned;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Records the decisions of one training episode while sampling them from the policy. */
public final class Trajectory {
  private final CandidatePolicy policy;
  private final SplittableRandom random;
  private final List<Decision> decisions = new ArrayList<>();

  public Trajectory(CandidatePolicy policy, SplittableRandom random) {
    this.policy = policy;
    this.random = random;
  }

  /** Samples a legal candidate and remembers the decision. */
  public int choose(double[][] features, boolean[] legal) {
    int chosen = policy.sample(features, legal, random);
    decisions.add(new Decision(features, legal.clone(), chosen));
    return chosen;
  }

  public Rollout finish(double result) {
    return new Rollout(decisions, result);
  }
}
