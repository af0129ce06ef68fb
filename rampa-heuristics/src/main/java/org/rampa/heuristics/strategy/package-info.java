/**
 * The solver-free strategies ("greedy", "dp" and the baselines) and what they share: free-GPU
 * views, GPU pools, infeasibility reasons, result building. Not exported: users reach them by name
 * through {@link org.rampa.heuristics.strategy.HeuristicStrategyProvider}.
 */
package org.rampa.heuristics.strategy;
