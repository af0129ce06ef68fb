package org.rampa.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.strategy.SharingOptions;
import org.rampa.verify.PlanVerifier;

/**
 * The oracle for tiny instances: enumerates every contiguous split into at most K_max stages and,
 * for every stage, every non-empty set of completely free GPUs of one type (data-parallel replicas,
 * exclusive use), disjoint from the other stages; keeps the placement of least cost
 * ({@link GpuCosts} of the problem's importance model) that meets memory (free memory of every GPU),
 * throughput and latency under {@link PerformanceModel#estimate}, judged by {@link SloPredicate}.
 *
 * <p>With sharing ({@link #solve(PlacementProblem, SharingOptions)}) the same enumeration runs over
 * the slots of {@link SharedSlotMenu}: partly used GPUs and shares of free ones, every plan judged
 * by the {@link PlanVerifier} with its interference rule.
 *
 * <p>Exponential: meant for at most about 8 layers and 6 free GPUs. It prunes only by rules that
 * cannot lose the optimum: a partial cost already at least the best found (costs are never
 * negative); a stage whose compute alone, divided over its replicas, exceeds the period the SLO
 * allows; compute latency already beyond the bound; a stage that does not fit a GPU's free memory.
 */
public final class BruteForcePlacement {
  private BruteForcePlacement() {}

  /** The optimum and how many complete placements were predicted. */
  public record Optimum(Plan plan, double cost, long placementsChecked) {}

  /**
   * The least-cost placement on the slots of {@link SharedSlotMenu} under {@code sharing} that the
   * {@link PlanVerifier} accepts (with the problem's interference: every incumbent on a touched GPU
   * keeps its SLO, the newcomer meets its own with its co-runners), or empty when there is none.
   *
   * <p>Enumerates every contiguous split into at most maxStages stages and, for every stage, every
   * non-empty set of menu units (one GPU of one slot) of one placement shape, at most one unit per
   * GPU over the whole plan (the menu's contract); a stage's placement is its slot's placement for
   * its memory. Prunes only by rules that cannot lose the optimum: a partial cost already at least
   * the best found; the stage's time alone (α ≥ 1 only slows it) over its replicas beyond the period
   * the SLO allows, or the compute latency alone beyond the bound; the stage's memory beyond a
   * unit's cap. Every complete placement left is judged by the verifier. Meant for at most about 6
   * GPUs and 6 layers.
   */
  public static Optional<Optimum> solve(PlacementProblem problem, SharingOptions sharing) {
    SharedSearch s = new SharedSearch(problem, sharing);
    s.recurse(0, 0, 0, 0, new ArrayList<>());
    if (s.best == null) {
      return Optional.empty();
    }
    return Optional.of(new Optimum(s.best, s.bestCost, s.checked));
  }

  /** The least-cost SLO-feasible placement, or empty when there is none. */
  public static Optional<Optimum> solve(PlacementProblem problem) {
    Search s = new Search(problem);
    s.recurse(0, 0, 0, 0, new ArrayList<>());
    if (s.best == null) {
      return Optional.empty();
    }
    Plan plan = s.performance.plan(s.request, s.best, s.cluster, s.bestCost, "brute-force");
    return Optional.of(new Optimum(plan, s.bestCost, s.checked));
  }

  private static final class Search {
    final ServiceRequest request;
    final Cluster cluster;
    final PerformanceModel performance;
    final PlacementProblem problem;
    final List<Gpu> free;
    final double[] cost;
    final int layers;
    final int batch;
    final double latencyBudget;
    List<StageAssignment> best;
    double bestCost = Double.POSITIVE_INFINITY;
    long checked;

    Search(PlacementProblem problem) {
      this.problem = problem;
      this.request = problem.request();
      this.cluster = problem.state().cluster();
      this.performance = problem.performance();
      this.free = problem.state().capacity().gpus();
      GpuCosts costs = problem.importance().evaluate(problem.state());
      this.cost = new double[free.size()];
      for (int i = 0; i < free.size(); i++) {
        cost[i] = costs.of(free.get(i).id());
      }
      this.layers = request.model().size();
      this.batch = request.slo().batchSize();
      this.latencyBudget = SloPredicate.latencyBudgetSeconds(request.slo());
    }

    void recurse(int from, int usedMask, double partialCost, double partialCompute, List<StageAssignment> stages) {
      if (from == layers) {
        leaf(stages, partialCost);
        return;
      }
      if (stages.size() == request.maxStages()) {
        return;
      }
      for (int to = from + 1; to <= layers; to++) {
        long memory = performance.stageMemoryBytes(request.model(), from, to, batch);
        int n = free.size();
        for (int mask = 1; mask < (1 << n); mask++) {
          if ((mask & usedMask) != 0 || !oneType(mask)) {
            continue;
          }
          double c = partialCost;
          boolean fits = true;
          List<String> ids = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            if ((mask & (1 << i)) != 0) {
              c += cost[i];
              ids.add(free.get(i).id());
              fits &= memory <= problem.state().freeMemoryBytes(free.get(i).id());
            }
          }
          if (!fits || c >= bestCost) {
            continue;
          }
          double compute = performance.stageSeconds(request.model(), from, to, cluster.typeOf(ids.get(0)), batch);
          if (!SloPredicate.meetsPeriod(compute / ids.size(), request.slo()) || partialCompute + compute > latencyBudget) {
            continue;
          }
          stages.add(StageAssignment.whole(from, to, ids));
          recurse(to, usedMask | mask, c, partialCompute + compute, stages);
          stages.remove(stages.size() - 1);
        }
      }
    }

