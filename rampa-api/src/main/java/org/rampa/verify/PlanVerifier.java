package org.rampa.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.Stage;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.verify.Violation.Kind;

/**
 * The one independent check every plan goes through. It trusts nothing a strategy computed: it
 * rebuilds the placement from the plan's layer ranges and GPU ids alone, recomputes throughput,
 * latency and memory with the performance model, checks them against the SLO and the cluster state
 * the plan is to be allocated on, and reports predictions in the plan that disagree.
 *
 * <p>The SLO is judged by {@link SloPredicate}, the comparison every strategy's search uses too, on
 * the recomputed throughput and latency. A plan's stated period, latency, throughput and stage
 * times must agree with the recomputed ones to a relative millionth or 2 ns, whichever is larger
 * (predictions are stored as whole nanoseconds). Memory has no tolerance.
 *
 * @since 0.1.0
 */
public final class PlanVerifier {

  /** Relative tolerance for comparing a plan's predictions with the recomputed ones. */
  private static final double RELATIVE_TOLERANCE = 1e-6;
  /**
   * The absolute tolerance on a plan's stated times (predictions are stored as whole nanoseconds);
   * public so that relaxations of the verifier (the offline bound) widen by exactly this.
   */
  public static final double ABSOLUTE_TOLERANCE_SECONDS = 2e-9;

  private final PerformanceModel performance;
  private final CoRunnerTimes coRunnerTimes;

  public PlanVerifier(PerformanceModel performance) {
    this(performance, InterferenceModel.defaults());
  }

  /** A verifier that judges co-runners on shared GPUs by {@code interference}. */
  public PlanVerifier(PerformanceModel performance, InterferenceModel interference) {
    this.performance = performance;
    this.coRunnerTimes = new CoRunnerTimes(performance, interference);
  }

  public static PlanVerifier defaults() {
    return new PlanVerifier(PerformanceModel.defaults());
  }

  /** Checks {@code plan} for {@code request} against {@code state}, which must not hold it yet. */
  public Verification verify(ServiceRequest request, Plan plan, ClusterState state) {
    List<Violation> v = new ArrayList<>();
    Cluster cluster = state.cluster();
    if (!plan.serviceId().equals(request.id())) {
      v.add(new Violation(Kind.WRONG_SERVICE, "plan is for \"" + plan.serviceId() + "\", the request is \"" + request.id() + "\""));
    }
    checkCoverage(request, plan, v);
    if (plan.stages().size() > request.maxStages()) {
      v.add(new Violation(Kind.TOO_MANY_STAGES, plan.stages().size() + " stages > maxStages " + request.maxStages()));
    }
    boolean gpusKnown = checkGpus(plan, cluster, v);
    if (!v.isEmpty() && !gpusKnown) {
      return new Verification(v, Optional.empty());
    }
    for (String conflict : state.conflicts(plan)) {
      v.add(new Violation(Kind.RESOURCE_CONFLICT, conflict));
    }
    boolean placeable = checkPlacements(plan, cluster, v);
    if (!placeable || v.stream().anyMatch(x -> x.kind() == Kind.COVERAGE || x.kind() == Kind.MIXED_REPLICA_TYPES)) {
      return new Verification(v, Optional.empty());
    }
    PlanEstimate e = performance.estimate(request, PerformanceModel.assignmentsOf(plan), cluster);
    checkMemory(plan, cluster, e, v);
    checkSlo(request.slo(), e, v);
    checkPredictions(plan, e, v);
    if (v.stream().noneMatch(x -> x.kind() == Kind.RESOURCE_CONFLICT) && shares(plan, state)) {
      checkCoRunners(request, plan, state, v);
    }
    return new Verification(v, Optional.of(e));
  }

