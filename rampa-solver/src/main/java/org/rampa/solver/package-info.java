/**
 * The exact planner: {@link org.rampa.solver.ExactStrategy} ("exact" on SCIP, "exact-cpsat" on
 * CP-SAT), the interval/flow MILP of docs/SPEC.md section 5 behind a solver-neutral model, and cheap
 * infeasibility pre-checks.
 */
package org.rampa.solver;
