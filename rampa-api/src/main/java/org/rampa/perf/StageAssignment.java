package org.rampa.perf;

import java.util.List;
import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * The decision part of a stage, before any prediction: layers {@code [from, to)} on the given GPUs
 * (data-parallel replicas of one type), each holding {@code placement} of its GPU.
 */
public record StageAssignment(int from, int to, List<String> gpus, Placement placement) {

  public StageAssignment {
    gpus = List.copyOf(gpus);
    Objects.requireNonNull(placement, "placement");
    if (from < 0 || to <= from) {
      throw Invalid.value("stage.[from, to)", "[" + from + ", " + to + ")", "must be a non-empty layer range with from >= 0");
    }
    if (gpus.isEmpty()) {
      throw Invalid.value("stage.gpus", "[]", "a stage needs at least one GPU");
    }
  }

  /** Exclusive use of the given GPUs. */
  public static StageAssignment of(int from, int to, String... gpus) {
    return whole(from, to, List.of(gpus));
  }

  /** Exclusive use of the given GPUs. */
  public static StageAssignment whole(int from, int to, List<String> gpus) {
    return new StageAssignment(from, to, gpus, new Whole());
  }
}
