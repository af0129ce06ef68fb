package org.rampa.split;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * The answer to a {@link SplitProblem}: the least period (in the cost table's time unit) and the
 * stages that reach it, or, when no split fits the memory caps, no stages and a reason.
 */
public record SplitResult(boolean feasible, double period, List<SplitStage> stages, String reason) {

  public SplitResult {
    stages = List.copyOf(stages);
    if (feasible && stages.isEmpty()) {
      throw Invalid.value("splitResult.stages", "[]", "a feasible split has stages");
    }
    if (!feasible && reason.isBlank()) {
      throw Invalid.value("splitResult.reason", "\"\"", "an infeasible split must say why");
    }
  }

  public static SplitResult of(double period, List<SplitStage> stages) {
    return new SplitResult(true, period, stages, "");
  }

  public static SplitResult infeasible(String reason) {
    return new SplitResult(false, Double.POSITIVE_INFINITY, List.of(), reason);
  }

  /** The stages as {@code [from, to)} pairs. */
  public List<int[]> ranges() {
    return stages.stream().map(s -> new int[] {s.from(), s.to()}).toList();
  }
}
