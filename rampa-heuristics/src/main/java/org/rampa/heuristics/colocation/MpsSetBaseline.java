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
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;

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
 * Only GPU types with MPS or NPU partition templates take part. On a template type the parts are
 * templates, isolated (no interference): the even split cuts every card into k equal templates (on
 * an 8-core NPU: two of 4 cores, four of 2), gpu-lets chooses among the type's templates instead of
 * 0.2 … 1.0. A time model that knows no MPS share for a service leaves the baseline without a plan
 * for it.
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
  Optional<String> unusableCluster(ColocationProblem problem) {
    if (!sharedPools(problem).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("no GPU type of the cluster " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
        + " runs MPS or NPU partition templates, the parts this baseline splits a GPU into");
  }

  @Override
  boolean servable(ColocationProblem problem, SegmentMenu menu, ColocationService service) {
    for (GpuPool pool : sharedPools(problem)) {
      for (double share : parts(pool)) {
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
      Optional<GpuPool> pool = sharedPools(problem).stream().filter(p -> opened.getOrDefault(p, 0) < p.count()).findFirst();
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
    List<Double> parts = parts(pool);
    double largest = parts.get(parts.size() - 1);
    double free = 1;
    for (int slot = 0; slot < slots && free > 1e-9; slot++) {
      Optional<Segment> next = Optional.empty();
      for (String id : order) {
        ColocationService s = problem.service(id);
        if (evenShares > 0) {
          next = best(problem, pool, segments, s, 1.0 / evenShares);
        } else if (segments.isEmpty()) {
          next = parts.stream().map(part -> best(problem, pool, segments, s, part)).flatMap(Optional::stream)
              .filter(seg -> throughput(problem, pool, segments, seg) >= unserved.get(id)).findFirst()
              .or(() -> best(problem, pool, segments, s, largest));
        } else {
          double room = free;
          next = parts.stream().filter(part -> part <= room + 1e-9).sorted(Comparator.reverseOrder())
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
      free -= next.get().placement().computeFraction(pool.partitioning());
      order = order.stream().filter(id -> !id.equals(segments.get(segments.size() - 1).service()) || evenShares > 0).toList();
    }
    return segments;
  }

  /** The compute fractions a GPU of {@code pool} is split into, smallest first. */
  private List<Double> parts(GpuPool pool) {
    GpuPartitioning part = pool.partitioning();
    if (evenShares > 0) {
      return List.of(1.0 / evenShares);
    }
    if (part.mps()) {
      return GPU_LETS_PARTS;
    }
    return part.templates().stream().map(t -> (double) t.cores() / part.npuCores()).distinct().sorted().toList();
  }

  /**
   * The part of {@code fraction} of a GPU of {@code pool} for one process of {@code service}: an MPS
   * share reserving the service's memory, or the template of exactly that many cores if it holds the
   * memory; empty when the type has no such part.
   */
  private static Optional<Placement> placement(GpuPool pool, ColocationService service, double fraction) {
    GpuPartitioning part = pool.partitioning();
    if (part.mps()) {
      return Optional.of(new MpsShare(Math.min(1, fraction), service.processMemoryBytes()));
    }
    return part.templates().stream()
        .filter(t -> Math.abs((double) t.cores() / part.npuCores() - fraction) < 1e-9 && t.memoryBytes() >= service.processMemoryBytes())
        .findFirst().map(t -> new TemplatePartition(t.name()));
  }

  /**
   * {@code service} on a part of {@code fraction} next to {@code incumbents}, at the batch with the
   * highest throughput that keeps every segment on the GPU within its SLO; empty if none.
   */
  private static Optional<Segment> best(ColocationProblem problem, GpuPool pool, List<Segment> incumbents, ColocationService service, double fraction) {
    Optional<Placement> placement = placement(pool, service, fraction);
    if (placement.isEmpty()) {
      return Optional.empty();
    }
    List<Placement> placements = new ArrayList<>(incumbents.stream().map(Segment::placement).toList());
    placements.add(placement.get());
    if (problem.admission().check(pool.partitioning(), placements).isPresent() || !templatesFit(pool.partitioning(), placements)) {
      return Optional.empty();
    }
    Segment best = null;
    double bestThroughput = 0;
    for (int batch : service.batches()) {
      Segment candidate = new Segment(service.id(), placement.get(), batch);
      List<Segment> all = new ArrayList<>(incumbents);
      all.add(candidate);
      GpuConfiguration gpu = new GpuConfiguration(pool.type().name(), all);
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

  /** True unless {@code placements} are templates whose cores or memory exceed the card's (MPS admission checks MPS shares). */
  private static boolean templatesFit(GpuPartitioning part, List<Placement> placements) {
    if (part.mps()) {
      return true;
    }
    double cores = placements.stream().mapToDouble(p -> p.computeFraction(part)).sum();
    long memory = placements.stream().mapToLong(p -> p.memoryBytes(part)).sum();
    return cores <= 1 + 1e-9 && memory <= part.memoryBytes();
  }

  /** The pools this baseline splits GPUs of: MPS types and NPU template types. */
  private static List<GpuPool> sharedPools(ColocationProblem problem) {
    return problem.pools().stream().filter(p -> (p.partitioning().mps() || !p.partitioning().templates().isEmpty()) && p.count() > 0).toList();
  }
}