  /** True when a GPU of the plan is held by anyone else or carries two of the plan's stages. */
  private static boolean shares(Plan plan, ClusterState state) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Stage s : plan.stages()) {
      for (String g : s.gpus()) {
        if (!state.isFree(g) || !seen.add(g)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Every service on every GPU the plan touches, re-timed from the ledger with the plan admitted:
   * co-runners slow each other, so admitting the plan may break a neighbour's SLO or its own.
   */
  private void checkCoRunners(ServiceRequest request, Plan plan, ClusterState state, List<Violation> v) {
    ClusterState after = state.allocate(Allocation.of(request, plan));
    for (CoRunnerTimes.Retimed r : coRunnerTimes.retime(after, InterferenceGuard.gpus(plan))) {
      if (!r.meetsSlo()) {
        v.add(new Violation(Kind.INTERFERENCE, String.format(
            "service \"%s\" misses its SLO with co-runners %s on GPU \"%s\" (stage %d %.3fx slower): throughput %.6g req/s, latency %.6g s",
            r.service(), r.coRunners(), r.worstGpu(), r.worstStage(), r.worstSlowdown(), r.estimate().throughput(), r.estimate().latencySeconds())));
      }
    }
  }

  private static void checkCoverage(ServiceRequest request, Plan plan, List<Violation> v) {
    int expected = 0;
    for (Stage s : plan.stages()) {
      if (s.from() != expected) {
        v.add(new Violation(Kind.COVERAGE, "stage [" + s.from() + ", " + s.to() + ") should start at layer " + expected
            + ": stages must be contiguous and in model order"));
        return;
      }
      expected = s.to();
    }
    int layers = request.model().size();
    if (expected != layers) {
      v.add(new Violation(Kind.COVERAGE, "stages end at layer " + expected + " but the model has " + layers + " layers"));
    }
  }

  private static boolean checkGpus(Plan plan, Cluster cluster, List<Violation> v) {
    boolean known = true;
    for (Stage s : plan.stages()) {
      String type = null;
      for (String g : s.gpus()) {
        if (!cluster.hasGpu(g)) {
          v.add(new Violation(Kind.UNKNOWN_GPU, "GPU \"" + g + "\" of stage [" + s.from() + ", " + s.to() + ") is not in the cluster"));
          known = false;
          continue;
        }
        String t = cluster.gpu(g).type();
        if (type == null) {
          type = t;
        } else if (!type.equals(t)) {
          v.add(new Violation(Kind.MIXED_REPLICA_TYPES,
              "stage [" + s.from() + ", " + s.to() + ") mixes GPU types " + type + " and " + t + " among its replicas"));
        }
      }
    }
    return known;
  }

  /**
   * Whether every stage's placement exists on its GPUs' type (a MIG slice on a GPU without MIG, an
   * unknown template): a plan from elsewhere may ask for one, and then it cannot even be timed.
   */
  private static boolean checkPlacements(Plan plan, Cluster cluster, List<Violation> v) {
    boolean ok = true;
    for (Stage s : plan.stages()) {
      for (String g : s.gpus()) {
        try {
          DeviceKind.of(cluster.typeOf(g), s.placement());
        } catch (IllegalArgumentException e) {
          v.add(new Violation(Kind.PLACEMENT, "stage [" + s.from() + ", " + s.to() + ") on GPU \"" + g + "\": " + e.getMessage()));
          ok = false;
        }
      }
    }
    return ok;
  }

  private static void checkMemory(Plan plan, Cluster cluster, PlanEstimate e, List<Violation> v) {
    for (int i = 0; i < plan.stages().size(); i++) {
      Stage s = plan.stages().get(i);
      long need = e.stageMemoryBytes().get(i);
      for (String g : s.gpus()) {
        DeviceKind kind = DeviceKind.of(cluster.typeOf(g), s.placement());
        if (need > kind.memoryBytes()) {
          v.add(new Violation(Kind.MEMORY, String.format(
              "stage [%d, %d) needs %d B but GPU \"%s\" (%s) has %d B", s.from(), s.to(), need, g, kind.name(), kind.memoryBytes())));
        }
      }
      if (s.memoryBytes() < need) {
        v.add(new Violation(Kind.MEMORY, String.format(
            "stage [%d, %d) reserves %d B but needs %d B", s.from(), s.to(), s.memoryBytes(), need)));
      }
    }
  }

  private static void checkSlo(Slo slo, PlanEstimate e, List<Violation> v) {
    if (!SloPredicate.meetsThroughput(e.throughput(), slo)) {
      v.add(new Violation(Kind.THROUGHPUT, String.format(
          "throughput %.6g req/s < required %.6g req/s", e.throughput(), slo.requiredThroughput())));
    }
    if (!SloPredicate.meetsLatency(e.latencySeconds(), slo)) {
      v.add(new Violation(Kind.LATENCY, String.format(
          "latency %.6g s > bound %.6g s", e.latencySeconds(), slo.latencyBoundSeconds())));
    }
  }

  private static void checkPredictions(Plan plan, PlanEstimate e, List<Violation> v) {
    compare("period", seconds(plan.period()), e.periodSeconds(), v);
    compare("latency", seconds(plan.latency()), e.latencySeconds(), v);
    if (Double.isFinite(e.throughput())) {
      compare("throughput", plan.throughput(), e.throughput(), v);
    }
    for (int i = 0; i < plan.stages().size(); i++) {
      compare("stage " + i + " compute time", seconds(plan.stages().get(i).computeTime()), e.stageComputeSeconds().get(i), v);
    }
  }

  private static void compare(String what, double claimed, double actual, List<Violation> v) {
    double tolerance = Math.max(ABSOLUTE_TOLERANCE_SECONDS, RELATIVE_TOLERANCE * Math.abs(actual));
    if (Math.abs(claimed - actual) > tolerance) {
      v.add(new Violation(Kind.PREDICTION_MISMATCH, String.format(
          "plan claims %s %.9g, recomputed %.9g", what, claimed, actual)));
    }
  }

  private static double seconds(java.time.Duration d) {
    return d.toNanos() * 1e-9;
  }
}
