package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigProfile;

/**
 * ParvaGPU-style co-location (SC'24, re-implemented from its description): per service the option
 * (whole GPU or MIG instance, batch, processes) with the best throughput per share under the SLO
 * rule, copies of it to cover the rate and a right-sized last one (the smallest share that covers
 * the remainder); best-fit packing over legal MIG starts; then a repair pass that tries to empty
 * nearly empty GPUs and a local search that tries every GPU, fewest used slices first: a GPU is
 * removed when its services' lost throughput, beyond their surplus, can be re-covered by
 * right-sized options in the free room of the other GPUs.
 */
final class ParvaStyleHeuristic extends PackingPlanner {

  @Override
  public String name() {
    return "heuristic";
  }

  @Override
  boolean shares() {
    return true;
  }

  @Override
  List<SegmentOption> cover(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand) {
    List<SegmentOption> all = new ArrayList<>();
    for (GpuPool pool : problem.pools()) {
      if (pool.count() > 0) {
        all.addAll(menu.options(pool.type().name(), service.id()));
      }
    }
    if (all.isEmpty()) {
      return List.of();
    }
    SegmentOption best = all.stream().max(Comparator.comparingDouble(o -> o.throughput() / shareEquivalent(problem, o))).orElseThrow();
    List<SegmentOption> out = new ArrayList<>();
    double left = demand;
    while (left >= best.throughput()) {
      out.add(best);
      left -= best.throughput();
    }
    if (left > demand * 1e-12) {
      double rem = left;
      SegmentOption last = all.stream().filter(o -> o.throughput() >= rem)
          .min(Comparator.comparingDouble((SegmentOption o) -> shareEquivalent(problem, o)).thenComparing(SegmentOption::throughput, Comparator.reverseOrder()))
          .orElse(best);
      out.add(shareEquivalent(problem, last) < shareEquivalent(problem, best) ? last : best);
    }
    return out;
  }

  @Override
  void improve(ColocationProblem problem, SegmentMenu menu, Packing packing, long deadlineNanos) {
    // repair: nearly empty GPUs (at most a quarter of their memory slices) first; then every GPU
    boolean changed = true;
    for (int pass = 0; changed && System.nanoTime() < deadlineNanos; pass++) {
      changed = false;
      List<GpuBin> order = new ArrayList<>(packing.bins);
      order.sort(Comparator.comparingInt(GpuBin::usedSlices));
      for (GpuBin b : order) {
        if (System.nanoTime() >= deadlineNanos) {
          return;
        }
        boolean nearlyEmpty = b.usedSlices() * 4 <= Math.max(b.usedSlices() + b.freeSlices(), 1);
        if ((pass > 0 || nearlyEmpty) && eliminate(problem, menu, packing, b)) {
          changed = true;
        }
      }
      if (pass == 0) {
        changed = true;
      }
    }
  }

  /** Removes {@code bin} if its services' lost throughput can be re-covered in the other GPUs' free room. */
  private boolean eliminate(ColocationProblem problem, SegmentMenu menu, Packing packing, GpuBin bin) {
    Map<String, Double> lost = new HashMap<>();
    bin.options.forEach(o -> lost.merge(o.service(), o.throughput(), Double::sum));
    packing.bins.remove(bin);
    lost.forEach((s, t) -> packing.served.merge(s, -t, Double::sum));
    List<SegmentOption> added = new ArrayList<>();
    List<GpuBin> addedTo = new ArrayList<>();
    boolean ok = true;
    for (ColocationService s : problem.services()) {
      double deficit = -packing.surplus(s.id());
      if (!lost.containsKey(s.id()) || deficit <= s.rate() * 1e-12) {
        continue;
      }
      List<SegmentOption> items = new ArrayList<>(cover(problem, menu, s, deficit));
      items.sort(Comparator.comparingInt((SegmentOption o) -> packing.slices(o)).reversed());
      for (SegmentOption o : items) {
        GpuBin to = packing.place(o, true, false);
        if (to == null) {
          ok = false;
          break;
        }
        added.add(o);
        addedTo.add(to);
      }
      if (!ok) {
        break;
      }
    }
    if (ok) {
      return true;
    }
    for (int i = added.size() - 1; i >= 0; i--) {
      GpuBin b = addedTo.get(i);
      b.remove(b.options.size() - 1);
      packing.served.merge(added.get(i).service(), -added.get(i).throughput(), Double::sum);
    }
    lost.forEach((s, t) -> packing.served.merge(s, t, Double::sum));
    packing.bins.add(bin);
    return false;
  }

  /** SHARING.md section 4: compute fraction for whole GPUs, max(compute slices / 7, memory slices / 8) for MIG. */
  static double shareEquivalent(ColocationProblem problem, SegmentOption o) {
    if (o.whole()) {
      return 1;
    }
    MigGeometry g = problem.pool(o.gpuType()).partitioning().requireMig();
    MigProfile p = g.profile(o.profile());
    int fullCompute = g.profiles().stream().mapToInt(MigProfile::computeSlices).max().orElseThrow();
    return Math.max((double) p.computeSlices() / fullCompute, (double) p.memorySlices() / g.memorySlices());
  }
}
