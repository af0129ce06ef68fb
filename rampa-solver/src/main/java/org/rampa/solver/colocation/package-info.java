/**
 * The exact co-location planner, {@link org.rampa.solver.colocation.PatternColocationPlanner}
 * (docs/SHARING.md section 5): the configuration space it searches and its aggregated pattern
 * programme, solved through {@link org.rampa.solver.backend} as exact's programme is.
 */
package org.rampa.solver.colocation;
