/** The fast heuristic mover (issue 25, docs/moves.md). */
package org.rampa.heuristics.moves;
