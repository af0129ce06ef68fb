package org.rampa.moves;

import java.util.List;
import org.rampa.domain.ClusterState;

/**
 * What a {@link Defragmenter} found: the moves in the order to apply them, their total price, the
 * state after them, and the room ({@link ForecastRoom}) before and after (after ≥ before).
 *
 * @param explored candidate moves or evacuations whose room was evaluated, for reports
 */
public record DefragResult(List<Move> moves, double moveCost, ClusterState after, double roomBefore, double roomAfter, String reason,
    String defragmenter, long explored) {

  public DefragResult {
    moves = List.copyOf(moves);
  }
}
