package org.rampa.heuristics.learned;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.domain.Invalid;
import org.rampa.perf.SloPredicate;
import org.rampa.strategy.SolveStatus;

/**
 * The learned co-location policy, {@code learned}: plays episodes of {@link ColocationEnvironment}
 * choosing each step's highest-scoring legal candidate, and returns a plan (verified when obtained
 * from {@link org.rampa.heuristics.colocation.ColocationPlanners} or wrapped in {@link
 * org.rampa.colocation.VerifiedColocationPlanner}). Every objective: the largest scale is one
 * episode to the cluster's end; the fewest GPUs a search over the cluster's size with the policy
 * placing inside each episode, then a consolidation pass (GPUs taken out, the policy re-placing
 * what they served); the weighted throughput the whole demand when it fits, else the largest
 * scale. Deterministic: the same problem and weights give the same plan (when the time limit cuts
 * nothing). Each episode runs to its end (a step takes milliseconds); the time limit stops the
 * search over the cluster's size and the consolidation between episodes.
 */
public final class LearnedColocationPlanner implements ColocationPlanner {
  /** The shipped weights, trained by {@code rampa train} (docs/learned-policy.md gives the command). */
  public static final String SHIPPED_RESOURCE = "learned-policy.json";
  /** Partly used GPUs offered per step besides one fresh GPU per type. */
  public static final int DEFAULT_TOP_K = 8;

  private final CandidatePolicy policy;
  private final int topK;

  public LearnedColocationPlanner(CandidatePolicy policy, int topK) {
    if (!policy.featureNames().equals(ColocationEnvironment.FEATURES)) {
      throw Invalid.value("policy.features", policy.featureNames(), "must be the environment's " + ColocationEnvironment.FEATURES,
          "retrain with rampa train");
    }
    this.policy = policy.copy();
    this.topK = topK;
  }

  /** The policy shipped in this jar. */
  public static LearnedColocationPlanner shipped() {
    try (InputStream in = LearnedColocationPlanner.class.getResourceAsStream(SHIPPED_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the shipped policy " + SHIPPED_RESOURCE + " is missing from the rampa-heuristics jar");
      }
      return new LearnedColocationPlanner(PolicyDocument.read(new String(in.readAllBytes(), StandardCharsets.UTF_8)).policy(), DEFAULT_TOP_K);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the shipped policy " + SHIPPED_RESOURCE, e);
    }
  }

  @Override
  public String name() {
    return "learned";
  }

  @Override
  public ColocationResult plan(ColocationProblem problem, Duration timeLimit) {
    long deadline = System.nanoTime() + timeLimit.toNanos();
    ColocationEnvironment environment = new ColocationEnvironment(problem, topK);
    return switch (problem.objective()) {
      case MAX_SCALE -> largestScale(problem, environment.run(policy::greedy), "");
      case MIN_GPUS -> fewestGpus(problem, environment, deadline);
      case MAX_WEIGHTED_THROUGHPUT -> {
        // as the heuristics do: the whole demand when it fits, else the largest scale
        ColocationEnvironment.Outcome demand = environment.run(policy::greedy, new ColocationEnvironment.Limits(environment.clusterGpus(), 1));
        yield serves(demand)
            ? result(problem, atScaleOne(demand), "the whole demand served; " + how(demand))
            : largestScale(problem, environment.run(policy::greedy), "the demand does not fit, the largest scale; ");
      }
    };
  }

