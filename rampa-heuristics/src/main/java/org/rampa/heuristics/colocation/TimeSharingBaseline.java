package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;

/**
 * Time-sharing without a spatial share ({@code time-sharing}): services take turns on whole GPUs
 * ({@link GpuConfiguration#timeShared()}); on a MIG GPU whose whole-card time the time model does
 * not know (ParvaGPU's tables), on its largest instance, as the exclusive baseline does. Each
 * service runs at its best batch under the SLO rule on as many GPUs of its own as its demand fills;
 * what remains of its demand becomes a tenant that joins, first fit, a time-shared GPU of the same
 * type. On a GPU the round may last as
 * long as its tightest tenant's SLO rule allows; tenant i runs k_i = ⌈remaining demand × round /
 * batch⌉ batches per round (k_i whole segments), and it fits when the batches' busy time fits in the
 * round and every tenant's process fits the card's memory. A joining tenant tries each of its
 * batches and takes the one that adds the least busy time; a tenant that fits no GPU opens one.
 */
final class TimeSharingBaseline extends DemandPlanner {

  @Override
  public String name() {
    return "time-sharing";
  }

  @Override
  boolean servable(ColocationProblem problem, SegmentMenu menu, ColocationService service) {
    return best(problem, menu, service).isPresent();
  }

  @Override
  Optional<ColocationPlan> packAt(ColocationProblem problem, SegmentMenu menu, double scale, long deadline) {
    List<GpuConfiguration> alone = new ArrayList<>();
    List<SharedGpu> shared = new ArrayList<>();
    Map<GpuPool, Integer> used = new HashMap<>();
    List<Tenant> rest = new ArrayList<>();
    for (ColocationService s : problem.services()) {
      SegmentOption best = best(problem, menu, s).orElseThrow();
      GpuPool pool = problem.pool(best.gpuType());
      double demand = s.rate() * scale;
      double fills = Math.floor(demand / best.throughput());
      if (fills > pool.count()) {
        return Optional.empty(); // more GPUs of its own than the pool has (and no list of that many copies)
      }
      int full = (int) fills;
      alone.addAll(Collections.nCopies(full, new GpuConfiguration(pool.type().name(), List.of(segment(pool, best)))));
      used.merge(pool, full, Integer::sum);
      double left = demand - full * best.throughput();
      if (left > demand * 1e-9) {
        rest.add(new Tenant(s, pool, left, best));
      }
    }
    rest.sort(Comparator.comparingDouble((Tenant t) -> t.demand / t.best.throughput()).reversed().thenComparing(t -> t.service.id()));
    for (Tenant t : rest) {
      boolean placed = false;
      for (SharedGpu gpu : shared) {
        if (gpu.pool == t.pool && gpu.join(problem, menu, t)) {
          placed = true;
          break;
        }
      }
      if (!placed) {
        shared.add(new SharedGpu(t.pool, t));
        used.merge(t.pool, 1, Integer::sum);
      }
    }
    for (Map.Entry<GpuPool, Integer> e : used.entrySet()) {
      if (e.getValue() > e.getKey().count()) {
        return Optional.empty();
      }
    }
    List<GpuConfiguration> gpus = new ArrayList<>(alone);
    shared.forEach(g -> gpus.add(g.configuration()));
    return Optional.of(new ColocationPlan(gpus, scale));
  }

  /** The service's highest-throughput whole-GPU option (one process) over the pools that have GPUs. */
  private static Optional<SegmentOption> best(ColocationProblem problem, SegmentMenu menu, ColocationService service) {
    Optional<SegmentOption> best = Optional.empty();
    for (GpuPool pool : problem.pools()) {
      if (pool.count() == 0) {
        continue;
      }
      Optional<SegmentOption> o = ExclusiveBaseline.aloneOptions(menu, pool, service.id()).stream().findFirst();
      if (o.isPresent() && (best.isEmpty() || o.get().throughput() > best.get().throughput())) {
        best = o;
      }
    }
    return best;
  }

  /** The segment of {@code o} on a GPU of {@code pool}: the whole GPU, or its instance at the profile's first legal start. */
  private static Segment segment(GpuPool pool, SegmentOption o) {
    return o.at(o.whole() ? 0 : pool.partitioning().requireMig().profile(o.profile()).allowedStarts().get(0));
  }

  /** A service's demand left after its own GPUs, at the batch it runs on a shared GPU. */
  private record Tenant(ColocationService service, GpuPool pool, double demand, SegmentOption best) {}

  /** One time-shared GPU: its tenants, each at a batch, with batches per round. */
  private static final class SharedGpu {
    final GpuPool pool;
    final List<Tenant> tenants = new ArrayList<>();
    final List<SegmentOption> batches = new ArrayList<>();
    int[] perRound;

    SharedGpu(GpuPool pool, Tenant first) {
      this.pool = pool;
      tenants.add(first);
      batches.add(first.best);
      perRound = new int[] {1};
    }

    /** Adds {@code t} at the batch that adds the least busy time if the GPU stays within every rule; false otherwise. */
    boolean join(ColocationProblem problem, SegmentMenu menu, Tenant t) {
      long memory = t.service.processMemoryBytes();
      for (Tenant x : tenants) {
        memory += x.service.processMemoryBytes();
      }
      if (memory > segment(pool, t.best).placement().memoryBytes(pool.partitioning())) {
        return false;
      }
      List<Tenant> withNew = new ArrayList<>(tenants);
      withNew.add(t);
      int[] bestRound = null;
      SegmentOption bestOption = null;
      double bestBusy = Double.POSITIVE_INFINITY;
      for (SegmentOption o : ExclusiveBaseline.aloneOptions(menu, pool, t.service.id())) {
        if (!segment(pool, o).placement().equals(segment(pool, batches.get(0)).placement())) {
          continue; // tenants take turns on one part: the whole GPU, or the same instance
        }
        List<SegmentOption> at = new ArrayList<>(batches);
        at.add(o);
        int[] k = perRound(problem, withNew, at);
        if (k != null) {
          double busy = busy(at, k);
          if (busy < bestBusy) {
            bestBusy = busy;
            bestRound = k;
            bestOption = o;
          }
        }
      }
      if (bestOption == null) {
        return false;
      }
      tenants.add(t);
      batches.add(bestOption);
      perRound = bestRound;
      return true;
    }

    /**
     * Batches per round that serve every tenant's demand within the longest round the tightest
     * SLO rule allows, or null when their busy time does not fit in it.
     */
    private static int[] perRound(ColocationProblem problem, List<Tenant> tenants, List<SegmentOption> at) {
      double round = Double.POSITIVE_INFINITY;
      for (Tenant t : tenants) {
        round = Math.min(round, problem.sloRule().budgetSeconds(t.service));
      }
      int[] k = new int[tenants.size()];
      for (int i = 0; i < k.length; i++) {
        // k batches of b in a round of at most `round` serve at least k × b / round
        k[i] = Math.max(1, (int) Math.ceil(tenants.get(i).demand * round / at.get(i).batch()));
      }
      return busy(at, k) <= round ? k : null;
    }

    private static double busy(List<SegmentOption> at, int[] k) {
      double busy = 0;
      for (int i = 0; i < k.length; i++) {
        busy += k[i] * at.get(i).batchSeconds();
      }
      return busy;
    }

    GpuConfiguration configuration() {
      List<Segment> segments = new ArrayList<>();
      for (int i = 0; i < tenants.size(); i++) {
        for (int j = 0; j < perRound[i]; j++) {
          segments.add(segment(pool, batches.get(i)));
        }
      }
      return new GpuConfiguration(pool.type().name(), segments);
    }
  }
}
