package org.rampa.heuristics.colocation;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.SegmentMenu;
import org.rampa.strategy.SolveStatus;

/**
 * Turns a planner that serves a given demand into one for every objective: scale 1 for the fewest
 * GPUs, a bisection on the scale for the largest scale, and for weighted throughput the whole demand
 * if it fits, else the largest scale. Heuristics claim no bound; {@link ColocationPlanners} hands
 * them out verified.
 */
abstract class DemandPlanner implements ColocationPlanner {

  /** Bisection steps on the scale: 2^-30 of the bracket, far below any rate's precision. */
  private static final int SCALE_STEPS = 30;

  /**
   * Why this planner cannot plan on {@code problem}'s cluster at all (no GPU type offers the kind of
   * share it uses), or empty when it can.
   */
  Optional<String> unusableCluster(ColocationProblem problem) {
    return Optional.empty();
  }

  /** False when {@code service} has no configuration this planner may use under the SLO rule. */
  abstract boolean servable(ColocationProblem problem, SegmentMenu menu, ColocationService service);

  /** A plan serving every service's rate times {@code scale} within the cluster, if this planner finds one. */
  abstract Optional<ColocationPlan> packAt(ColocationProblem problem, SegmentMenu menu, double scale, long deadline);

  @Override
  public ColocationResult plan(ColocationProblem original, Duration timeLimit) {
    ColocationProblem problem = original.memoized();
    long deadline = System.nanoTime() + timeLimit.toNanos();
    Optional<String> unusable = unusableCluster(problem);
    if (unusable.isPresent()) {
      return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND, name() + ": " + unusable.get());
    }
    SegmentMenu menu = SegmentMenu.of(problem);
    for (ColocationService s : problem.services()) {
      if (!servable(problem, menu, s)) {
        return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND, name() + ": service " + s.id()
            + " has no configuration this planner may use that meets its SLO under the rule (" + problem.sloRule().describe(s)
            + ") on the cluster's GPU types");
      }
    }
    Optional<ColocationPlan> plan = switch (problem.objective()) {
      case MIN_GPUS -> packAt(problem, menu, 1, deadline);
      case MAX_SCALE -> largestScale(problem, menu, deadline);
      case MAX_WEIGHTED_THROUGHPUT -> packAt(problem, menu, 1, deadline).or(() -> largestScale(problem, menu, deadline));
    };
    if (plan.isEmpty()) {
      return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND, name() + ": the packing needs more GPUs than the cluster has "
          + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList());
    }
    return new ColocationResult(SolveStatus.FEASIBLE, plan, OptionalDouble.of(ColocationVerifier.objectiveValue(problem, plan.get())),
        OptionalDouble.empty(), name() + ": heuristic, no bound");
  }

  private Optional<ColocationPlan> largestScale(ColocationProblem problem, SegmentMenu menu, long deadline) {
    double lo = 0;
    Optional<ColocationPlan> best = Optional.empty();
    double hi = 1;
    while (true) {
      Optional<ColocationPlan> p = packAt(problem, menu, hi, deadline);
      if (p.isEmpty()) {
        break;
      }
      lo = hi;
      best = p;
      hi *= 2;
    }
    for (int i = 0; i < SCALE_STEPS && System.nanoTime() < deadline; i++) {
      double mid = (lo + hi) / 2;
      Optional<ColocationPlan> p = packAt(problem, menu, mid, deadline);
      if (p.isPresent()) {
        lo = mid;
        best = p;
      } else {
        hi = mid;
      }
    }
    return best;
  }
}
