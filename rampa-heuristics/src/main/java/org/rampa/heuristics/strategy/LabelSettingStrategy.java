package org.rampa.heuristics.strategy;

import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;

/**
 * Minimum-cost SLO-feasible split and allocation by label setting ("dp"): a shortest path over the
 * layer boundaries {@code 0..L}, where an arc {@code i → j} is "layers [i, j) form one stage on
 * r units of one shape" and a label at a boundary records what the path used so far.
 *
 * <p><b>Menu.</b> One search over one slot menu ({@link SlotPools}): the free GPUs whole, each whole
 * GPU one slot and, with {@code sharing=on}, the shared-slot menu besides (MPS shares and CU masks
 * of free GPUs, MPS room and free MIG instances of partly used GPUs, partition templates), one unit
 * per GPU over the whole path. A stage's units share one shape; its time is its time alone on the
 * shape times the largest α among its units.
 *
 * <p><b>State.</b> A label holds the number of GPUs taken from every pool (GPUs of one node offering
 * the same shapes, cheapest first: counts suffice and cheapest-first is optimal), the node of the
 * previous stage when all its GPUs sit on one node (else "spread"), the stage count, the cost, the latency so far and, under serial transfers, the previous stage's busy
 * time without its outgoing transfer.
 *
 * <p><b>Transfers are charged exactly as {@code PerformanceModel.linkBetween}</b>: the node's own link
 * when the previous stage and the new one sit on that same node (both single-node), the network
 * otherwise. Tracking the previous stage's node costs labels (labels that differ only in it are
 * not compared), which is the price of not over-charging co-located stages.
 *
 * <p><b>Search.</b> Best-first on cost plus an admissible estimate of the cost still to come (a
 * relaxation, its tables built as far as the search needs them and shared by decisions with the
 * same inputs, see {@link RelaxationBound}: the least cost of covering the remaining layers in the
 * remaining stages if every unit of a shape cost as little as its cheapest one and capacities,
 * nodes, transfers and latency did not matter; a stage on whole GPUs needs ceil(T / max busy)
 * replicas, on shares at least one), with an incumbent from the greedy strategy (on the same menu)
 * as an upper bound. A label is dropped only when another label at the same
 * boundary with the same previous-stage node is at least as good in every component (cost,
 * latency, stages, serial busy time, and GPUs taken from every pool), or when it cannot beat the
 * incumbent, or cannot meet the SLO; nodes that look alike and are untouched are tried once (by
 * symmetry). Stages with more replicas than the period needs are generated only under serial
 * transfers, where they can shorten a later stage's wait.
 *
 * <p><b>SLO.</b> Every in-search test and the final check use {@code SloPredicate}. The labels add
 * times in their own order, so at the SLO's edge a complete path may still miss it in the
 * performance model's final check: the search then goes on with the next cheapest path.
 *
 * <p><b>Shared GPUs.</b> The incumbents' SLOs are left to the final check: a complete path holding a
 * share is judged by the verifier with its interference rule (a rejected path makes the search
 * inexhaustive, as below). The necessary conditions apply as {@code NecessaryConditions} decides
 * (on whole GPUs only).
 *
 * <p><b>Status.</b> OPTIMAL when the search completed without truncation; INFEASIBLE (a proof) when
 * it completed and found nothing. Three things make the search inexhaustive, as the statistics
 * {@code truncated}, {@code spreadOptionsCut} and {@code finalCheckRejected} say: the options
 * {@code maxLabels} (default 200000 labels created) or the time limit (then FEASIBLE, or
 * NO_SOLUTION_IN_TIME without a plan); {@code maxSpreadOptions} (default 64): how many ways to spread
 * one stage's replicas over several nodes are tried per stage; and a complete path the final check
 * rejected, which may have dominated one that passes (then FEASIBLE, or NO_PLAN_FOUND).
 */
final class LabelSettingStrategy implements PlacementStrategy {

  static final String NAME = "dp";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    return new LabelSearch(problem, LabelSettingOptions.of(problem.options())).run();
  }
}
