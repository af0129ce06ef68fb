/**
 * Solvers behind one interface ({@link org.rampa.solver.backend.MilpBackend}): a
 * {@link org.rampa.solver.backend.LinearProgram} solved on SCIP, CP-SAT or GLOP with the OR-Tools
 * natives loaded once ({@link org.rampa.solver.backend.OrToolsNatives}) and every solve stopped at
 * its deadline by {@link org.rampa.solver.backend.SolveWatchdog}. Uses nothing else of rampa-solver;
 * internal to it apart from {@code OrToolsNatives}.
 */
package org.rampa.solver.backend;
