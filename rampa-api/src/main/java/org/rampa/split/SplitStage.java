package org.rampa.split;

import org.rampa.domain.Invalid;

/**
 * One stage of a split: layers {@code [from, to)} on device {@code device} (an index into
 * {@link SplitProblem#devices()}), and its load (compute, plus transfers under SERIAL) in the
 * table's time unit.
 */
public record SplitStage(int from, int to, int device, double load) {

  public SplitStage {
    if (from < 0 || to <= from) {
      throw Invalid.value("splitStage.[from, to)", "[" + from + ", " + to + ")", "must be a non-empty layer range");
    }
    if (device < 0) {
      throw Invalid.value("splitStage.device", device, "must be >= 0");
    }
  }
}
