package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.PipelineStage;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;

/**
 * The shape the heuristic and the isolated baselines share: cover each service's demand with
 * isolated options (the subclass decides which), pack them onto GPUs (best fit over legal MIG
 * starts or NPU template cores, or one per GPU), optionally improve.
 */
abstract class PackingPlanner extends DemandPlanner {

  /** The options that cover {@code demand} requests/s of {@code service}; empty when it has none. */
  abstract List<SegmentOption> cover(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand);

  /**
   * The parts {@code service}'s demand of {@code demand} requests/s splits into, each of which must
   * be served that rate: the whole model (null), or the stages of the pipeline partition the planner
   * chose for that demand ({@link #cover} covers the same parts). The baselines run whole models only.
   */
  List<PipelineStage> stages(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand) {
    return Collections.singletonList(null);
  }

  /** False when every option gets a GPU of its own (the exclusive baseline). */
  abstract boolean shares();

  /** Improves a packed plan (repair, local search); the baselines leave it as packed. */
  void improve(ColocationProblem problem, SegmentMenu menu, Packing packing, long deadlineNanos) {}

  @Override
  boolean servable(ColocationProblem problem, SegmentMenu menu, ColocationService service) {
    return !cover(problem, menu, service, service.rate()).isEmpty();
  }

  @Override
  Optional<ColocationPlan> packAt(ColocationProblem problem, SegmentMenu menu, double scale, long deadline) {
    // with one GPU type there is nothing to spill to: the first option without room ends the try
    boolean spill = spills() && problem.pools().stream().filter(p -> p.count() > 0).count() > 1;
    Set<Unit> first = new HashSet<>();
    while (true) {
      Packing packing = new Packing(problem);
      List<SegmentOption> items = new ArrayList<>();
      for (ColocationService s : problem.services()) {
        List<PipelineStage> parts = stages(problem, menu, s, s.rate() * scale);
        packing.parts.put(s.id(), parts);
        for (PipelineStage stage : parts) {
          packing.demand.put(new Unit(s.id(), stage), s.rate() * scale);
        }
        items.addAll(cover(problem, menu, s, s.rate() * scale));
      }
      Set<Unit> stranded = placeAll(packing, items, first, spill, problem, menu);
      if (stranded.isEmpty()) {
        improve(problem, menu, packing, deadline);
        return Optional.of(new ColocationPlan(packing.bins.stream().map(GpuBin::configuration).toList(), scale));
      }
      // units that ran out of GPU types (others spilled onto theirs first) are packed first on one more try
      if (!spill || !first.isEmpty()) {
        return Optional.empty();
      }
      first.addAll(stranded);
    }
  }

  /**
   * Packs {@code items}: those of the units in {@code first} first, then largest first. An option
   * that finds no room (its GPU type's pool is full) leaves its throughput uncovered; with {@code spill} the planner
   * then covers each unit's deficit on the next GPU type it ranks ({@link #spill}), round after round,
   * each failing type struck off for that unit. Returns the units left uncovered with no type left
   * (without {@code spill}, the first unit that found no room); empty when all is placed.
   */
  private Set<Unit> placeAll(Packing packing, List<SegmentOption> items, Set<Unit> first, boolean spill, ColocationProblem problem, SegmentMenu menu) {
    Comparator<SegmentOption> order = Comparator.comparing((SegmentOption o) -> !first.contains(Unit.of(o)))
        .thenComparing(Comparator.comparingInt((SegmentOption o) -> packing.slices(o)).reversed())
        .thenComparing(SegmentOption::throughput, Comparator.reverseOrder());
    Map<Unit, Set<String>> fullTypes = new HashMap<>();
    Set<Unit> stranded = new LinkedHashSet<>();
    List<SegmentOption> round = items;
    while (!round.isEmpty()) {
      round.sort(order);
      Map<Unit, Double> lost = new LinkedHashMap<>();
      for (SegmentOption o : round) {
        if (packing.place(o, shares(), true) == null) {
          if (!spill) {
            return Set.of(Unit.of(o));
          }
          lost.merge(Unit.of(o), o.throughput(), Double::sum);
          fullTypes.computeIfAbsent(Unit.of(o), u -> new HashSet<>()).add(o.gpuType());
        }
      }
      round = new ArrayList<>();
      for (Map.Entry<Unit, Double> e : lost.entrySet()) {
        List<SegmentOption> more = spill(problem, menu, e.getKey(), e.getValue(), fullTypes.get(e.getKey()));
        if (more.isEmpty()) {
          stranded.add(e.getKey());
        }
        round.addAll(more);
      }
    }
    return stranded;
  }

  /** True when the planner covers what a full GPU type could not take on another type ({@link #spill}); the baselines do not. */
  boolean spills() {
    return false;
  }

  /**
   * Options covering {@code deficit} requests/s of {@code unit} on the best-ranked GPU type not in
   * {@code fullTypes}; empty when none is left.
   */
  List<SegmentOption> spill(ColocationProblem problem, SegmentMenu menu, Unit unit, double deficit, Set<String> fullTypes) {
    return List.of();
  }

