package org.rampa.strategy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.immutables.value.Value;
import org.rampa.domain.Invalid;
import org.rampa.domain.Plan;

/**
 * What a strategy answers: a status, the plan when there is one, a reason when there is not, how
 * long it took, and strategy-specific statistics (nodes explored, labels kept, ...).
 *
 * @since 0.1.0
 */
@Value.Immutable
@JsonSerialize(as = ImmutablePlacementResult.class)
@JsonDeserialize(as = ImmutablePlacementResult.class)
public abstract class PlacementResult {

  /** How the search ended. */
  public abstract SolveStatus status();

  /** The plan, present exactly when {@link SolveStatus#hasPlan()}. */
  public abstract Optional<Plan> plan();

  /** Why there is no plan (INFEASIBLE, NO_SOLUTION_IN_TIME, NO_PLAN_FOUND), or a note on the plan. */
  @Value.Default
  public String reason() {
    return "";
  }

  /** Time the strategy spent on the call, model building included. */
  public abstract Duration solveTime();

  /** The proven lower bound on the cost, when the strategy proves one. */
  public abstract OptionalDouble bound();

  /** Relative gap between the plan's cost and the bound (0 for OPTIMAL). */
  public abstract OptionalDouble gap();

  /** The name of the strategy that answered. */
  public abstract String strategy();

  /** Strategy-specific counters (candidates tried, labels created, arcs ...), by name. */
  public abstract Map<String, Double> statistics();

  /**
   * The fault domains the plan joins (docs/SHARING.md section 1): for each MPS GPU the plan shares, the
   * services on it once the plan is allocated, incumbents first and this service last. One
   * client's fatal error stops the MPS server and so every service listed with it. Empty for a
   * plan on whole GPUs or isolated slices, and then left out of the JSON, so results without
   * shares read exactly as before.
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public abstract Map<String, List<String>> mpsFaultDomains();

  /**
   * The planning margins on share-tier times the plan was made and verified under, per tier
   * ({@link org.rampa.perf.share.TierMargins#byLabel}), when the plan holds a stage on a shared GPU
   * and the margins are not none; empty otherwise, and then left out of the JSON, so results
   * without shares read exactly as before.
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public abstract Map<String, Double> shareMargins();

  @Value.Check
  protected void check() {
    if (status().hasPlan() && plan().isEmpty()) {
      throw Invalid.value("result.plan", "absent", "status " + status() + " requires a plan");
    }
    if (!status().hasPlan() && plan().isPresent()) {
      throw Invalid.value("result.plan", "present", "status " + status() + " carries no plan");
    }
    if (!status().hasPlan() && reason().isBlank()) {
      throw Invalid.value("result.reason", "\"\"", "status " + status() + " must say why there is no plan");
    }
    if (plan().isEmpty() && !shareMargins().isEmpty()) {
      throw Invalid.value("result.shareMargins", shareMargins(), "a result without a plan was planned under no margin");
    }
    if (plan().isEmpty() && !mpsFaultDomains().isEmpty()) {
      throw Invalid.value("result.mpsFaultDomains", mpsFaultDomains(), "a result without a plan joins no fault domain");
    }
  }

  /** A builder; status, strategy and solve time are required, the rest as the status demands. */
  public static ImmutablePlacementResult.Builder builder() {
    return ImmutablePlacementResult.builder();
  }

  /** An INFEASIBLE result of {@code strategy}: no plan meets the SLO on the state, because {@code reason}. */
  public static PlacementResult infeasible(String strategy, String reason, Duration solveTime) {
    return builder().status(SolveStatus.INFEASIBLE).strategy(strategy).reason(reason).solveTime(solveTime).build();
  }
}
