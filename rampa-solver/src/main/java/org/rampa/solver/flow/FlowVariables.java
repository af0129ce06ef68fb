package org.rampa.solver.flow;

import java.util.List;
import java.util.Map;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.NodeSlots.SlowNodes;

/**
 * Where {@link FlowProgramBuilder} put each quantity of the model: the variable indices the decoder,
 * the hint and {@link CostBound} read a solution by. An arc's own binary is its {@code variable}.
 * Filled by the builder alone and handed on unchanged.
 *
 * @param intra per slot and cut j, the {@code z} variable, or -1 when intra-node brings nothing at j
 * @param slotUsage per slot: cost group index -> the variable counting that group's GPUs on the slot
 * @param poolNet per slow-node pool: cost group index -> how many of its GPUs there network stages take
 * @param groupNet per cost group: its GPUs network stages take outside slow nodes ({@code w})
 * @param groupShared per cost group, sharing only: per fresh placement the GPUs shared network
 *     stages take ({@code s}; -1: none)
 * @param arcParts per arc, sharing only: its {@code y} per partly used slot it may take (null for whole arcs)
 * @param slotFresh per slot index, sharing only: (cost group, fresh key) -> the count of that
 *     group's GPUs there that shared slot stages take
 */
record FlowVariables(int[][] intra, List<Map<Integer, Integer>> slotUsage, List<Map<Integer, Integer>> poolNet, int[] groupNet,
    int[][] groupShared, int[][] arcParts, Map<Integer, Map<List<Integer>, Integer>> slotFresh) {

  int intra(Slot s, int cut) {
    return intra[s.index][cut];
  }

  Map<Integer, Integer> usage(Slot s) {
    return slotUsage.get(s.index);
  }

  Map<Integer, Integer> net(SlowNodes pool) {
    return poolNet.get(pool.index);
  }

  int net(CostGroup g) {
    return groupNet[g.index];
  }

  int[] shared(CostGroup g) {
    return groupShared[g.index];
  }

  int[] parts(Arc a) {
    return arcParts[a.variable];
  }

  Map<List<Integer>, Integer> slotFresh(Slot s) {
    return slotFresh.getOrDefault(s.index, Map.of());
  }
}
