/**
 * The interval/flow programme of the exact planner (docs/SPEC.md section 5): built in steps that
 * each return an immutable value the next receives ({@link org.rampa.solver.flow.FreeGpus},
 * {@code NodeSlots.Layout}, the arcs, {@code FlowProgramBuilder.Built}), held by
 * {@link org.rampa.solver.flow.IntervalFlowFormulation}; a solution is read back by
 * {@link org.rampa.solver.flow.SolutionDecoder}, and {@link org.rampa.solver.flow.CostBound}
 * prunes what the solver sees. Internal to rampa-solver.
 */
package org.rampa.solver.flow;