    private boolean oneType(int mask) {
      String type = null;
      for (int i = 0; i < free.size(); i++) {
        if ((mask & (1 << i)) != 0) {
          if (type == null) {
            type = free.get(i).type();
          } else if (!type.equals(free.get(i).type())) {
            return false;
          }
        }
      }
      return true;
    }

    private void leaf(List<StageAssignment> stages, double c) {
      checked++;
      PlanEstimate e = performance.estimate(request, stages, cluster);
      if (SloPredicate.meets(e, request.slo())
          && c < bestCost) {
        bestCost = c;
        best = List.copyOf(stages);
      }
    }
  }

  /** One GPU of one menu slot. */
  private record Unit(SharedSlotMenu.Slot slot, String gpu, int gpuBit, double cost) {}

  private static final class SharedSearch {
    final ServiceRequest request;
    final ClusterState state;
    final Cluster cluster;
    final PerformanceModel performance;
    final PlanVerifier verifier;
    /** Units grouped by placement shape. */
    final List<List<Unit>> shapes = new ArrayList<>();
    final int layers;
    final int batch;
    final double latencyBudget;
    Plan best;
    double bestCost = Double.POSITIVE_INFINITY;
    long checked;

    SharedSearch(PlacementProblem problem, SharingOptions sharing) {
      this.request = problem.request();
      this.state = problem.state();
      this.cluster = state.cluster();
      this.performance = problem.performance();
      this.verifier = new PlanVerifier(performance, problem.interference());
      Map<String, Integer> bits = new HashMap<>();
      Map<String, List<Unit>> byShape = new LinkedHashMap<>();
      for (SharedSlotMenu.Slot slot : SharedSlotMenu.of(problem, sharing).slots()) {
        for (int i = 0; i < slot.gpus().size(); i++) {
          String gpu = slot.gpus().get(i);
          int bit = bits.computeIfAbsent(gpu, g -> bits.size());
          if (bit >= 30) {
            throw new IllegalArgumentException("the brute-force oracle handles at most 30 GPUs on the menu");
          }
          byShape.computeIfAbsent(slot.shape(), k -> new ArrayList<>()).add(new Unit(slot, gpu, 1 << bit, slot.costs().get(i)));
        }
      }
      shapes.addAll(byShape.values());
      this.layers = request.model().size();
      this.batch = request.slo().batchSize();
      this.latencyBudget = SloPredicate.latencyBudgetSeconds(request.slo());
    }

    void recurse(int from, int usedGpus, double partialCost, double partialCompute, List<StageAssignment> stages) {
      if (from == layers) {
        leaf(stages, partialCost);
        return;
      }
      if (stages.size() == request.maxStages()) {
        return;
      }
      for (int to = from + 1; to <= layers; to++) {
        long memory = performance.stageMemoryBytes(request.model(), from, to, batch);
        for (List<Unit> units : shapes) {
          int n = units.size();
          double alone = Double.NaN;
          for (int mask = 1; mask < (1 << n); mask++) {
            int gpus = 0;
            double c = partialCost;
            boolean ok = true;
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n && ok; i++) {
              if ((mask & (1 << i)) != 0) {
                Unit u = units.get(i);
                ok = (u.gpuBit() & (usedGpus | gpus)) == 0 && memory <= u.slot().memoryCapBytes();
                gpus |= u.gpuBit();
                c += u.cost();
                ids.add(u.gpu());
              }
            }
            if (!ok || c >= bestCost) {
              continue;
            }
            SharedSlotMenu.Slot slot = units.get(Integer.numberOfTrailingZeros(mask)).slot();
            if (Double.isNaN(alone)) {
              alone = performance.estimate(request, List.of(new StageAssignment(from, to, List.of(ids.get(0)), slot.placementFor(memory))),
                  cluster).stageComputeSeconds().get(0);
            }
            if (!SloPredicate.meetsPeriod(alone / ids.size(), request.slo()) || partialCompute + alone > latencyBudget) {
              continue;
            }
            stages.add(new StageAssignment(from, to, ids, slot.placementFor(memory)));
            recurse(to, usedGpus | gpus, c, partialCompute + alone, stages);
            stages.remove(stages.size() - 1);
          }
        }
      }
    }

    private void leaf(List<StageAssignment> stages, double c) {
      checked++;
      if (!SloPredicate.meets(performance.estimate(request, stages, cluster), request.slo())) {
        return;
      }
      Plan plan = performance.plan(request, stages, cluster, c, "brute-force");
      if (verifier.verify(request, plan, state).ok()) {
        bestCost = c;
        best = plan;
      }
    }
  }
}
