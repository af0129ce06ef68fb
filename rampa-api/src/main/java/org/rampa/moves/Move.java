package org.rampa.moves;

import java.util.List;

/**
 * One change of a cluster's ledger that keeps every other service running: a closed set of kinds.
 * Moves are values; {@link MoveRules} decides whether one may be applied to a state and applies it.
 * {@link #kind()}, {@link #service()}, {@link #from()} and {@link #to()} describe it for people and
 * for the CLI's result JSON.
 */
public sealed interface Move permits Migration, LayoutMove {

  /** The kind, as the CLI names it: "migrate", "recut" or "mode". */
  String kind();

  /** The service the move restarts, or null for moves of a GPU's configuration nobody holds. */
  String service();

  /** Where the moved thing was: "gpu-3 mps 0.5", or a GPU's MIG layout "gpu-3 [3g.40gb@0, 4g.40gb@4]". */
  String from();

  /** Where it goes, in the same form as {@link #from()}. */
  String to();

  /** The GPUs the move changes: a migration's source and destination, a layout move's GPU. */
  List<String> gpus();

  /** What the move costs under {@code costs}: its kind's price. */
  default double cost(MoveCosts costs) {
    return costs.of(this);
  }
}
