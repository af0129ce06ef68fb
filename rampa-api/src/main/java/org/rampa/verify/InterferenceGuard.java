package org.rampa.verify;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.rampa.domain.Allocation;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.InterferenceModel;

/**
 * The admission guard of SHARING.md section 3: admitting a plan onto shared GPUs changes its
 * neighbours' times, so the guard re-times every service on every GPU the plan touches (the
 * newcomer included) with its new co-runners, and refuses the plan when any of them would miss its
 * SLO, naming the service and the GPU and saying what might work instead. A refused admission
 * leaves the state as it was (states are immutable; nothing is returned).
 */
public final class InterferenceGuard {

  private final CoRunnerTimes times;

  public InterferenceGuard(PerformanceModel performance, InterferenceModel interference) {
    this.times = new CoRunnerTimes(Objects.requireNonNull(performance, "performance"), Objects.requireNonNull(interference, "interference"));
  }

  /** The default performance model and interference (linear, γ = 0.05; none under isolation). */
  public static InterferenceGuard defaults() {
    return new InterferenceGuard(PerformanceModel.defaults(), InterferenceModel.defaults());
  }

  /** Why admitting {@code plan} for {@code request} on {@code state} is refused; empty when it may be admitted. */
  public List<String> refusals(ClusterState state, ServiceRequest request, Plan plan) {
    Allocation allocation = Allocation.of(request, plan);
    List<String> conflicts = state.conflicts(allocation);
    if (!conflicts.isEmpty()) {
      return conflicts;
    }
    ClusterState after = state.allocate(allocation);
    List<String> refusals = new ArrayList<>();
    for (CoRunnerTimes.Retimed r : times.retime(after, gpus(plan))) {
      if (!r.meetsSlo()) {
        refusals.add(message(request.id(), r));
      }
    }
    return refusals;
  }

  /**
   * {@code state} with {@code request}'s plan admitted (its request and plan kept, so later
   * admissions can re-time it); refused, naming every service that would miss its SLO, otherwise.
   */
  public ClusterState admit(ClusterState state, ServiceRequest request, Plan plan) {
    List<String> refusals = refusals(state, request, plan);
    if (!refusals.isEmpty()) {
      throw new AllocationRefusedException(plan.serviceId(), refusals);
    }
    return state.allocate(Allocation.of(request, plan));
  }

  static Set<String> gpus(Plan plan) {
    Set<String> gpus = new LinkedHashSet<>();
    for (Stage s : plan.stages()) {
      gpus.addAll(s.gpus());
    }
    return gpus;
  }

  private static String message(String newcomer, CoRunnerTimes.Retimed r) {
    String who = r.service().equals(newcomer) ? "\"" + newcomer + "\" itself" : "incumbent \"" + r.service() + "\"";
    return String.format("admitting \"%s\": %s would miss its SLO on GPU \"%s\": with co-runners %s its stage %d runs %.3fx slower, "
            + "throughput %.4g req/s (needs %.4g), latency %.4g s (bound %.4g s). Maybe place \"%s\" on another GPU, on a MIG slice "
            + "(isolated from co-runners), or with fewer co-runners",
        newcomer, who, r.worstGpu(), r.coRunners(), r.worstStage(), r.worstSlowdown(), r.estimate().throughput(),
        r.request().slo().requiredThroughput(), r.estimate().latencySeconds(), r.request().slo().latencyBoundSeconds(), newcomer);
  }
}
