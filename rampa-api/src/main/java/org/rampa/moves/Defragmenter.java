package org.rampa.moves;

/**
 * Defragmentation for a scheduler's quiet periods: given a state and a budget of moves, the moves
 * that most increase what the forecast demand can still place ({@link ForecastRoom}). Every move of
 * the answer was applied by {@link DefragProblem#rules()}, so every intermediate state is legal and
 * keeps every touched service within its SLO, and the answer never has less room than the state it
 * started from (no moves, when nothing helps).
 */
public interface Defragmenter {

  /** The defragmenter's name, for results and reports. */
  String name();

  DefragResult defragment(DefragProblem problem);
}
