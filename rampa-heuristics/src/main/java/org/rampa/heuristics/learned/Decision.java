package org.rampa.heuristics.learned;

/**
 * One step of a rollout as the policy saw it: every candidate's features, which were legal and
 * which was chosen. REINFORCE recomputes the scores from these at update time.
 */
public record Decision(double[][] features, boolean[] legal, int chosen) {
  public Decision {
    if (chosen < 0 || chosen >= legal.length || !legal[chosen]) {
      throw org.rampa.domain.Invalid.value("chosen", chosen, "must index a legal candidate of " + legal.length);
    }
  }
}
