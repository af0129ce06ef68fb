package org.rampa.verify;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.rampa.domain.AdmissionRule;
import org.rampa.domain.Allocation;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.domain.share.Placement;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.InterferenceModel;

/**
 * The admission guard of docs/SHARING.md section 3: admitting a plan onto shared GPUs changes its
 * neighbours' times, so the guard re-times every service on every GPU the plan touches (the
 * newcomer included) with its new co-runners, and refuses the plan when any of them would miss its
 * SLO, naming the service and the GPU and saying what might work instead. A refused admission
 * leaves the state as it was (states are immutable; nothing is returned).
 */
public final class InterferenceGuard implements AdmissionRule {

  private final CoRunnerTimes times;

  public InterferenceGuard(PerformanceModel performance, InterferenceModel interference) {
    this.times = new CoRunnerTimes(Objects.requireNonNull(performance, "performance"), Objects.requireNonNull(interference, "interference"));
  }

  /** The default performance model and interference (linear, γ = 0.05; none under isolation). */
  public static InterferenceGuard defaults() {
    return new InterferenceGuard(PerformanceModel.defaults(), InterferenceModel.defaults());
  }

  /** Why admitting {@code plan} for {@code request} on {@code state} is refused; empty when it may be admitted. */
  @Override
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

  /**
   * The slowdown α a new holding of {@code placement} on {@code gpu} would see from everything
   * {@code state} holds there, before the newcomer's stage is known: the largest α over the
   * corners of its utilisations (L2 and DRAM each 0 or 1, DRAM demand its compute fraction of the
   * card's bandwidth when memory-bound), so an upper bound under every model that is linear or
   * monotone in the newcomer's utilisations (none, linear, gpu-lets, bandwidth overflow) and exact
   * under the linear default, which counts co-runners only. 1 on an empty GPU and on isolated
   * placements.
   */
  public double newcomerSlowdown(ClusterState state, String gpu, Placement placement) {
    List<CoRunner> incumbents = times.incumbents(state, gpu);
    if (incumbents.isEmpty()) {
      return 1;
    }
    double worst = 1;
    for (CoRunner self : corners(state, gpu, placement)) {
      worst = Math.max(worst, times.slowdown(state, gpu, self, incumbents));
    }
    return worst;
  }

  /**
   * How many new holdings of {@code placement} {@code gpu} can take, at most {@code cap}, before a
   * service already on it (with its request and plan in the ledger) would miss its SLO: the guard's
   * rule (re-time every incumbent with its co-runners, judge by {@code SloPredicate}) with the new
   * holdings as fully memory-bound co-runners, the worst case the guard assumes for a holding it
   * cannot re-time. Compute sums, client limits and memory are not this count's business (the
   * ledger's rules judge them); {@code cap} when no incumbent can be re-timed.
   */
  public int incumbentBudget(ClusterState state, String gpu, Placement placement, int cap) {
    if (state.holdingsOn(gpu).isEmpty()) {
      return cap;
    }
    return times.budget(state, gpu, worstCase(state, gpu, placement, 1, 1), cap);
  }

  /**
   * Everything {@code state} holds on {@code gpu} as co-runners, but stage {@code stage} of
   * {@code service}: the neighbours this guard re-times that stage against. Holdings without a
   * request and plan count as fully memory-bound.
   */
  public List<CoRunner> coRunnersOn(ClusterState state, String gpu, String service, int stage) {
    return times.others(state, service, stage, gpu);
  }

  /** Stage {@code stage} of {@code service} (placed in {@code state} with its request and plan) on {@code gpu}, as a co-runner. */
  public CoRunner coRunnerOf(ClusterState state, String service, int stage, String gpu) {
    return times.coRunner(state, state.allocations().get(service), stage, gpu);
  }

  private static List<CoRunner> corners(ClusterState state, String gpu, Placement placement) {
    return List.of(worstCase(state, gpu, placement, 1, 1), worstCase(state, gpu, placement, 1, 0),
        worstCase(state, gpu, placement, 0, 1), worstCase(state, gpu, placement, 0, 0));
  }

  private static CoRunner worstCase(ClusterState state, String gpu, Placement placement, double l2, double dram) {
    double share = Math.min(1, placement.computeFraction(state.partitioning(gpu)));
    double bandwidth = state.cluster().typeOf(gpu).effectiveBandwidthBytesPerSecond();
    return new CoRunner(NEWCOMER, placement, share, l2, dram, dram * share * bandwidth);
  }

  /** The name a not-yet-placed newcomer goes by in what-if probes (no service id can be blank-prefixed like this). */
  private static final String NEWCOMER = " newcomer";

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