  private static ColocationResult largestScale(ColocationProblem problem, ColocationEnvironment.Outcome outcome, String prefix) {
    if (outcome.plan().scale() <= 0) {
      return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND,
          "the learned policy served no positive scale: some service fits on no GPU of the cluster under its SLO");
    }
    return result(problem, outcome.plan(), prefix + how(outcome));
  }

  /**
   * The fewest GPUs: episodes that stop once the demand is served (scale 1), on the cluster cut to a
   * budget of GPUs, the budget bisected between the largest that failed and the fewest GPUs a
   * served episode used. The policy is the placer inside every episode; the search only chooses
   * the cluster's size. The policy need not be monotone in the budget (a larger budget may tempt
   * it onto fresh GPUs), so the answer is the fewest GPUs of any served episode, not a proof.
   */
  private ColocationResult fewestGpus(ColocationProblem problem, ColocationEnvironment environment, long deadline) {
    int cluster = environment.clusterGpus();
    ColocationEnvironment.Outcome best = environment.run(policy::greedy, new ColocationEnvironment.Limits(cluster, 1));
    if (!serves(best)) {
      return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND, "the learned policy served the demand only at scale " + best.plan().scale()
          + " on the cluster's " + cluster + " GPUs (scale 1 needed): it needs more GPUs than the cluster has, or some service fits on none");
    }
    int first = best.plan().gpuCount();
    int failed = 0;
    int episodes = 1;
    while (best.plan().gpuCount() - failed > 1 && System.nanoTime() < deadline) {
      int budget = (failed + best.plan().gpuCount()) / 2;
      ColocationEnvironment.Outcome o = environment.run(policy::greedy, new ColocationEnvironment.Limits(budget, 1));
      episodes++;
      if (serves(o)) {
        best = o;
      } else {
        failed = budget;
      }
    }
    String search = (best.plan().gpuCount() - failed > 1
        ? "the time limit stopped the search over the cluster size after " + episodes + " episodes"
        : episodes + " episodes searching the cluster size") + " (the whole cluster's episode used " + first + " GPUs"
        + (failed > 0 ? ", a cluster of " + failed + " did not serve the demand)" : ")");
    int searched = best.plan().gpuCount();
    Consolidation consolidated = consolidate(problem, environment, best, deadline);
    String consolidation = "; consolidation " + (consolidated.best() == best ? "kept the " + searched + " GPUs"
        : "from " + searched + " to " + consolidated.best().plan().gpuCount() + " GPUs") + " in " + consolidated.episodes() + " episodes"
        + (consolidated.stopped() ? ", stopped by the time limit" : "");
    return result(problem, atScaleOne(consolidated.best()), "fewest GPUs, " + search + consolidation + "; the plan's last episode: "
        + how(consolidated.best()));
  }

  /** What {@link #consolidate} reached: the best served episode, the episodes it played, and whether the time limit stopped it. */
  private record Consolidation(ColocationEnvironment.Outcome best, int episodes, boolean stopped) {}

  /**
   * Local improvement after the search over the cluster's size: take one GPU out of the best plan
   * (then two), and let the policy re-place what they served on the rest within one GPU fewer — on
   * the room the remaining GPUs have left, and with two out, on one fresh GPU. Whatever serves the
   * demand replaces the plan, and the pass starts again on it; it ends when no removal serves, or at
   * the time limit. The GPUs serving the smallest share of the demand go first (a plan's last GPUs
   * often hold a leftover segment or two). The policy places every segment; the pass only chooses
   * which GPUs it may keep.
   */
  private Consolidation consolidate(ColocationProblem problem, ColocationEnvironment environment, ColocationEnvironment.Outcome best,
      long deadline) {
    int episodes = 0;
    boolean improved = true;
    while (improved) {
      improved = false;
      List<GpuConfiguration> gpus = best.plan().gpus();
      int n = gpus.size();
      if (n == 1) {
        break;
      }
      double[] share = new double[n];
      for (int g = 0; g < n; g++) {
        Map<String, Double> served = ColocationVerifier.throughputs(problem, new ColocationPlan(List.of(gpus.get(g)), 0));
        for (ColocationService service : problem.services()) {
          share[g] += served.get(service.id()) / service.rate();
        }
      }
      List<int[]> removals = new ArrayList<>();
      for (int g = 0; g < n; g++) {
        removals.add(new int[] {g});
      }
      for (int g = 0; g < n; g++) {
        for (int h = g + 1; h < n; h++) {
          removals.add(new int[] {g, h});
        }
      }
      removals.sort(Comparator.<int[]>comparingInt(r -> r.length).thenComparingDouble(r -> Arrays.stream(r).mapToDouble(g -> share[g]).sum()));
      for (int[] removal : removals) {
        if (System.nanoTime() >= deadline) {
          return new Consolidation(best, episodes, true);
        }
        List<GpuConfiguration> kept = new ArrayList<>(gpus);
        Arrays.stream(removal).boxed().sorted(Comparator.reverseOrder()).forEach(g -> kept.remove((int) g));
        ColocationEnvironment.Outcome o = environment.run(policy::greedy, new ColocationEnvironment.Limits(n - 1, 1), kept);
        episodes++;
        if (serves(o)) {
          best = o;
          improved = true;
          break;
        }
      }
    }
    return new Consolidation(best, episodes, false);
  }

  /** Every service served its rate, by the verifier's throughputs (the outcome's scale) and the library's one tolerance. */
  private static boolean serves(ColocationEnvironment.Outcome outcome) {
    return SloPredicate.meetsRate(outcome.plan().scale(), 1);
  }

  /** A served episode's plan claiming the demand (scale 1), as the fewest-GPUs objective asks. */
  private static ColocationPlan atScaleOne(ColocationEnvironment.Outcome outcome) {
    return new ColocationPlan(outcome.plan().gpus(), 1);
  }

  private static ColocationResult result(ColocationProblem problem, ColocationPlan plan, String how) {
    return new ColocationResult(SolveStatus.FEASIBLE, Optional.of(plan), OptionalDouble.of(ColocationVerifier.objectiveValue(problem, plan)),
        OptionalDouble.empty(), "learned policy: " + how);
  }

  private static String how(ColocationEnvironment.Outcome outcome) {
    return outcome.fellBackAt().isPresent()
        ? outcome.policySteps() + " steps by the policy, then " + outcome.fallbackSteps() + " by the heuristic fallback (from step "
            + outcome.fellBackAt().getAsInt() + ", when no candidate was legal)"
        : outcome.policySteps() + " steps, all by the policy";
  }

  /** The greedy episode behind {@link #plan}, with its step counts and decision times. */
  public ColocationEnvironment.Outcome run(ColocationProblem problem) {
    return new ColocationEnvironment(problem, topK).run(policy::greedy);
  }
}
