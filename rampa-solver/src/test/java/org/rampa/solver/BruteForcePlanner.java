package org.rampa.solver;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.strategy.PlacementProblem;

/**
 * The oracle: every contiguous split into at most maxStages stages and every assignment of
 * disjoint non-empty sets of free same-type GPUs to them, judged by the real
 * {@link PerformanceModel#estimate} and {@link SloPredicate}, costed with the same GPU costs.
 * Branch and bound only skips what cannot win: partial cost at least the best found, memory, and a stage whose own
 * compute T/r already breaks the period (every transfer mode's load is at least T/r).
 */
final class BruteForcePlanner {

  record Best(double cost, List<StageAssignment> stages) {}

  private final ServiceRequest request;
  private final Cluster cluster;
  private final PerformanceModel performance;
  private final GpuCosts costs;
  private final List<Gpu> free;
  private final Model model;
  private final int batch;
  private Best best;
  long plansEvaluated;

  BruteForcePlanner(PlacementProblem p) {
    this.request = p.request();
    this.cluster = p.state().cluster();
    this.performance = p.performance();
    this.costs = p.importance().evaluate(p.state());
    this.free = p.state().capacity().gpus();
    this.model = request.model();
    this.batch = request.slo().batchSize();
  }

  Optional<Best> solve() {
    best = null;
    search(0, new ArrayList<>(), 0, 0.0);
    return Optional.ofNullable(best);
  }

  private void search(int from, List<StageAssignment> stages, int usedMask, double cost) {
    if (best != null && cost >= best.cost()) {
      return;
    }
    if (from == model.size()) {
      plansEvaluated++;
      PlanEstimate e = performance.estimate(request, stages, cluster);
      if (SloPredicate.meets(e, request.slo())) {
        best = new Best(cost, List.copyOf(stages));
      }
      return;
    }
    if (stages.size() == request.maxStages()) {
      return;
    }
    for (int to = from + 1; to <= model.size(); to++) {
      long memory = performance.stageMemoryBytes(model, from, to, batch);
      for (GpuType type : cluster.gpuTypes()) {
        if (memory > type.memoryBytes()) {
          continue;
        }
        double compute = performance.stageSeconds(model, from, to, type, batch);
        int typeMask = 0;
        for (int g = 0; g < free.size(); g++) {
          if (free.get(g).type().equals(type.name()) && (usedMask & (1 << g)) == 0) {
            typeMask |= 1 << g;
          }
        }
        for (int subset = typeMask; subset != 0; subset = (subset - 1) & typeMask) {
          int r = Integer.bitCount(subset);
          double load = compute / r;
          if (!SloPredicate.meetsPeriod(load, request.slo())) {
            continue;
          }
          List<String> gpus = new ArrayList<>();
          double stageCost = 0;
          for (int g = 0; g < free.size(); g++) {
            if ((subset & (1 << g)) != 0) {
              gpus.add(free.get(g).id());
              stageCost += costs.of(free.get(g).id());
            }
          }
          stages.add(new StageAssignment(from, to, gpus, 1.0));
          search(to, stages, usedMask | subset, cost + stageCost);
          stages.remove(stages.size() - 1);
        }
      }
    }
  }
}
