/** The exact mover: the cheapest sequence of moves after which a request fits, proven by search (issue 25, docs/moves.md). */
package org.rampa.solver.moves;
