package org.rampa.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.perf.share.LinearInterference;
import org.rampa.perf.share.NoInterference;

/**
 * Every feasible isolated option (whole GPU; each MIG profile × batch × process count; each NPU
 * partition template × batch, one process) of every service on every pool, priced once: batch time
 * from the time model alone on the part (MIG instances, templates and a lone whole holding have no
 * co-runners to interfere), the SLO rule, the instance's client and memory limits. MPS shares are
 * not options here: their throughput depends on the co-runners (the verifier applies interference
 * to them), so they are priced per configuration instead. Both the heuristic and the exact planner
 * read it, so they search the same configurations the verifier accepts. Pipelined services' stages
 * are priced the same way, each stage alone on its part ({@link #stageOptions}); {@link #options}
 * lists whole-model options only.
 *
 * <p>AMD CU masks ({@link #cuMaskOptions}) are contended too, but their menu is small enough to
 * price for every co-runner count: on a type whose partitioning declares CU masking, masks of 1, 2
 * and 4 eighths of the card's CUs ({@link CuMaskPart}; masks whose eighths sum to at most 8 never
 * hold more than the card's CUs, MPS admission's rule), each priced for every number of masks that
 * can share the card (α for exactly that many contended co-runners). That price is exact when the
 * interference model depends on the co-runner count alone and grows with it ({@link
 * LinearInterference}, the default, and {@link NoInterference}); under any other model no CU-mask
 * option is offered. A mask reserves its process's memory, and an option exists only when that is at
 * most the mask's eighths of the card's memory, so masks that fit the CUs fit the memory too.
 * Whole-model options only (no pipeline stages on CU masks).
 */
public final class SegmentMenu {

  private final Map<String, Map<String, List<SegmentOption>>> byPoolAndService = new LinkedHashMap<>();
  private final Map<String, Map<String, Map<PipelineStage, List<SegmentOption>>>> stagesByPoolAndService = new LinkedHashMap<>();
  private final Map<String, Map<String, List<SegmentOption>>> cuMasksByPoolAndService = new LinkedHashMap<>();

  /** The CU masks the menu offers, in eighths of the card's CUs (halves, quarters, eighths, as the NPU's templates). */
  public static final List<Integer> CU_MASK_EIGHTHS = List.of(1, 2, 4);

  private SegmentMenu() {}

