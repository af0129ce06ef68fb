package org.rampa.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.share.MigProfile;

/**
 * Every feasible isolated option (whole GPU; each MIG profile × batch × process count) of every
 * service on every pool, priced once: batch time from the time model alone on the part (MIG and a
 * lone whole holding have no co-runners to interfere), the SLO rule, the instance's client and
 * memory limits. Both the heuristic and the exact planner read it, so they search the same
 * configurations the verifier accepts.
 */
public final class SegmentMenu {

  private final Map<String, Map<String, List<SegmentOption>>> byPoolAndService = new LinkedHashMap<>();

  private SegmentMenu() {}

  public static SegmentMenu of(ColocationProblem problem) {
    SegmentMenu menu = new SegmentMenu();
    for (GpuPool pool : problem.pools()) {
      Map<String, List<SegmentOption>> byService = new LinkedHashMap<>();
      for (ColocationService s : problem.services()) {
        byService.put(s.id(), options(problem, pool, s));
      }
      menu.byPoolAndService.put(pool.type().name(), byService);
    }
    return menu;
  }

  /** The feasible options of {@code service} on {@code gpuType}, best throughput first. */
  public List<SegmentOption> options(String gpuType, String service) {
    return byPoolAndService.get(gpuType).get(service);
  }

  /** The highest-throughput option of {@code service} on one instance of {@code profile} (null: whole GPU). */
  public Optional<SegmentOption> best(String gpuType, String service, String profile) {
    return options(gpuType, service).stream().filter(o -> java.util.Objects.equals(o.profile(), profile)).findFirst();
  }

  private static List<SegmentOption> options(ColocationProblem problem, GpuPool pool, ColocationService s) {
    List<String> profiles = new ArrayList<>();
    profiles.add(null);
    pool.partitioning().mig().ifPresent(g -> g.profiles().forEach(p -> profiles.add(p.name())));
    List<SegmentOption> out = new ArrayList<>();
    for (String profile : profiles) {
      int start = profile == null ? 0 : pool.partitioning().requireMig().profile(profile).allowedStarts().get(0);
      for (int batch : s.batches()) {
        for (int processes : s.processCounts()) {
          if (processes > 1 && (profile == null || !pool.partitioning().mps())) {
            continue;
          }
          SegmentOption o = new SegmentOption(s.id(), pool.type().name(), profile, batch, processes, s.processMemoryBytes(), 0);
          GpuConfiguration alone = new GpuConfiguration(pool.type().name(), List.of(o.at(start)));
          // the verifier's own rules on the part alone: legal, admitted, memory, SLO
          ColocationPlan single = new ColocationPlan(List.of(alone), 0);
          if (!ColocationVerifier.check(problem.withObjective(ColocationObjective.MAX_SCALE), single).isEmpty()) {
            continue;
          }
          double throughput = ColocationPerformance.evaluate(problem, alone).orElseThrow().get(0).throughput();
          out.add(new SegmentOption(s.id(), pool.type().name(), profile, batch, processes, s.processMemoryBytes(), throughput));
        }
      }
    }
    out.sort(Comparator.comparingDouble(SegmentOption::throughput).reversed());
    return List.copyOf(out);
  }

  /** Memory slices an option's instance takes (the whole card for a whole-GPU option). */
  public static int memorySlices(GpuPool pool, SegmentOption o) {
    if (o.whole()) {
      return pool.partitioning().mig().map(g -> g.memorySlices()).orElse(1);
    }
    MigProfile p = pool.partitioning().requireMig().profile(o.profile());
    return p.memorySlices();
  }
}
