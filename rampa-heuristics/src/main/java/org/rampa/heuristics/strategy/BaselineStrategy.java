package org.rampa.heuristics.strategy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.Plan;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.support.TimeBudget;

/**
 * One of the {@link Baseline} methods. It returns the first plan its own search order finds
 * (FEASIBLE: it makes no claim about cost), INFEASIBLE when a necessary condition fails, or
 * NO_PLAN_FOUND when its search order finds nothing (a plan may still exist).
 *
 * <p>Option ({@code StrategyOptions.extra}): {@code maxReplicas} (default 32) replicas per stage.
 */
final class BaselineStrategy implements PlacementStrategy {

  private final Baseline baseline;

  BaselineStrategy(Baseline baseline) {
    this.baseline = baseline;
  }

  @Override
  public String name() {
    return baseline.strategyName;
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    TimeBudget budget = TimeBudget.start(problem);
    int maxReplicas = BaselineOptions.of(problem.options(), name()).maxReplicas();
    PlacementContext c = new PlacementContext(problem);
    String obvious = Infeasibility.obviousReason(c, SharingOptions.off()); // the baselines take whole free GPUs only
    if (!obvious.isEmpty()) {
      return Results.infeasible(name(), obvious, budget, Map.of("candidatesEvaluated", 0.0));
    }
    List<FreeGpu> ranked = RankedFreeGpus.of(c, baseline.rank.byType);
    int maxStages = Math.min(c.request.maxStages(), c.model.size());
    Optional<Plan> plan = Optional.empty();
    for (int from : windowStarts(ranked)) {
      plan = search(c, ranked.subList(from, ranked.size()), maxStages, maxReplicas);
      if (plan.isPresent()) {
        break;
      }
    }
    Map<String, Double> stats = Map.of("candidatesEvaluated", (double) c.candidatesEvaluated());
    if (plan.isEmpty()) {
      return Results.noPlanFound(name(), Infeasibility.afterSearch(c, "up to " + maxStages + " stages of up to "
          + maxReplicas + " replicas in " + baseline.rank.name().toLowerCase().replace('_', ' ') + " order"), budget, stats);
    }
    return Results.withPlan(name(), SolveStatus.FEASIBLE, plan.get(), "", budget, stats);
  }

  /**
   * Where the search may start in the ranking. First-fit takes the first GPUs in cluster order on
   * which the service fits, so when the GPUs at the front cannot serve it (too slow for its latency
   * bound, say) it moves on to where the next run of another GPU type begins; the other baselines
   * always start from their best-ranked GPU.
   */
  private List<Integer> windowStarts(List<FreeGpu> ranked) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    if (baseline.rank == Baseline.Rank.CLUSTER_ORDER) {
      for (int i = 1; i < ranked.size(); i++) {
        if (!ranked.get(i).typeName().equals(ranked.get(i - 1).typeName())) {
          starts.add(i);
        }
      }
    }
    return starts;
  }

  /** The baseline's own search order over {@code ranked}. */
  private Optional<Plan> search(PlacementContext c, List<FreeGpu> ranked, int maxStages, int maxReplicas) {
    Optional<Plan> plan = Optional.empty();
    if (baseline.search == Baseline.SearchOrder.FEWEST_STAGES) {
      for (int k = 1; k <= maxStages && plan.isEmpty(); k++) {
        for (int r = 1; r <= maxReplicas && k * r <= ranked.size() && plan.isEmpty(); r++) {
          plan = tryFirstGroups(c, ranked, k, r);
        }
      }
    } else {
      for (int n = 1; n <= ranked.size() && n <= maxStages * maxReplicas && plan.isEmpty(); n++) {
        for (int k = 1; k <= Math.min(maxStages, n) && plan.isEmpty(); k++) {
          if (n % k == 0 && n / k <= maxReplicas) {
            plan = tryFirstGroups(c, ranked, k, n / k);
          }
        }
      }
    }
    return plan;
  }

  /** The first {@code k} groups of {@code r} same-type GPUs in rank order, split by the baseline's rule. */
  private Optional<Plan> tryFirstGroups(PlacementContext c, List<FreeGpu> ranked, int k, int r) {
    List<List<FreeGpu>> groups = firstGroups(ranked, k, r);
    if (groups.size() < k) {
      return Optional.empty();
    }
    return c.evaluate(groups, baseline.split, false, name());
  }

  /** Walks the ranking, filling one bucket per GPU type; a full bucket becomes the next group. */
  static List<List<FreeGpu>> firstGroups(List<FreeGpu> ranked, int k, int r) {
    Map<String, List<FreeGpu>> buckets = new LinkedHashMap<>();
    List<List<FreeGpu>> groups = new ArrayList<>(k);
    for (FreeGpu g : ranked) {
      List<FreeGpu> bucket = buckets.computeIfAbsent(g.typeName(), t -> new ArrayList<>(r));
      bucket.add(g);
      if (bucket.size() == r) {
        groups.add(List.copyOf(bucket));
        bucket.clear();
        if (groups.size() == k) {
          break;
        }
      }
    }
    return groups;
  }
}
