/**
 * Co-location planners without a solver: the ParvaGPU-style heuristic (configure, pack on legal
 * MIG starts, repair, local search) and the baselines it is compared with (exclusive, uniform MIG,
 * even MPS split, gpu-lets-like), found by name through {@link
 * org.rampa.heuristics.colocation.ColocationPlanners}. The problem types and the verifier are in
 * {@code org.rampa.colocation}; the learned policy is in {@code org.rampa.heuristics.learned}.
 */
package org.rampa.heuristics.colocation;
