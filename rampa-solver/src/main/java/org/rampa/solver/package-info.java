/**
 * The exact planner: {@link org.rampa.solver.ExactStrategy} ("exact" on SCIP, "exact-cpsat" on
 * CP-SAT, registered by {@link org.rampa.solver.ExactStrategyProvider}), the interval/flow MILP of
 * docs/SPEC.md section 5 behind a solver-neutral programme, and cheap infeasibility pre-checks.
 *
 * <p>Package map (checked by {@code SolverPackagesTest}): this package holds the exact planner's
 * entry points and its phases; {@link org.rampa.solver.flow} builds the interval/flow programme and
 * reads its solutions; {@link org.rampa.solver.colocation} is the exact co-location planner
 * ({@link org.rampa.solver.colocation.PatternColocationPlanner}) and its aggregated pattern
 * programme; {@link org.rampa.solver.backend} solves a programme on SCIP, CP-SAT or GLOP and loads
 * the OR-Tools natives ({@link org.rampa.solver.backend.OrToolsNatives}). Each uses only the
 * packages after it in that order, and the backends nothing of the solver. Only the classes named
 * here are meant for users; the rest of the sub-packages is public only so the packages can use
 * each other (rampa-solver is an automatic module, see the README).
 */
package org.rampa.solver;
