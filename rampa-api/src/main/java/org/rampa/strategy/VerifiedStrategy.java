package org.rampa.strategy;

import java.util.List;
import java.util.Map;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.TierMargins;
import org.rampa.verify.PlanVerifier;

/**
 * The one verifying step: runs a strategy and checks the plan it returns with the
 * {@link PlanVerifier} against the problem's state and performance model, so strategies only
 * search (with the cheap SLO check of {@code org.rampa.perf} inside their loops) and a plan never
 * reaches a caller unverified. A rejected plan is a bug in the strategy and is thrown as
 * {@link org.rampa.verify.PlanRejectedException}; results without a plan pass through. The
 * verifier's checks include the interference rule: every service on a GPU the plan shares is
 * re-timed with its new co-runners. A verified plan is annotated with the MPS fault domains it
 * joins, which only the state it was verified against can tell, and, when it shares a GPU, with
 * the planning margins it was made and verified under.
 */
final class VerifiedStrategy implements PlacementStrategy {

  private final PlacementStrategy strategy;

  VerifiedStrategy(PlacementStrategy strategy) {
    this.strategy = strategy;
  }

  @Override
  public String name() {
    return strategy.name();
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    PlacementResult result = strategy.place(problem);
    if (result.plan().isEmpty()) {
      return result;
    }
    Plan plan = result.plan().get();
    new PlanVerifier(problem.performance(), problem.interference()).verify(problem.request(), plan, problem.state()).orThrow(problem.request().id());
    boolean shared = !plan.stages().stream().allMatch(s -> s.placement() instanceof Whole);
    TierMargins margins = problem.performance().shareMargins();
    return ImmutablePlacementResult.copyOf(result).withMpsFaultDomains(mpsFaultDomains(plan, problem.state()))
        .withShareMargins(shared && !margins.isNone() ? margins.byLabel() : Map.of());
  }

  /** The MPS fault domains among {@code plan}'s GPUs once it is allocated on {@code state}. */
  private static Map<String, List<String>> mpsFaultDomains(Plan plan, ClusterState state) {
    // a plan on whole GPUs shares none: skip allocating a throwaway state for every such plan
    if (plan.stages().stream().allMatch(s -> s.placement() instanceof Whole)) {
      return Map.of();
    }
    // read on the plan's GPUs only: on a 1000-GPU cluster the whole state's domains were a tenth of a confirming placement
    return state.allocate(plan).mpsFaultDomains(plan.gpuIds());
  }

  @Override
  public String toString() {
    return "verified " + strategy.name();
  }
}
