package org.rampa.heuristics.learned;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.domain.Invalid;
import org.rampa.strategy.SolveStatus;

/**
 * The learned co-location policy, {@code learned}: plays one episode of {@link
 * ColocationEnvironment} choosing each step's highest-scoring legal candidate, and returns its plan
 * (verified when obtained from {@link org.rampa.heuristics.colocation.ColocationPlanners} or wrapped
 * in {@link org.rampa.colocation.VerifiedColocationPlanner}). Deterministic: the same problem and weights give
 * the same plan. The episode runs to its end (each step is milliseconds), so the time limit is not
 * consulted.
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
    ColocationEnvironment.Outcome outcome = run(problem);
    ColocationPlan plan = outcome.plan();
    if (plan.scale() <= 0) {
      return ColocationResult.noPlan(SolveStatus.NO_PLAN_FOUND,
          "the learned policy served no positive scale: some service fits on no GPU of the cluster under its SLO");
    }
    String how = outcome.fellBackAt().isPresent()
        ? outcome.policySteps() + " steps by the policy, then " + outcome.fallbackSteps() + " by the heuristic fallback (from step "
            + outcome.fellBackAt().getAsInt() + ", when no candidate was legal)"
        : outcome.policySteps() + " steps, all by the policy";
    return new ColocationResult(SolveStatus.FEASIBLE, Optional.of(plan), OptionalDouble.of(plan.scale()), OptionalDouble.empty(),
        "learned policy: " + how);
  }

  /** The greedy episode behind {@link #plan}, with its step counts and decision times. */
  public ColocationEnvironment.Outcome run(ColocationProblem problem) {
    return new ColocationEnvironment(problem, topK).run(policy::greedy);
  }
}
