package org.rampa.verify;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.SharedStage;

/**
 * Re-times the services holding parts of some GPUs with the co-runners the ledger puts next to
 * them (SHARING.md section 3): each stage's time alone comes from the performance model, is
 * multiplied by the largest slowdown α over its replicas' GPUs, and the service's throughput and
 * latency are recomputed and judged by {@link SloPredicate}. Everything comes from the ledger: the
 * plans' own predictions are not read.
 *
 * <p>A holding whose allocation carries no request and plan cannot be re-timed; as a co-runner it
 * is assumed fully memory-bound (L2 and DRAM utilisation 1, demanding its compute fraction of the
 * bus), the worst case for its neighbours.
 */
final class CoRunnerTimes {

  /** One service re-timed with its co-runners; {@code gpu} is where its worst-slowed stage's α came from. */
  record Retimed(String service, ServiceRequest request, PlanEstimate estimate, int worstStage, String worstGpu,
      double worstSlowdown, List<String> coRunners, boolean meetsSlo) {}

  private final PerformanceModel performance;
  private final InterferenceModel interference;

  CoRunnerTimes(PerformanceModel performance, InterferenceModel interference) {
    this.performance = performance;
    this.interference = interference;
  }

  /** Every described service holding part of {@code gpus} in {@code state}, re-timed. */
  List<Retimed> retime(ClusterState state, Collection<String> gpus) {
    return retime(state, gpus, Map.of());
  }

  /**
   * As {@link #retime(ClusterState, Collection)} with {@code extra} co-runners added on their GPUs
   * as if they held parts of them too: what-if probes of newcomers that are not in the ledger.
   */
  List<Retimed> retime(ClusterState state, Collection<String> gpus, Map<String, List<CoRunner>> extra) {
    return retime(state, gpus, extra, new Memo());
  }

  /**
   * What one state's re-timings can share: each service's prediction alone, and each stage's
   * co-runner profile on a GPU (both depend on the ledger only, not on added co-runners).
   */
  static final class Memo {
    private final Map<String, PlanEstimate> alone = new HashMap<>();
    private final Map<String, CoRunner> coRunners = new HashMap<>();
  }

  /**
   * As {@link #retime(ClusterState, Collection, Map)} reusing {@code memo} of earlier calls on the
   * same state, so probes that add co-runners one by one predict each service alone once.
   */
  List<Retimed> retime(ClusterState state, Collection<String> gpus, Map<String, List<CoRunner>> extra, Memo memo) {
    Set<String> services = new LinkedHashSet<>();
    for (String g : gpus) {
      if (state.holdingsOn(g).size() + extra.getOrDefault(g, List.of()).size() > 1) {
        services.addAll(state.servicesOn(g));
      }
    }
    List<Retimed> out = new ArrayList<>();
    for (String id : services) {
      Allocation a = state.allocations().get(id);
      if (a.request().isPresent()) {
        out.add(retime(state, a.request().get(), a.plan().get(), memo, extra));
      }
    }
    return out;
  }

  /** Everything already on {@code gpu} in {@code state}, as the co-runners of a newcomer there. */
  List<CoRunner> incumbents(ClusterState state, String gpu) {
    return others(state, "", -1, gpu, new Memo());
  }

  /** α of {@code self} against {@code others} on {@code gpu}, by this model. */
  double slowdown(ClusterState state, String gpu, CoRunner self, List<CoRunner> others) {
    return interference.slowdown(state.cluster().typeOf(gpu), self, others);
  }

  private Retimed retime(ClusterState state, ServiceRequest request, Plan plan, Memo memo,
      Map<String, List<CoRunner>> extra) {
    List<Double> slowdowns = new ArrayList<>();
    int worstStage = 0;
    String worstGpu = plan.stages().get(0).gpus().get(0);
    double worst = 1;
    List<String> worstCoRunners = List.of();
    for (int i = 0; i < plan.stages().size(); i++) {
      Stage s = plan.stages().get(i);
      CoRunner self = coRunner(state, request, plan, i, s.gpus().get(0), memo);
      double alpha = 1;
      for (String g : s.gpus()) {
        List<CoRunner> others = others(state, request.id(), i, g, memo);
        if (extra.containsKey(g)) {
          others = new ArrayList<>(others);
          others.addAll(extra.get(g));
        }
        double a = interference.slowdown(state.cluster().typeOf(g), self, others);
        if (a > alpha) {
          alpha = a;
        }
        if (a > worst) {
          worst = a;
          worstStage = i;
          worstGpu = g;
          worstCoRunners = others.stream().map(CoRunner::service).distinct().toList();
        }
      }
      slowdowns.add(alpha);
    }
    PlanEstimate e = performance.estimate(request, PerformanceModel.assignmentsOf(plan), state.cluster(), slowdowns);
    return new Retimed(request.id(), request, e, worstStage, worstGpu, worst, worstCoRunners, SloPredicate.meets(e, request.slo()));
  }

  /** Everything on {@code gpu} but stage {@code stage} of {@code service}. */
  private List<CoRunner> others(ClusterState state, String service, int stage, String gpu, Memo memo) {
    List<CoRunner> others = new ArrayList<>();
    for (String id : state.servicesOn(gpu)) {
      Allocation a = state.allocations().get(id);
      if (a.plan().isPresent()) {
        Plan p = a.plan().get();
        for (int j = 0; j < p.stages().size(); j++) {
          if (p.stages().get(j).gpus().contains(gpu) && !(a.serviceId().equals(service) && j == stage)) {
            others.add(coRunner(state, a.request().get(), p, j, gpu, memo));
          }
        }
      } else {
        for (Holding h : a.holdings()) {
          if (h.gpu().equals(gpu)) {
            others.add(undescribed(state, a.serviceId(), h));
          }
        }
      }
    }
    return others;
  }

  private CoRunner coRunner(ClusterState state, ServiceRequest request, Plan plan, int stage, String gpu, Memo memo) {
    return memo.coRunners.computeIfAbsent(request.id() + '\u0000' + stage + '\u0000' + gpu, k -> {
      Stage s = plan.stages().get(stage);
      GpuType type = state.cluster().typeOf(gpu);
      PlanEstimate e = memo.alone.computeIfAbsent(request.id(),
          id -> performance.estimate(request, PerformanceModel.assignmentsOf(plan), state.cluster()));
      SharedStage shared = new SharedStage(request.model(), s.from(), s.to(), request.slo().batchSize(), type, state.partitioning(gpu), s.placement());
      return CoRunner.of(request.id(), shared, e.stageComputeSeconds().get(stage));
    });
  }

  private static CoRunner undescribed(ClusterState state, String service, Holding h) {
    double share = state.computeFraction(h);
    return new CoRunner(service, h.placement(), share, 1, 1, share * state.cluster().typeOf(h.gpu()).effectiveBandwidthBytesPerSecond());
  }
}
