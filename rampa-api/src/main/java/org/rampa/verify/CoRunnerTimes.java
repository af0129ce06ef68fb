package org.rampa.verify;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.GpuType;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.SharedStage;

/**
 * Re-times the services holding parts of some GPUs with the co-runners the ledger puts next to
 * them (docs/SHARING.md section 3): each stage's time alone comes from the performance model, is
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
        out.add(retime(state, a, extra));
      }
    }
    return out;
  }

  /**
   * What re-timings can share: each ledger entry's prediction alone and its stages' co-runner
   * profiles on their GPUs. Both depend on the entry (its request and plan), the cluster and the
   * performance model only, never on who else holds the GPUs, so they are kept per entry, by
   * identity: a state's successors ({@link ClusterState#allocate}) hold the very same entries, so
   * probes and verifications of candidate plans on one ledger predict each incumbent alone once.
   * One memo serves every re-timer ({@link #SHARED}): a placement builds several guards and
   * verifiers, and a scheduler's consecutive decisions see mostly the same entries, which each new
   * guard would otherwise predict again (on a full 1000-GPU cluster that was a quarter of a slot
   * menu). An entry is kept per cluster (by identity) and performance model (by equality: every
   * placement with sharing on builds its own, equal to the one before), at most
   * {@link #MODELS_PER_ENTRY} of them (verifiers of a margined and a nominal model alternate); the
   * memo is emptied when it grows past {@link #MEMO_LIMIT} entries. Safe to share between threads.
   */
  static final class Memo {
    private final Map<Allocation, List<Entry>> entries = new IdentityHashMap<>();

    private record Entry(Cluster cluster, PerformanceModel performance, PlanEstimate alone, Map<String, CoRunner> coRunners) {}

    private Entry entry(ClusterState state, Allocation a, PerformanceModel performance) {
      synchronized (entries) {
        for (Entry e : entries.getOrDefault(a, List.of())) {
          if (e.cluster() == state.cluster() && e.performance().equals(performance)) {
            return e;
          }
        }
      }
      PlanEstimate alone = performance.estimate(a.request().get(), PerformanceModel.assignmentsOf(a.plan().get()), state.cluster());
      Entry e = new Entry(state.cluster(), performance, alone, new ConcurrentHashMap<>());
      synchronized (entries) {
        if (entries.size() >= MEMO_LIMIT) {
          entries.clear();
        }
        List<Entry> kept = entries.computeIfAbsent(a, k -> new ArrayList<>(1));
        if (kept.size() == MODELS_PER_ENTRY) {
          kept.remove(0);
        }
        kept.add(e);
      }
      return e;
    }
  }

  /** Ledger entries the memo keeps before it is emptied (a long-lived verifier sees endless ledgers). */
  static final int MEMO_LIMIT = 4096;

  /** Cluster and performance model pairs the memo keeps per ledger entry, the oldest dropped first. */
  static final int MODELS_PER_ENTRY = 4;

  /** The one memo of every re-timer. */
  private static final Memo SHARED = new Memo();

  /** Everything already on {@code gpu} in {@code state}, as the co-runners of a newcomer there. */
  List<CoRunner> incumbents(ClusterState state, String gpu) {
    return others(state, "", -1, gpu);
  }

  /** α of {@code self} against {@code others} on {@code gpu}, by this model. */
  double slowdown(ClusterState state, String gpu, CoRunner self, List<CoRunner> others) {
    return interference.slowdown(state.cluster().typeOf(gpu), self, others);
  }

  private Retimed retime(ClusterState state, Allocation allocation, Map<String, List<CoRunner>> extra) {
    ServiceRequest request = allocation.request().get();
    Plan plan = allocation.plan().get();
    List<Double> slowdowns = new ArrayList<>();
    int worstStage = 0;
    String worstGpu = plan.stages().get(0).gpus().get(0);
    double worst = 1;
    List<String> worstCoRunners = List.of();
    for (int i = 0; i < plan.stages().size(); i++) {
      Stage s = plan.stages().get(i);
      CoRunner self = coRunner(state, allocation, i, s.gpus().get(0));
      double alpha = 1;
      for (String g : s.gpus()) {
        List<CoRunner> others = others(state, request.id(), i, g);
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
    PlanEstimate e = performance.slowed(request, PerformanceModel.assignmentsOf(plan), SHARED.entry(state, allocation, performance).alone(),
        slowdowns);
    return new Retimed(request.id(), request, e, worstStage, worstGpu, worst, worstCoRunners, SloPredicate.meets(e, request.slo()));
  }

  /**
   * The least {@code n - 1} over {@code n = 1..cap} such that some described service on
   * {@code gpu} misses its SLO once {@code n} copies of {@code newcomer} join it there ({@code cap}
   * when none does): what re-timing the services with {@link #retime(ClusterState, Collection, Map)}
   * for each {@code n} in turn finds, with the same co-runner lists in the same order, so the same
   * slowdowns. Each service's stages on other GPUs, and its co-runners on this one, are looked up
   * once rather than once per {@code n}.
   */
  int budget(ClusterState state, String gpu, CoRunner newcomer, int cap) {
    int limit = cap;
    GpuType type = state.cluster().typeOf(gpu);
    for (String id : state.servicesOn(gpu)) {
      Allocation a = state.allocations().get(id);
      if (a.request().isPresent()) {
        limit = Math.min(limit, budget(state, a, gpu, type, newcomer, limit));
        if (limit == 0) {
          return 0;
        }
      }
    }
    return limit;
  }

  /** As {@link #budget(ClusterState, String, CoRunner, int)} for one service, checking {@code n = 1..cap}. */
  private int budget(ClusterState state, Allocation allocation, String gpu, GpuType type, CoRunner newcomer, int cap) {
    ServiceRequest request = allocation.request().get();
    Plan plan = allocation.plan().get();
    int stages = plan.stages().size();
    double[] elsewhere = new double[stages];
    CoRunner[] self = new CoRunner[stages];
    List<List<CoRunner>> here = new ArrayList<>(stages);
    for (int i = 0; i < stages; i++) {
      Stage s = plan.stages().get(i);
      self[i] = coRunner(state, allocation, i, s.gpus().get(0));
      double alpha = 1;
      List<CoRunner> onGpu = null;
      for (String g : s.gpus()) {
        if (g.equals(gpu)) {
          onGpu = new ArrayList<>(others(state, request.id(), i, g));
        } else {
          double a = interference.slowdown(state.cluster().typeOf(g), self[i], others(state, request.id(), i, g));
          if (a > alpha) {
            alpha = a; // as retime takes the largest, NaN never
          }
        }
      }
      elsewhere[i] = alpha;
      here.add(onGpu);
    }
    PlanEstimate alone = SHARED.entry(state, allocation, performance).alone();
    List<StageAssignment> assignments = PerformanceModel.assignmentsOf(plan);
    for (int n = 1; n <= cap; n++) {
      List<Double> slowdowns = new ArrayList<>(stages);
      for (int i = 0; i < stages; i++) {
        double alpha = elsewhere[i];
        List<CoRunner> onGpu = here.get(i);
        if (onGpu != null) {
          onGpu.add(newcomer); // the n-th copy, after the incumbents and the n - 1 before it
          double a = interference.slowdown(type, self[i], onGpu);
          if (a > alpha) {
            alpha = a;
          }
        }
        slowdowns.add(alpha);
      }
      if (!SloPredicate.meets(performance.slowed(request, assignments, alone, slowdowns), request.slo())) {
        return n - 1;
      }
    }
    return cap;
  }

  /** Everything on {@code gpu} but stage {@code stage} of {@code service}. */
  List<CoRunner> others(ClusterState state, String service, int stage, String gpu) {
    List<CoRunner> others = new ArrayList<>();
    for (String id : state.servicesOn(gpu)) {
      Allocation a = state.allocations().get(id);
      if (a.plan().isPresent()) {
        Plan p = a.plan().get();
        for (int j = 0; j < p.stages().size(); j++) {
          if (p.stages().get(j).gpus().contains(gpu) && !(a.serviceId().equals(service) && j == stage)) {
            others.add(coRunner(state, a, j, gpu));
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

  CoRunner coRunner(ClusterState state, Allocation allocation, int stage, String gpu) {
    Memo.Entry entry = SHARED.entry(state, allocation, performance);
    return entry.coRunners().computeIfAbsent(stage + "\u0000" + gpu, k -> {
      ServiceRequest request = allocation.request().get();
      Stage s = allocation.plan().get().stages().get(stage);
      GpuType type = state.cluster().typeOf(gpu);
      SharedStage shared = new SharedStage(request.model(), s.from(), s.to(), request.slo().batchSize(), type, state.partitioning(gpu), s.placement());
      return CoRunner.of(request.id(), shared, entry.alone().stageComputeSeconds().get(stage));
    });
  }

  private static CoRunner undescribed(ClusterState state, String service, Holding h) {
    double share = state.computeFraction(h);
    return new CoRunner(service, h.placement(), share, 1, 1, share * state.cluster().typeOf(h.gpu()).effectiveBandwidthBytesPerSecond());
  }
}
