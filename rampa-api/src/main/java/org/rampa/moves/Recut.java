package org.rampa.moves;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MigSlice;

/**
 * Re-cuts the free part of a MIG GPU while its held instances keep running (NVIDIA destroys and
 * creates GPU instances one by one; the others are untouched): the layout goes from {@code from} to
 * {@code to}, both non-empty. The rule {@link MoveRules} enforces: every instance held in the state
 * is in {@code to} with the same profile and start, so only unheld instances are destroyed and new
 * ones take only memory slices no held instance uses, and {@code to} is a legal layout by
 * {@link org.rampa.domain.share.MigLayout#check}.
 */
public record Recut(String gpu, List<MigSlice> fromLayout, List<MigSlice> toLayout) implements LayoutMove {

  public Recut {
    Invalid.requireNonBlank("recut.gpu", gpu);
    fromLayout = Invalid.listOf("recut[" + gpu + "].fromLayout", fromLayout);
    toLayout = Invalid.listOf("recut[" + gpu + "].toLayout", toLayout);
    if (fromLayout.isEmpty() || toLayout.isEmpty()) {
      throw Invalid.value("recut[" + gpu + "].layouts", fromLayout.isEmpty() ? "from []" : "to []",
          "a re-cut keeps the GPU in MIG mode", "entering or leaving MIG mode is a ModeChange, on an empty GPU");
    }
  }

  @Override
  public String kind() {
    return "recut";
  }

  @Override
  public String service() {
    return null;
  }

  @Override
  public String from() {
    return ModeChange.describe(gpu, fromLayout);
  }

  @Override
  public String to() {
    return ModeChange.describe(gpu, toLayout);
  }

  @Override
  public String toString() {
    return "recut " + from() + " -> " + toLayout.stream().map(MigSlice::label).toList();
  }
}