  public static SegmentMenu of(ColocationProblem problem) {
    SegmentMenu menu = new SegmentMenu();
    for (GpuPool pool : problem.pools()) {
      Map<String, List<SegmentOption>> byService = new LinkedHashMap<>();
      Map<String, Map<PipelineStage, List<SegmentOption>>> stagesByService = new LinkedHashMap<>();
      Map<String, List<SegmentOption>> cuMasksByService = new LinkedHashMap<>();
      for (ColocationService s : problem.services()) {
        byService.put(s.id(), options(problem, pool, s, null));
        cuMasksByService.put(s.id(), offersCuMasks(problem, pool) ? cuMaskOptions(problem, pool, s) : List.of());
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
      menu.cuMasksByPoolAndService.put(pool.type().name(), cuMasksByService);
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

  /**
   * The highest-throughput option of {@code service} on one instance of {@code profile}, one
   * template of that name or one CU-mask part of that name ({@link CuMaskPart#name()}); null: whole GPU.
   */
  public Optional<SegmentOption> best(String gpuType, String service, String profile) {
    Optional<SegmentOption> isolated = options(gpuType, service).stream().filter(o -> java.util.Objects.equals(o.profile(), profile)).findFirst();
    return isolated.or(() -> cuMaskOptions(gpuType, service).stream().filter(o -> o.profile().equals(profile)).findFirst());
  }

  /**
   * The feasible CU-mask options of {@code service} on {@code gpuType}, each priced for its part's
   * number of masks sharing the card ({@link CuMaskPart#tenants()}), best throughput first; empty
   * on types without CU masking or under an interference model that is not a function of the
   * co-runner count. An option priced for n tenants keeps its price on a card that n or fewer masks
   * share (the model's α grows with the count).
   */
  public List<SegmentOption> cuMaskOptions(String gpuType, String service) {
    return cuMasksByPoolAndService.get(gpuType).get(service);
  }

  /**
   * The CU-mask options of {@code service} on {@code gpuType} priced for the fullest card their mask
   * can be on (every other eighth a mask of its own, {@link CuMaskPart#mostTenants}), best throughput
   * first: they keep their price beside any masks that fit, so a packing may place them freely.
   */
  public List<SegmentOption> cuMaskOptionsForAnyCard(String gpuType, String service) {
    return cuMaskOptions(gpuType, service).stream().filter(o -> o.cuMask().tenants() == CuMaskPart.mostTenants(o.cuMask().eighths())).toList();
  }

  /**
   * The CU-mask parts the menu prices on {@code pool}: every mask of {@link #CU_MASK_EIGHTHS} for
   * every number of masks that can share the card; empty when the menu offers none there.
   */
  public static List<CuMaskPart> cuMaskParts(ColocationProblem problem, GpuPool pool) {
    List<CuMaskPart> out = new ArrayList<>();
    if (offersCuMasks(problem, pool)) {
      for (int eighths : CU_MASK_EIGHTHS) {
        for (int tenants = 1; tenants <= CuMaskPart.mostTenants(eighths); tenants++) {
          out.add(CuMaskPart.of(pool.partitioning(), eighths, tenants));
        }
      }
    }
    return out;
  }

  /**
   * True when the menu offers CU masks on {@code pool}: its type declares CU masking with at least
   * one CU per eighth, and the problem's interference is a function of the co-runner count that
   * grows with it, so a price per count is exact.
   */
  private static boolean offersCuMasks(ColocationProblem problem, GpuPool pool) {
    return pool.partitioning().computeUnits() >= CuMaskPart.PARTS_PER_CARD
        && (problem.interference() instanceof LinearInterference || problem.interference() instanceof NoInterference);
  }

  /**
   * Every CU-mask option of {@code s} on {@code pool}: per part and batch, the option passes the
   * verifier's rules alone on the card (legal, admitted, memory, SLO) and its reservation is at most
   * its eighths of the card's memory; it is then priced on a card shared by {@code tenants} masks
   * (the co-runners are masks of one eighth running the same service and batch: only their number
   * enters α) and kept when its batch time there is within the SLO rule.
   */
  private static List<SegmentOption> cuMaskOptions(ColocationProblem problem, GpuPool pool, ColocationService s) {
    GpuPartitioning part = pool.partitioning();
    long memory = s.processMemoryBytes(null);
    ColocationProblem alone = new ColocationProblem(List.of(s), problem.pools(), problem.timeModel(), problem.interference(), problem.sloRule(),
        problem.admission(), ColocationObjective.MAX_SCALE);
    List<SegmentOption> out = new ArrayList<>();
    for (CuMaskPart mask : cuMaskParts(problem, pool)) {
      if ((double) memory > (double) mask.eighths() / CuMaskPart.PARTS_PER_CARD * part.memoryBytes()) {
        continue;
      }
      for (int batch : s.batches()) {
        Segment self = new Segment(s.id(), new CuMask(mask.computeUnits(), memory), batch);
        if (!ColocationVerifier.check(alone, new ColocationPlan(List.of(new GpuConfiguration(pool.type().name(), List.of(self))), 0)).isEmpty()) {
          continue;
        }
        List<Segment> card = new ArrayList<>(List.of(self));
        for (int t = 1; t < mask.tenants(); t++) {
          card.add(new Segment(s.id(), new CuMask(CuMaskPart.of(part, 1, 1).computeUnits(), memory), batch));
        }
        Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, new GpuConfiguration(pool.type().name(), card));
        if (perf.isEmpty() || !problem.sloRule().admits(perf.get().get(0).batchSeconds(), s)) {
          continue;
        }
        out.add(new SegmentOption(s.id(), pool.type().name(), mask.name(), batch, 1, memory, perf.get().get(0).throughput(), null, false, mask));
      }
    }
    out.sort(Comparator.comparingDouble(SegmentOption::throughput).reversed());
    return List.copyOf(out);
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
   * MIG instance, cores of an NPU template, eighths of a CU mask; for a whole-GPU option the card's
   * memory slices, its cores, its eighths when it has CU masking, or 1 when it has none of these.
   */
  public static int units(GpuPool pool, SegmentOption o) {
    GpuPartitioning part = pool.partitioning();
    if (o.whole()) {
      return part.mig().map(g -> g.memorySlices())
          .orElse(part.npuCores() > 0 ? part.npuCores() : part.computeUnits() > 0 ? CuMaskPart.PARTS_PER_CARD : 1);
    }
    if (o.cuMask() != null) {
      return o.cuMask().eighths();
    }
    if (o.template()) {
      return part.template(o.profile()).cores();
    }
    MigProfile p = part.requireMig().profile(o.profile());
    return p.memorySlices();
  }
}
