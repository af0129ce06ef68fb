package org.rampa.heuristics.learned;

import java.util.List;
import org.rampa.domain.Invalid;

/** One episode: its decisions and its return (the reward at the end, e.g. the demand scale served). */
public record Rollout(List<Decision> decisions, double result) {
  public Rollout {
    decisions = List.copyOf(decisions);
    if (!Double.isFinite(result)) {
      throw Invalid.value("result", result, "must be finite");
    }
  }
}