  /**
   * The GPUs of a plan being built, the throughput each service gets and the demand it must get.
   * Every GPU of a MIG or template pool not held whole sits in a bucket by its used-unit mask, in list order,
   * so best fit looks at one GPU per occupied mask instead of scanning every GPU.
   */
  static final class Packing {
    final ColocationProblem problem;
    /** The used GPUs in plan order; change it only through {@link #place}, {@link #removeBin}, {@link #restoreBin} and {@link #removeLast}. */
    final List<GpuBin> bins = new ArrayList<>();
    /** Per service, the parts its demand splits into (whole model: [null]). */
    final Map<String, List<PipelineStage>> parts = new HashMap<>();
    final Map<Unit, Double> demand = new HashMap<>();
    final Map<Unit, Double> served = new HashMap<>();
    private final Map<GpuPool, PoolBins> byPool = new IdentityHashMap<>();
    private long nextOrder;

    Packing(ColocationProblem problem) {
      this.problem = problem;
      for (GpuPool pool : problem.pools()) {
        byPool.put(pool, new PoolBins(GpuBin.Starts.of(pool.partitioning())));
      }
    }

    int slices(SegmentOption o) {
      return SegmentMenu.units(problem.pool(o.gpuType()), o);
    }

    /** Best fit: the GPU the option fills most tightly (the first in plan order among equals); a new GPU if allowed and none fits; null when none. */
    GpuBin place(SegmentOption o, boolean share, boolean openNew) {
      GpuPool pool = problem.pool(o.gpuType());
      PoolBins pb = byPool.get(pool);
      GpuBin best = null;
      int bestStart = -1;
      int bestFree = Integer.MAX_VALUE;
      if (share && !o.whole()) {
        int need = slices(o);
        int total = pb.starts.units();
        for (Map.Entry<Long, TreeSet<GpuBin>> e : pb.byMask.entrySet()) {
          int free = total - Long.bitCount(e.getKey());
          if (free < need || free > bestFree) {
            continue;
          }
          GpuBin first = e.getValue().first();
          if (free == bestFree && first.order > best.order) {
            continue;
          }
          // every GPU of one mask has the same best start: ask the first
          OptionalInt s = first.bestStart(o);
          if (s.isPresent()) {
            best = first;
            bestStart = s.getAsInt();
            bestFree = free;
          }
        }
      }
      if (best == null) {
        if (!openNew || pb.count >= pool.count()) {
          return null;
        }
        best = new GpuBin(pool, pb.starts);
        OptionalInt s = best.bestStart(o);
        if (s.isEmpty()) {
          return null;
        }
        bestStart = s.getAsInt();
        best.add(o, bestStart);
        appendBin(best);
      } else {
        pb.unindex(best);
        best.add(o, bestStart);
        pb.index(best);
      }
      served.merge(Unit.of(o), o.throughput(), Double::sum);
      return best;
    }

    /** Takes {@code bin} out of the plan (its services' throughput is the caller's to account). */
    void removeBin(GpuBin bin) {
      bins.remove(bin);
      PoolBins pb = byPool.get(bin.pool);
      pb.unindex(bin);
      pb.count--;
    }

    /** Puts a removed {@code bin} back, at the end of the plan. */
    void restoreBin(GpuBin bin) {
      appendBin(bin);
    }

    /** Takes the last option off {@code bin}, with its throughput. */
    void removeLast(GpuBin bin) {
      PoolBins pb = byPool.get(bin.pool);
      pb.unindex(bin);
      SegmentOption o = bin.remove(bin.options.size() - 1);
      pb.index(bin);
      served.merge(Unit.of(o), -o.throughput(), Double::sum);
    }

    private void appendBin(GpuBin bin) {
      bin.order = nextOrder++;
      bins.add(bin);
      PoolBins pb = byPool.get(bin.pool);
      pb.index(bin);
      pb.count++;
    }

    double surplus(Unit unit) {
      return served.getOrDefault(unit, 0.0) - demand.get(unit);
    }
  }

  /** What must be served a service's rate: its whole model (stage null) or one stage of its chosen pipeline. */
  record Unit(String service, PipelineStage stage) {
    static Unit of(SegmentOption o) {
      return new Unit(o.service(), o.stage());
    }
  }

  /** One pool's GPUs in the plan: how many, and those that may take more MIG instances by used-slice mask. */
  private static final class PoolBins {
    final GpuBin.Starts starts;
    final Map<Long, TreeSet<GpuBin>> byMask = new HashMap<>();
    int count;

    PoolBins(GpuBin.Starts starts) {
      this.starts = starts;
    }

    void index(GpuBin b) {
      if (!b.whole() && b.freeSlices() > 0) {
        byMask.computeIfAbsent(b.usedMask(), m -> new TreeSet<>(Comparator.comparingLong(x -> x.order))).add(b);
      }
    }

    void unindex(GpuBin b) {
      TreeSet<GpuBin> same = byMask.get(b.usedMask());
      if (same != null && same.remove(b) && same.isEmpty()) {
        byMask.remove(b.usedMask());
      }
    }
  }
}
