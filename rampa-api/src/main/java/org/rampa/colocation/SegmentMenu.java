package org.rampa.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.PartitionTemplate;

/**
 * Every feasible isolated option (whole GPU; each MIG profile × batch × process count; each NPU
 * partition template × batch, one process) of every service on every pool, priced once: batch time
 * from the time model alone on the part (MIG instances, templates and a lone whole holding have no
 * co-runners to interfere), the SLO rule, the instance's client and memory limits. Contended parts
 * (MPS shares, AMD CU masks) are not options here: their throughput depends on the co-runners
 * (the verifier applies interference to both), so they are priced per configuration instead. Both the heuristic and the exact planner read it, so they search the same
 * configurations the verifier accepts. Pipelined services' stages are priced the same way, each
 * stage alone on its part ({@link #stageOptions}); {@link #options} lists whole-model options only.
 */
public final class SegmentMenu {

  private final Map<String, Map<String, List<SegmentOption>>> byPoolAndService = new LinkedHashMap<>();
  private final Map<String, Map<String, Map<PipelineStage, List<SegmentOption>>>> stagesByPoolAndService = new LinkedHashMap<>();

  private SegmentMenu() {}

  public static SegmentMenu of(ColocationProblem problem) {
    SegmentMenu menu = new SegmentMenu();
    for (GpuPool pool : problem.pools()) {
      Map<String, List<SegmentOption>> byService = new LinkedHashMap<>();
      Map<String, Map<PipelineStage, List<SegmentOption>>> stagesByService = new LinkedHashMap<>();
      for (ColocationService s : problem.services()) {
        byService.put(s.id(), options(problem, pool, s, null));
        Map<PipelineStage, List<SegmentOption>> stages = new LinkedHashMap<>();
        for (int p = 0; p < s.partitions().size(); p++) {
          for (int k = 0; k < s.partitions().get(p).stages(); k++) {
            PipelineStage stage = new PipelineStage(p, k);
            stages.put(stage, options(problem, pool, s, stage));
          }
        }
        stagesByService.put(s.id(), stages);
      }
      menu.byPoolAndService.put(pool.type().name(), byService);
      menu.stagesByPoolAndService.put(pool.type().name(), stagesByService);
    }
    return menu;
  }

  /** The feasible options of {@code service} on {@code gpuType}, best throughput first. */
  public List<SegmentOption> options(String gpuType, String service) {
    return byPoolAndService.get(gpuType).get(service);
  }

  /**
   * The feasible options of pipeline stage {@code stage} of {@code service} on {@code gpuType}, each
   * alone on its part with its batch time within the SLO rule, best throughput first; empty when
   * the time model has no time for the stage (measured tables hold whole models only).
   */
  public List<SegmentOption> stageOptions(String gpuType, String service, PipelineStage stage) {
    return stagesByPoolAndService.get(gpuType).get(service).getOrDefault(stage, List.of());
  }

  /** The highest-throughput option of {@code service} on one instance of {@code profile} or one template of that name (null: whole GPU). */
  public Optional<SegmentOption> best(String gpuType, String service, String profile) {
    return options(gpuType, service).stream().filter(o -> java.util.Objects.equals(o.profile(), profile)).findFirst();
  }

  private static List<SegmentOption> options(ColocationProblem problem, GpuPool pool, ColocationService s, PipelineStage stage) {
    List<String> profiles = new ArrayList<>();
    profiles.add(null);
    pool.partitioning().mig().ifPresent(g -> g.profiles().forEach(p -> profiles.add(p.name())));
    List<String> templates = pool.partitioning().templates().stream().map(PartitionTemplate::name).toList();
    profiles.addAll(templates);
    List<SegmentOption> out = new ArrayList<>();
    // the service alone, claiming no demand: the verifier's per-GPU rules without checking every other service's rate
    long memory = s.processMemoryBytes(stage);
    ColocationProblem alone = new ColocationProblem(List.of(s), problem.pools(), problem.timeModel(), problem.interference(), problem.sloRule(),
        problem.admission(), ColocationObjective.MAX_SCALE);
    for (String profile : profiles) {
      boolean template = templates.contains(profile);
      int start = profile == null || template ? 0 : pool.partitioning().requireMig().profile(profile).allowedStarts().get(0);
      for (int batch : s.batches()) {
        for (int processes : s.processCounts()) {
          // several processes share a part through MPS inside a MIG instance; a template runs one
          if (processes > 1 && (profile == null || template || !pool.partitioning().mps())) {
            continue;
          }
          SegmentOption o = new SegmentOption(s.id(), pool.type().name(), profile, batch, processes, memory, 0, stage, template);
          GpuConfiguration gpu = new GpuConfiguration(pool.type().name(), List.of(o.at(start)));
          // most (batch, processes, part) triples of measured tables have no time, and the verifier would refuse them for
          // that (as it refuses a placement the GPU cannot hold): those are skipped before its full check
          try {
            gpu.segments().get(0).placement().requireOn(pool.partitioning());
          } catch (IllegalArgumentException e) {
            continue;
          }
          Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, gpu);
          if (perf.isEmpty()) {
            continue;
          }
          // the verifier's own rules on the part alone: legal, admitted, memory, SLO
          if (!ColocationVerifier.check(alone, new ColocationPlan(List.of(gpu), 0)).isEmpty()) {
            continue;
          }
          double throughput = perf.get().get(0).throughput();
          out.add(new SegmentOption(s.id(), pool.type().name(), profile, batch, processes, memory, throughput, stage, template));
        }
      }
    }
    out.sort(Comparator.comparingDouble(SegmentOption::throughput).reversed());
    return List.copyOf(out);
  }

  /**
   * The units of the card an option's part takes, the units the packing counts: memory slices of a
   * MIG instance, cores of an NPU template; for a whole-GPU option the card's memory slices, its
   * cores, or 1 when it has neither.
   */
  public static int units(GpuPool pool, SegmentOption o) {
    GpuPartitioning part = pool.partitioning();
    if (o.whole()) {
      return part.mig().map(g -> g.memorySlices()).orElse(part.npuCores() > 0 ? part.npuCores() : 1);
    }
    if (o.template()) {
      return part.template(o.profile()).cores();
    }
    MigProfile p = part.requireMig().profile(o.profile());
    return p.memorySlices();
  }
}
