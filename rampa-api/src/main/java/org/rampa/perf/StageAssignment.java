package org.rampa.perf;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * The decision part of a stage, before any prediction: layers {@code [from, to)} on the given GPUs
 * (data-parallel replicas of one type) with a share of each.
 */
public record StageAssignment(int from, int to, List<String> gpus, double share) {

  public StageAssignment {
    gpus = List.copyOf(gpus);
    if (from < 0 || to <= from) {
      throw Invalid.value("stage.[from, to)", "[" + from + ", " + to + ")", "must be a non-empty layer range with from >= 0");
    }
    if (gpus.isEmpty()) {
      throw Invalid.value("stage.gpus", "[]", "a stage needs at least one GPU");
    }
    if (!(share > 0 && share <= 1)) {
      throw Invalid.value("stage.share", share, "must lie in (0, 1]");
    }
  }

  /** Exclusive use of the given GPUs. */
  public static StageAssignment of(int from, int to, String... gpus) {
    return new StageAssignment(from, to, List.of(gpus), 1.0);
  }
}
