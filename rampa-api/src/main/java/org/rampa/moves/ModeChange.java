package org.rampa.moves;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MigSlice;

/**
 * Changes the mode of a GPU nobody holds: into MIG mode with a layout ({@code fromLayout} empty) or
 * out of it ({@code toLayout} empty). The other modes follow from the holdings (a free GPU takes a
 * whole holding, MPS shares or templates), so entering and leaving MIG is the only mode a GPU is
 * configured into (docs/SHARING.md section 1: a reconfiguration, allowed only on an empty GPU).
 */
public record ModeChange(String gpu, List<MigSlice> fromLayout, List<MigSlice> toLayout) implements LayoutMove {

  public ModeChange {
    Invalid.requireNonBlank("modeChange.gpu", gpu);
    fromLayout = Invalid.listOf("modeChange[" + gpu + "].fromLayout", fromLayout);
    toLayout = Invalid.listOf("modeChange[" + gpu + "].toLayout", toLayout);
    if (fromLayout.isEmpty() == toLayout.isEmpty()) {
      throw Invalid.value("modeChange[" + gpu + "].layouts", fromLayout.isEmpty() ? "[] -> []" : "MIG -> MIG",
          "exactly one of fromLayout and toLayout is empty: a mode change enters or leaves MIG mode",
          "changing one MIG layout into another is a Recut");
    }
  }

  @Override
  public String kind() {
    return "mode";
  }

  @Override
  public String service() {
    return null;
  }

  @Override
  public String from() {
    return describe(gpu, fromLayout);
  }

  @Override
  public String to() {
    return describe(gpu, toLayout);
  }

  static String describe(String gpu, List<MigSlice> layout) {
    return gpu + (layout.isEmpty() ? " no MIG" : " MIG " + layout.stream().map(MigSlice::label).toList());
  }

  @Override
  public String toString() {
    return "mode " + from() + " -> " + to();
  }
}
