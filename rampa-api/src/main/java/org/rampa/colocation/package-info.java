/**
 * Cluster co-location (docs/SHARING.md section 5, the VastPipe problem): a demand mix of services and
 * pools of GPUs, per-GPU configurations of segments on whole GPUs, MPS shares and MIG instances,
 * their throughput with interference for exactly their co-runners, and the one
 * {@link org.rampa.colocation.ColocationVerifier} every co-location plan passes. The planners live
 * elsewhere: the heuristic and baselines in rampa-heuristics, the column-generation planner in
 * rampa-solver. Per-service placement (RAMPA) is {@code org.rampa.strategy}, not here.
 */
package org.rampa.colocation;
