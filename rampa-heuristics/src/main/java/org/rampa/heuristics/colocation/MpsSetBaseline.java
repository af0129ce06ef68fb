package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.domain.share.MpsShare;

/**
 * The MPS-share baselines, built one GPU at a time with interference evaluated for exactly the GPU's
 * co-runners (each new tenant must leave every incumbent within its SLO):
 * <ul>
 *   <li>even MPS split ({@code even-mps-k}): every GPU cut into k equal shares, one service per share,
 *       the service with the most unserved demand first, at its best batch;</li>
 *   <li>gpu-lets-like ({@code gpu-lets}): parts of 0.2 … 1.0, at most two per GPU: the first service
 *       gets the smallest part that serves its unserved demand (else the whole GPU), the second the
 *       largest part of the rest that keeps both within their SLOs.</li>
 * </ul>
 * Only GPU types with MPS take part; a time model that knows no MPS share for a service leaves the
 * baseline without a plan for it.
 */
final class MpsSetBaseline extends DemandPlanner {

  private static final List<Double> GPU_LETS_PARTS = List.of(0.2, 0.4, 0.6, 0.8, 1.0);

  private final String name;
  /** Equal shares per GPU for the even split; 0 for gpu-lets. */
  private final int evenShares;

  private MpsSetBaseline(String name, int evenShares) {
    this.name = name;
    this.evenShares = evenShares;
  }

  static MpsSetBaseline evenSplit(int k) {
    return new MpsSetBaseline("even-mps-" + k, k);
  }

  static MpsSetBaseline gpuLets() {
    return new MpsSetBaseline("gpu-lets", 0);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  boolean servable(ColocationProblem problem, SegmentMenu menu, ColocationService service) {
    for (GpuPool pool : mpsPools(problem)) {
      for (double share : evenShares > 0 ? List.of(1.0 / evenShares) : GPU_LETS_PARTS) {
        if (best(problem, pool, List.of(), service, share).isPresent()) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  Optional<ColocationPlan> packAt(ColocationProblem problem, SegmentMenu menu, double scale, long deadline) {
    Map<String, Double> unserved = new HashMap<>();
    problem.services().forEach(s -> unserved.put(s.id(), s.rate() * scale));
    List<GpuConfiguration> gpus = new ArrayList<>();
    Map<GpuPool, Integer> opened = new HashMap<>();
    while (unserved.values().stream().anyMatch(d -> d > 0)) {
      Optional<GpuPool> pool = mpsPools(problem).stream().filter(p -> opened.getOrDefault(p, 0) < p.count()).findFirst();
      if (pool.isEmpty()) {
        return Optional.empty();
      }
      List<Segment> segments = fill(problem, pool.get(), unserved);
      if (segments.isEmpty()) {
        return Optional.empty();
      }
      GpuConfiguration gpu = new GpuConfiguration(pool.get().type().name(), segments);
      List<SegmentPerformance> perf = ColocationPerformance.evaluate(problem, gpu).orElseThrow();
      for (int i = 0; i < segments.size(); i++) {
        unserved.merge(segments.get(i).service(), -perf.get(i).throughput(), Double::sum);
      }
      unserved.replaceAll((s, d) -> d <= problem.service(s).rate() * scale * 1e-9 ? 0 : d);
      gpus.add(gpu);
      opened.merge(pool.get(), 1, Integer::sum);
    }
    return Optional.of(new ColocationPlan(gpus, scale));
  }

  private List<Segment> fill(ColocationProblem problem, GpuPool pool, Map<String, Double> unserved) {
    List<Segment> segments = new ArrayList<>();
    List<String> order = unserved.entrySet().stream().filter(e -> e.getValue() > 0)
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey).toList();
    int slots = evenShares > 0 ? evenShares : 2;
    double free = 1;
    for (int slot = 0; slot < slots && free > 1e-9; slot++) {
      Optional<Segment> next = Optional.empty();
      for (String id : order) {
        ColocationService s = problem.service(id);
        if (evenShares > 0) {
          next = best(problem, pool, segments, s, 1.0 / evenShares);
        } else if (segments.isEmpty()) {
          next = GPU_LETS_PARTS.stream().map(part -> best(problem, pool, segments, s, part)).flatMap(Optional::stream)
              .filter(seg -> throughput(problem, pool, segments, seg) >= unserved.get(id)).findFirst()
              .or(() -> best(problem, pool, segments, s, 1.0));
        } else {
          double room = free;
          next = GPU_LETS_PARTS.stream().filter(part -> part <= room + 1e-9).sorted(Comparator.reverseOrder())
              .map(part -> best(problem, pool, segments, s, part)).flatMap(Optional::stream).findFirst();
        }
        if (next.isPresent()) {
          break;
        }
      }
      if (next.isEmpty()) {
        break;
      }
      segments.add(next.get());
      free -= ((MpsShare) next.get().placement()).fraction();
      order = order.stream().filter(id -> !id.equals(segments.get(segments.size() - 1).service()) || evenShares > 0).toList();
    }
    return segments;
  }

  /**
   * {@code service} on an MPS share of {@code fraction} next to {@code incumbents}, at the batch
   * with the highest throughput that keeps every segment on the GPU within its SLO; empty if none.
   */
  private static Optional<Segment> best(ColocationProblem problem, GpuPool pool, List<Segment> incumbents, ColocationService service, double fraction) {
    Segment best = null;
    double bestThroughput = 0;
    for (int batch : service.batches()) {
      Segment candidate = new Segment(service.id(), new MpsShare(Math.min(1, fraction), service.processMemoryBytes()), batch);
      List<Segment> all = new ArrayList<>(incumbents);
      all.add(candidate);
      GpuConfiguration gpu = new GpuConfiguration(pool.type().name(), all);
      if (problem.admission().check(pool.partitioning(), all.stream().map(Segment::placement).toList()).isPresent()) {
        continue;
      }
      Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, gpu);
      if (perf.isEmpty()) {
        continue;
      }
      boolean ok = true;
      for (int i = 0; i < all.size(); i++) {
        ok &= problem.sloRule().admits(perf.get().get(i).batchSeconds(), problem.service(all.get(i).service()));
      }
      double t = perf.get().get(all.size() - 1).throughput();
      if (ok && t > bestThroughput) {
        bestThroughput = t;
        best = candidate;
      }
    }
    return Optional.ofNullable(best);
  }

  private static double throughput(ColocationProblem problem, GpuPool pool, List<Segment> incumbents, Segment s) {
    List<Segment> all = new ArrayList<>(incumbents);
    all.add(s);
    return ColocationPerformance.evaluate(problem, new GpuConfiguration(pool.type().name(), all)).orElseThrow().get(all.size() - 1).throughput();
  }

  private static List<GpuPool> mpsPools(ColocationProblem problem) {
    return problem.pools().stream().filter(p -> p.partitioning().mps() && p.count() > 0).toList();
  }
}
