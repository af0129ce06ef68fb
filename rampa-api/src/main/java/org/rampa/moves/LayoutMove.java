package org.rampa.moves;

import java.util.List;
import org.rampa.domain.share.MigSlice;

/** A move of one GPU's MIG layout, which nobody's holding changes: a {@link Recut} or a {@link ModeChange}. */
public sealed interface LayoutMove extends Move permits Recut, ModeChange {

  /** The GPU whose layout changes. */
  String gpu();

  /** Its layout before the move (empty: not in MIG mode). */
  List<MigSlice> fromLayout();

  /** Its layout after the move (empty: out of MIG mode). */
  List<MigSlice> toLayout();

  @Override
  default List<String> gpus() {
    return List.of(gpu());
  }
}
