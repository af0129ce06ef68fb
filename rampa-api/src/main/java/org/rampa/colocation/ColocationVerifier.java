package org.rampa.colocation;

import java.util.ArrayList;
import java.util.HashMap;
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
import org.rampa.verify.PlanRejectedException;
import org.rampa.verify.Violation;
import org.rampa.verify.Violation.Kind;

/**
 * The one check of a co-location plan, independent of the planner that made it: GPU counts within
 * the cluster; per GPU one legal mode (one whole holding; a set of contended parts, MPS shares or
 * AMD CU masks; a MIG layout that {@link MigLayout} accepts with at most one segment per instance;
 * or NPU partition templates whose cores and memory fit the card); MPS admission ({@link
 * org.rampa.domain.share.MpsAdmission}: MPS shares and CU masks sum to at most 1); every process's memory; every segment's batch and process
 * count allowed and its batch time with interference (recomputed by {@link ColocationPerformance}
 * for exactly that GPU's co-runners) within the SLO rule; and every service's rate times the claimed
 * scale met.
 *
 * <p>Time-sharing ({@link GpuConfiguration#timeShared()}): segments take turns on the whole GPU
 * or on one MIG instance, every tenant's process stays resident (their memory sums within the
 * part's), and each segment's round (not its own batch) must meet its SLO rule.
 *
 * <p>Pipelines: a segment's stage must exist among its service's partitions; a partition serves the
 * rate its slowest stage serves (a stage with no segment serves nothing), and a request crossing the
 * pipeline meets the SLO rule when the sum over its stages of the slowest segment's batch time does
 * (transfers between stages are not charged: the problem has no interconnect model). A service is
 * served its whole-model segments' throughput plus what each of its partitions serves.
 */
public final class ColocationVerifier {
  private ColocationVerifier() {}

  /** Every rule the plan breaks, each of its kind with a message naming the GPU and the segment; empty when it is valid. */
  public static List<Violation> check(ColocationProblem problem, ColocationPlan plan) {
    List<Violation> out = new ArrayList<>();
    Map<String, Integer> used = plan.gpusByType();
    for (Map.Entry<String, Integer> e : used.entrySet()) {
      GpuPool pool = problem.pools().stream().filter(p -> p.type().name().equals(e.getKey())).findFirst().orElse(null);
      if (pool == null) {
        out.add(new Violation(Kind.UNKNOWN_GPU, "gpuType " + e.getKey() + " is not in the cluster"));
      } else if (e.getValue() > pool.count()) {
        out.add(new Violation(Kind.GPU_COUNT, e.getValue() + " GPUs of " + e.getKey() + " used, the cluster has " + pool.count()));
      }
    }
    if (!out.isEmpty()) {
      return out;
    }
    Served served = new Served();
    for (int g = 0; g < plan.gpus().size(); g++) {
      checkGpu(problem, g, plan.gpus().get(g), served, out);
    }
    if (problem.objective() == ColocationObjective.MIN_GPUS && plan.scale() < 1) {
      out.add(new Violation(Kind.THROUGHPUT, "plan.scale = " + plan.scale() + ": the fewest-GPUs objective serves the whole demand (scale 1)"));
    }
    for (ColocationService s : problem.services()) {
      served.pipelineLatency(problem, s, out);
      double need = s.rate() * plan.scale();
      double got = served.of(s);
      if (!SloPredicate.meetsRate(got, need)) {
        out.add(new Violation(Kind.THROUGHPUT, "service " + s.id() + ": served " + got + " req/s, the demand at scale " + plan.scale() + " is " + need));
      }
    }
    return out;
  }

  /**
   * Throws {@link PlanRejectedException} naming every violation when {@code plan} breaks a rule;
   * {@code source} says what made the plan. Planners are checked by {@link VerifiedColocationPlanner};
   * this is for plans that no planner returned (an enumeration's, an episode's, a plan re-checked
   * against another problem).
   */
  public static void requireValid(ColocationProblem problem, ColocationPlan plan, String source) {
    List<Violation> v = check(problem, plan);
    if (!v.isEmpty()) {
      throw PlanRejectedException.colocation(source, v);
    }
  }

