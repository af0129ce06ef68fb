package org.rampa.colocation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.ShareViolation;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.perf.SloPredicate;

/**
 * The one check of a co-location plan, independent of the planner that made it: GPU counts within
 * the cluster; per GPU one legal mode (one whole holding; a set of contended parts, MPS shares or
 * AMD CU masks; a MIG layout that {@link MigLayout} accepts with at most one segment per instance;
 * or NPU partition templates whose cores and memory fit the card); MPS admission ({@link
 * org.rampa.domain.share.MpsAdmission}: MPS shares and CU masks sum to at most 1); every process's memory; every segment's batch and process
 * count allowed and its batch time with interference (recomputed by {@link ColocationPerformance}
 * for exactly that GPU's co-runners) within the SLO rule; and every service's rate times the claimed
 * scale met.
 */
public final class ColocationVerifier {
  private ColocationVerifier() {}

  /** Every rule the plan breaks, each naming the GPU, the segment and the rule; empty when it is valid. */
  public static List<String> check(ColocationProblem problem, ColocationPlan plan) {
    List<String> out = new ArrayList<>();
    Map<String, Integer> used = plan.gpusByType();
    for (Map.Entry<String, Integer> e : used.entrySet()) {
      GpuPool pool = problem.pools().stream().filter(p -> p.type().name().equals(e.getKey())).findFirst().orElse(null);
      if (pool == null) {
        out.add("gpuType " + e.getKey() + " is not in the cluster");
      } else if (e.getValue() > pool.count()) {
        out.add(e.getValue() + " GPUs of " + e.getKey() + " used, the cluster has " + pool.count());
      }
    }
    if (!out.isEmpty()) {
      return out;
    }
    Map<String, Double> served = new LinkedHashMap<>();
    problem.services().forEach(s -> served.put(s.id(), 0.0));
    for (int g = 0; g < plan.gpus().size(); g++) {
      checkGpu(problem, g, plan.gpus().get(g), served, out);
    }
    if (problem.objective() == ColocationObjective.MIN_GPUS && plan.scale() < 1) {
      out.add("plan.scale = " + plan.scale() + ": the fewest-GPUs objective serves the whole demand (scale 1)");
    }
    for (ColocationService s : problem.services()) {
      double need = s.rate() * plan.scale();
      if (!serves(served.get(s.id()), need)) {
        out.add("service " + s.id() + ": served " + served.get(s.id()) + " req/s, the demand at scale " + plan.scale() + " is " + need);
      }
    }
    return out;
  }

  /** True when a throughput of {@code served} requests/s meets a demand of {@code need}, within the library's one tolerance. */
  static boolean serves(double served, double need) {
    return served >= need * (1 - SloPredicate.RELATIVE_TOLERANCE);
  }

  /** Throws naming every violation when {@code plan} breaks a rule: the runtime guard every planner applies. */
  public static void requireValid(ColocationProblem problem, ColocationPlan plan, String planner) {
    List<String> v = check(problem, plan);
    if (!v.isEmpty()) {
      throw new IllegalStateException("planner " + planner + " produced a plan the co-location verifier refuses: " + v);
    }
  }

  /** Per service, the throughput a plan serves (requests/s), with interference. */
  public static Map<String, Double> throughputs(ColocationProblem problem, ColocationPlan plan) {
    Map<String, Double> served = new LinkedHashMap<>();
    problem.services().forEach(s -> served.put(s.id(), 0.0));
    for (GpuConfiguration gpu : plan.gpus()) {
      List<SegmentPerformance> perf = ColocationPerformance.evaluate(problem, gpu)
          .orElseThrow(() -> new IllegalArgumentException("the time model has no time for a segment on " + gpu));
      for (int i = 0; i < perf.size(); i++) {
        served.merge(gpu.segments().get(i).service(), perf.get(i).throughput(), Double::sum);
      }
    }
    return served;
  }

  /** The objective's value of a plan: GPUs used, the scale served, or the weighted served throughput. */
  public static double objectiveValue(ColocationProblem problem, ColocationPlan plan) {
    return switch (problem.objective()) {
      case MIN_GPUS -> plan.gpuCount();
      case MAX_SCALE -> plan.scale();
      case MAX_WEIGHTED_THROUGHPUT -> {
        Map<String, Double> t = throughputs(problem, plan);
        yield problem.services().stream().mapToDouble(s -> s.weight() * Math.min(s.rate(), t.get(s.id()))).sum();
      }
    };
  }

