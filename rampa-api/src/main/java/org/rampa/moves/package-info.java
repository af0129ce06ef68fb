/**
 * Moves: changing who holds what without draining the cluster (issue 25). A {@link org.rampa.moves.Move}
 * is an immutable value (migrate one stage replica, re-cut the free part of a MIG GPU, change an
 * empty GPU's mode); {@link org.rampa.moves.MoveRules} applies one to a
 * {@link org.rampa.domain.ClusterState} only when the state after it is legal and every service it
 * touches keeps its SLO; {@link org.rampa.moves.MoveSpace} lists the candidate moves of a state; a
 * {@link org.rampa.moves.Mover} finds moves after which a refused request fits. docs/moves.md states
 * every rule.
 */
package org.rampa.moves;