  /** Per service, the throughput a plan serves (requests/s), with interference; a pipelined service the rate its slowest stage serves. */
  public static Map<String, Double> throughputs(ColocationProblem problem, ColocationPlan plan) {
    Served served = new Served();
    for (GpuConfiguration gpu : plan.gpus()) {
      List<SegmentPerformance> perf = ColocationPerformance.evaluate(problem, gpu)
          .orElseThrow(() -> new IllegalArgumentException("the time model has no time for a segment on " + gpu));
      for (int i = 0; i < perf.size(); i++) {
        served.add(gpu.segments().get(i), perf.get(i));
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    problem.services().forEach(s -> out.put(s.id(), served.of(s)));
    return out;
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

  private static void checkGpu(ColocationProblem problem, int g, GpuConfiguration gpu, Served served, List<Violation> out) {
    String where = "gpu " + g + " (" + gpu.gpuType() + ")";
    GpuPool pool = problem.pool(gpu.gpuType());
    GpuPartitioning part = pool.partitioning();
    List<Segment> segs = gpu.segments();
    List<Placement> placements = segs.stream().map(Segment::placement).toList();
    long whole = placements.stream().filter(p -> p instanceof Whole).count();
    long contended = placements.stream().filter(p -> p instanceof MpsShare || p instanceof CuMask).count();
    long mig = placements.stream().filter(p -> p instanceof MigSlice || p instanceof MigSliceMps).count();
    long templates = placements.stream().filter(p -> p instanceof TemplatePartition).count();
    if (whole > 0 && whole < segs.size()) {
      out.add(new Violation(Kind.SHARING_MODE, where + ": a whole-GPU segment shares its GPU only in time, with other whole-GPU segments; found " + whole + " whole among "
          + segs.size() + " segments"));
      return;
    }
    if (Long.signum(contended) + Long.signum(mig) + Long.signum(templates) > 1) {
      out.add(new Violation(Kind.SHARING_MODE, where + ": one GPU runs one sharing mode, found " + contended + " MPS shares or CU masks, " + mig + " MIG instances and "
          + templates + " NPU templates (an MPS GPU is not in MIG mode, templates partition a whole NPU)"));
      return;
    }
    for (int i = 0; i < segs.size(); i++) {
      try {
        segs.get(i).placement().requireOn(part);
      } catch (IllegalArgumentException e) {
        out.add(new Violation(Kind.PLACEMENT, where + " segment " + i + ": " + e.getMessage()));
        return;
      }
    }
    if (mig > 0) {
      // time-sharing tenants take turns on one instance: its layout is that instance alone
      List<MigSlice> slices = gpu.timeShared() ? List.of(segs.get(0).migSlice()) : segs.stream().map(Segment::migSlice).toList();
      Optional<ShareViolation> v = MigLayout.check(part.requireMig(), slices);
      if (v.isPresent()) {
        out.add(new Violation(Kind.MIG_LAYOUT, where + ": illegal MIG layout: " + v.get().message()));
        return;
      }
    }
    if (templates > 0) {
      Optional<String> partition = templateViolation(part, placements);
      if (partition.isPresent()) {
        out.add(new Violation(Kind.TEMPLATE_CAPACITY, where + ": " + partition.get()));
        return;
      }
    }
    Optional<ShareViolation> admission = problem.admission().check(part, placements);
    if (admission.isPresent()) {
      out.add(new Violation(Kind.MPS_ADMISSION, where + ": MPS admission: " + admission.get().message()));
      return;
    }
    for (int i = 0; i < segs.size(); i++) {
      Segment s = segs.get(i);
      ColocationService svc;
      try {
        svc = problem.service(s.service());
      } catch (IllegalArgumentException e) {
        out.add(new Violation(Kind.WRONG_SERVICE, where + " segment " + i + ": " + e.getMessage()));
        return;
      }
      try {
        svc.layers(s.stage());
      } catch (IllegalArgumentException e) {
        out.add(new Violation(Kind.WRONG_SERVICE, where + " segment " + i + ": " + e.getMessage()));
        return;
      }
      long reserved = reservedPerProcess(s.placement(), part);
      long need = svc.processMemoryBytes(s.stage());
      if (reserved < need) {
        out.add(new Violation(Kind.MEMORY, where + " segment " + i + " (" + s.service() + "): each process may use " + reserved + " bytes, the service needs " + need));
      }
      if (!svc.batches().contains(s.batch())) {
        out.add(new Violation(Kind.SEGMENT_OPTION, where + " segment " + i + " (" + s.service() + "): batch " + s.batch() + " is not one of the service's " + svc.batches()));
      }
      if (!svc.processCounts().contains(s.processes())) {
        out.add(new Violation(Kind.SEGMENT_OPTION, where + " segment " + i + " (" + s.service() + "): " + s.processes() + " processes is not one of the service's " + svc.processCounts()));
      }
    }
    if (gpu.timeShared()) {
      // every tenant's context stays resident while the others take their turns
      Map<String, Long> resident = new LinkedHashMap<>();
      for (Segment s : segs) {
        resident.put(s.service() + (s.stage() == null ? "" : " " + s.stage()), problem.service(s.service()).processMemoryBytes(s.stage()));
      }
      long sum = resident.values().stream().mapToLong(Long::longValue).sum();
      long room = segs.get(0).placement().memoryBytes(part);
      if (sum > room) {
        out.add(new Violation(Kind.MEMORY, where + ": time-sharing keeps every tenant resident: " + resident.keySet() + " need " + sum + " bytes, "
            + segs.get(0).placement().label() + " has " + room));
      }
    }
    Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, gpu);
    if (perf.isEmpty()) {
      out.add(new Violation(Kind.UNTIMED, where + ": the time model has no batch time for one of its segments " + segs));
      return;
    }
    for (int i = 0; i < segs.size(); i++) {
      Segment s = segs.get(i);
      ColocationService svc = problem.service(s.service());
      SegmentPerformance p = perf.get().get(i);
      served.add(s, p);
      if (s.stage() == null && !problem.sloRule().admits(p.batchSeconds(), svc)) {
        out.add(new Violation(Kind.LATENCY, where + " segment " + i + " (" + s.service() + "): a batch takes " + p.batchSeconds() * 1e3 + " ms with α = " + p.slowdown()
            + ", the SLO rule allows " + problem.sloRule().describe(svc)));
      }
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

  /** What a plan serves per service: whole-model segments' throughput, and per pipeline stage its throughput and slowest batch. */
  private static final class Served {
    private final Map<String, Double> whole = new HashMap<>();
    /** Per service and stage: {throughput, slowest batch seconds}. */
    private final Map<String, Map<PipelineStage, double[]>> stages = new HashMap<>();

    void add(Segment s, SegmentPerformance p) {
      if (s.stage() == null) {
        whole.merge(s.service(), p.throughput(), Double::sum);
        return;
      }
      double[] acc = stages.computeIfAbsent(s.service(), k -> new HashMap<>()).computeIfAbsent(s.stage(), k -> new double[2]);
      acc[0] += p.throughput();
      acc[1] = Math.max(acc[1], p.batchSeconds());
    }

    /** Whole-model throughput plus, per partition, its slowest stage's throughput. */
    double of(ColocationService s) {
      double out = whole.getOrDefault(s.id(), 0.0);
      Map<PipelineStage, double[]> mine = stages.getOrDefault(s.id(), Map.of());
      for (int p = 0; p < s.partitions().size(); p++) {
        double slowest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < s.partitions().get(p).stages(); k++) {
          double[] acc = mine.get(new PipelineStage(p, k));
          slowest = Math.min(slowest, acc == null ? 0 : acc[0]);
        }
        out += slowest;
      }
      return out;
    }

    /** Per used partition of {@code s}: the sum over its stages of the slowest segment's batch time within the SLO rule. */
    void pipelineLatency(ColocationProblem problem, ColocationService s, List<Violation> out) {
      Map<PipelineStage, double[]> mine = stages.getOrDefault(s.id(), Map.of());
      for (int p = 0; p < s.partitions().size(); p++) {
        double sum = 0;
        boolean used = false;
        for (int k = 0; k < s.partitions().get(p).stages(); k++) {
          double[] acc = mine.get(new PipelineStage(p, k));
          if (acc != null) {
            used = true;
            sum += acc[1];
          }
        }
        if (used && !problem.sloRule().admits(sum, s)) {
          out.add(new Violation(Kind.LATENCY, "service " + s.id() + " partition " + p + " " + s.partitions().get(p).cuts() + ": its stages' slowest batches take " + sum * 1e3
              + " ms in sum, the SLO rule allows " + problem.sloRule().describe(s)));
        }
      }
    }
  }
}