  private static void checkGpu(ColocationProblem problem, int g, GpuConfiguration gpu, Map<String, Double> served, List<String> out) {
    String where = "gpu " + g + " (" + gpu.gpuType() + ")";
    GpuPool pool = problem.pool(gpu.gpuType());
    GpuPartitioning part = pool.partitioning();
    List<Segment> segs = gpu.segments();
    List<Placement> placements = segs.stream().map(Segment::placement).toList();
    long whole = placements.stream().filter(p -> p instanceof Whole).count();
    long contended = placements.stream().filter(p -> p instanceof MpsShare || p instanceof CuMask).count();
    long mig = placements.stream().filter(p -> p instanceof MigSlice || p instanceof MigSliceMps).count();
    long templates = placements.stream().filter(p -> p instanceof TemplatePartition).count();
    if (whole > 0 && segs.size() > 1) {
      out.add(where + ": a whole-GPU segment must be alone on its GPU, found " + segs.size() + " segments");
      return;
    }
    if (Long.signum(contended) + Long.signum(mig) + Long.signum(templates) > 1) {
      out.add(where + ": one GPU runs one sharing mode, found " + contended + " MPS shares or CU masks, " + mig + " MIG instances and "
          + templates + " NPU templates (an MPS GPU is not in MIG mode, templates partition a whole NPU)");
      return;
    }
    for (int i = 0; i < segs.size(); i++) {
      try {
        segs.get(i).placement().requireOn(part);
      } catch (IllegalArgumentException e) {
        out.add(where + " segment " + i + ": " + e.getMessage());
        return;
      }
    }
    if (mig > 0) {
      List<MigSlice> slices = segs.stream().map(Segment::migSlice).toList();
      Optional<ShareViolation> v = MigLayout.check(part.requireMig(), slices);
      if (v.isPresent()) {
        out.add(where + ": illegal MIG layout: " + v.get().message());
        return;
      }
    }
    if (templates > 0) {
      Optional<String> partition = templateViolation(part, placements);
      if (partition.isPresent()) {
        out.add(where + ": " + partition.get());
        return;
      }
    }
    Optional<ShareViolation> admission = problem.admission().check(part, placements);
    if (admission.isPresent()) {
      out.add(where + ": MPS admission: " + admission.get().message());
      return;
    }
    for (int i = 0; i < segs.size(); i++) {
      Segment s = segs.get(i);
      ColocationService svc;
      try {
        svc = problem.service(s.service());
      } catch (IllegalArgumentException e) {
        out.add(where + " segment " + i + ": " + e.getMessage());
        return;
      }
      long reserved = reservedPerProcess(s.placement(), part);
      if (reserved < svc.processMemoryBytes()) {
        out.add(where + " segment " + i + " (" + s.service() + "): each process may use " + reserved + " bytes, the service needs " + svc.processMemoryBytes());
      }
      if (!svc.batches().contains(s.batch())) {
        out.add(where + " segment " + i + " (" + s.service() + "): batch " + s.batch() + " is not one of the service's " + svc.batches());
      }
      if (!svc.processCounts().contains(s.processes())) {
        out.add(where + " segment " + i + " (" + s.service() + "): " + s.processes() + " processes is not one of the service's " + svc.processCounts());
      }
    }
    Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, gpu);
    if (perf.isEmpty()) {
      out.add(where + ": the time model has no batch time for one of its segments " + segs);
      return;
    }
    for (int i = 0; i < segs.size(); i++) {
      Segment s = segs.get(i);
      ColocationService svc = problem.service(s.service());
      SegmentPerformance p = perf.get().get(i);
      if (!problem.sloRule().admits(p.batchSeconds(), svc)) {
        out.add(where + " segment " + i + " (" + s.service() + "): a batch takes " + p.batchSeconds() * 1e3 + " ms with α = " + p.slowdown()
            + ", the SLO rule allows " + problem.sloRule().latencyFraction() + " × " + svc.slo().toNanos() / 1e6 + " ms");
      }
      served.merge(s.service(), p.throughput(), Double::sum);
    }
  }

  /**
   * NPU templates are hard partitions of the card: their cores, and their memory, must fit the
   * card's together (the ledger's rule for a GPU in template mode).
   */
  private static Optional<String> templateViolation(GpuPartitioning part, List<Placement> placements) {
    int cores = 0;
    long memory = 0;
    for (Placement p : placements) {
      cores += part.template(((TemplatePartition) p).template()).cores();
      memory += p.memoryBytes(part);
    }
    if (cores > part.npuCores()) {
      return Optional.of("NPU templates " + placements.stream().map(Placement::label).toList() + " use " + cores + " cores, the card has " + part.npuCores());
    }
    if (memory > part.memoryBytes()) {
      return Optional.of("NPU templates " + placements.stream().map(Placement::label).toList() + " hold " + memory + " bytes, the card has " + part.memoryBytes());
    }
    return Optional.empty();
  }

  /**
   * Memory one process of a segment may use: its reservation under MPS or a CU mask (contended
   * memory is only reserved), the instance, template or card otherwise.
   */
  private static long reservedPerProcess(Placement p, GpuPartitioning part) {
    if (p instanceof MigSliceMps m) {
      return m.processMemoryBytes();
    }
    return p.memoryBytes(part);
  }
}
