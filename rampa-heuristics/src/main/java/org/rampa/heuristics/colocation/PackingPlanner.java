package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;

/**
 * The shape the heuristic and the isolated baselines share: cover each service's demand with
 * isolated options (the subclass decides which), pack them onto GPUs (best fit over legal MIG
 * starts, or one per GPU), optionally improve.
 */
abstract class PackingPlanner extends DemandPlanner {

  /** The options that cover {@code demand} requests/s of {@code service}; empty when it has none. */
  abstract List<SegmentOption> cover(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand);

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
    Packing packing = new Packing(problem);
    List<SegmentOption> items = new ArrayList<>();
    for (ColocationService s : problem.services()) {
      packing.demand.put(s.id(), s.rate() * scale);
      items.addAll(cover(problem, menu, s, s.rate() * scale));
    }
    items.sort(Comparator.comparingInt((SegmentOption o) -> packing.slices(o)).reversed().thenComparing(SegmentOption::throughput, Comparator.reverseOrder()));
    for (SegmentOption o : items) {
      if (packing.place(o, shares(), true) == null) {
        return Optional.empty();
      }
    }
    improve(problem, menu, packing, deadline);
    return Optional.of(new ColocationPlan(packing.bins.stream().map(GpuBin::configuration).toList(), scale));
  }

  /** The GPUs of a plan being built, the throughput each service gets and the demand it must get. */
  static final class Packing {
    final ColocationProblem problem;
    final List<GpuBin> bins = new ArrayList<>();
    final Map<String, Double> demand = new HashMap<>();
    final Map<String, Double> served = new HashMap<>();

    Packing(ColocationProblem problem) {
      this.problem = problem;
    }

    int slices(SegmentOption o) {
      return SegmentMenu.memorySlices(problem.pool(o.gpuType()), o);
    }

    /** Best fit: the GPU the option fills most tightly; a new GPU if allowed and none fits; null when none. */
    GpuBin place(SegmentOption o, boolean share, boolean openNew) {
      GpuBin best = null;
      int bestStart = -1;
      int bestFree = Integer.MAX_VALUE;
      int need = slices(o);
      if (share) {
        for (GpuBin b : bins) {
          if (!b.pool.type().name().equals(o.gpuType()) || b.freeSlices() < need || b.freeSlices() >= bestFree) {
            continue;
          }
          OptionalInt s = b.bestStart(o);
          if (s.isPresent()) {
            best = b;
            bestStart = s.getAsInt();
            bestFree = b.freeSlices();
          }
        }
      }
      if (best == null) {
        if (!openNew) {
          return null;
        }
        GpuPool pool = problem.pool(o.gpuType());
        long open = bins.stream().filter(b -> b.pool == pool).count();
        if (open >= pool.count()) {
          return null;
        }
        best = new GpuBin(pool);
        OptionalInt s = best.bestStart(o);
        if (s.isEmpty()) {
          return null;
        }
        bestStart = s.getAsInt();
        bins.add(best);
      }
      best.add(o, bestStart);
      served.merge(o.service(), o.throughput(), Double::sum);
      return best;
    }

    double surplus(String service) {
      return served.getOrDefault(service, 0.0) - demand.get(service);
    }
  }
}
