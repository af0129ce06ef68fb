package org.rampa.moves;

/**
 * Finds moves after which a request fits: the cheapest sequence of at most the budget's moves
 * ({@link MoveProblem}) after which its placer returns a plan. Every move of the answer was applied
 * by {@link MoveProblem#rules()}, so every intermediate state is legal and keeps every touched
 * service within its SLO; the plan came from the placer on the state after the last move.
 */
public interface Mover {

  /** The mover's name, for results and reports. */
  String name();

  MovesResult admit(MoveProblem problem);
}
