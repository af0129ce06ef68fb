package org.rampa.colocation;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.TierMargins;

/**
 * The cluster co-location problem (docs/SHARING.md section 5): a demand mix, a cluster of GPU pools, how
 * long a batch takes on a part of a GPU ({@link ShareTimeModel}) and how co-runners slow each other
 * ({@link InterferenceModel}), the SLO rule, the MPS admission rule, and what to optimise.
 */
public record ColocationProblem(
    List<ColocationService> services,
    List<GpuPool> pools,
    ShareTimeModel timeModel,
    InterferenceModel interference,
    SloRule sloRule,
    MpsAdmission admission,
    ColocationObjective objective) {

  public ColocationProblem {
    services = Invalid.listOf("problem.services", services);
    pools = Invalid.listOf("problem.pools", pools);
    Objects.requireNonNull(timeModel, "timeModel");
    Objects.requireNonNull(interference, "interference");
    Objects.requireNonNull(sloRule, "sloRule");
    Objects.requireNonNull(admission, "admission");
    Objects.requireNonNull(objective, "objective");
    if (services.isEmpty()) {
      throw Invalid.value("services", services, "must not be empty", "a demand mix needs at least one service");
    }
    if (pools.isEmpty()) {
      throw Invalid.value("pools", pools, "must not be empty", "give the cluster at least one GPU type with a count");
    }
    Set<String> ids = new HashSet<>();
    for (ColocationService s : services) {
      if (!ids.add(s.id())) {
        throw Invalid.value("services.id", s.id(), "service ids must be unique");
      }
    }
    Set<String> types = new HashSet<>();
    for (GpuPool p : pools) {
      if (!types.add(p.type().name())) {
        throw Invalid.value("pools.type", p.type().name(), "each GPU type may appear in one pool only", "add the counts up");
      }
    }
  }

  /**
   * The same problem whose time model remembers every answer: time models are pure functions of
   * the stage, and a co-location planner asks the same (model, part, batch) for many services and
   * GPUs. Planners call this once per plan; the verifier's answers are the same either way.
   */
  public ColocationProblem memoized() {
    if (timeModel instanceof MemoizedTimeModel) {
      return this;
    }
    return new ColocationProblem(services, pools, new MemoizedTimeModel(timeModel), interference, sloRule, admission, objective);
  }

  /**
   * The same problem planned with {@code margins}: every stage time is its nominal time times
   * {@code 1 + margin} of the tier that answered it ({@link ShareTimeModel#withMargins}). Planners
   * and {@link ColocationVerifier} both read times from the problem, so a plan is verified under the
   * very margin it was planned under; {@link #nominal()} gives the margin-free problem to check it
   * against as well.
   */
  public ColocationProblem withMargins(TierMargins margins) {
    return new ColocationProblem(services, pools, timeModel.withMargins(margins), interference, sloRule, admission, objective);
  }

  /** The margins this problem's stage times include (none unless {@link #withMargins} added some). */
  public TierMargins margins() {
    return timeModel.margins();
  }

  /** The same problem without margins. */
  public ColocationProblem nominal() {
    return margins().isNone() ? this : new ColocationProblem(services, pools, timeModel.nominal(), interference, sloRule, admission, objective);
  }

  /** The same problem with another objective. */
  public ColocationProblem withObjective(ColocationObjective other) {
    return new ColocationProblem(services, pools, timeModel, interference, sloRule, admission, other);
  }

  public ColocationService service(String id) {
    for (ColocationService s : services) {
      if (s.id().equals(id)) {
        return s;
      }
    }
    throw Invalid.value("segment.service", id, "is not a service of the demand mix", "use one of " + services.stream().map(ColocationService::id).toList());
  }

  public GpuPool pool(String gpuType) {
    for (GpuPool p : pools) {
      if (p.type().name().equals(gpuType)) {
        return p;
      }
    }
    throw Invalid.value("configuration.gpuType", gpuType, "is not a GPU type of the cluster", "use one of " + pools.stream().map(p -> p.type().name()).toList());
  }
}
