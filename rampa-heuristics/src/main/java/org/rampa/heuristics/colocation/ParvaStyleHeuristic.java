package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Arrays;
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

  /** The covers of the last menu planned with: a plan asks for the same services' covers thousands of times. */
  private volatile Covers lastCovers;

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
    Covers covers = lastCovers;
    if (covers == null || covers.menu != menu) {
      covers = new Covers(problem, menu);
      lastCovers = covers;
    }
    return covers.of(service.id()).cover(demand);
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
    packing.removeBin(bin);
    lost.forEach((s, t) -> packing.served.merge(s, -t, Double::sum));
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
        addedTo.add(to);
      }
      if (!ok) {
        break;
      }
    }
    if (ok) {
      return true;
    }
    for (int i = addedTo.size() - 1; i >= 0; i--) {
      packing.removeLast(addedTo.get(i));
    }
    lost.forEach((s, t) -> packing.served.merge(s, t, Double::sum));
    packing.restoreBin(bin);
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

  /** Per service of one menu, its options ordered for the configurator's two questions. */
  private static final class Covers {
    final SegmentMenu menu;
    private final Map<String, ServiceCover> byService = new HashMap<>();

    Covers(ColocationProblem problem, SegmentMenu menu) {
      this.menu = menu;
      for (ColocationService s : problem.services()) {
        List<SegmentOption> all = new ArrayList<>();
        for (GpuPool pool : problem.pools()) {
          if (pool.count() > 0) {
            all.addAll(menu.options(pool.type().name(), s.id()));
          }
        }
        byService.put(s.id(), new ServiceCover(problem, all));
      }
    }

    ServiceCover of(String service) {
      return byService.get(service);
    }
  }

  /**
   * One service's options: the one with the best throughput per share (the first of equals), and
   * all of them by share, larger throughput first among equal shares, for the right-sized last copy.
   */
  private static final class ServiceCover {
    private final SegmentOption best;
    private final double bestShare;
    private final SegmentOption[] bySmallestShare;
    private final double[] shares;

    ServiceCover(ColocationProblem problem, List<SegmentOption> all) {
      double[] share = all.stream().mapToDouble(o -> shareEquivalent(problem, o)).toArray();
      int top = -1;
      double topRatio = 0;
      for (int i = 0; i < all.size(); i++) {
        double ratio = all.get(i).throughput() / share[i];
        if (top < 0 || ratio > topRatio) {
          top = i;
          topRatio = ratio;
        }
      }
      best = top < 0 ? null : all.get(top);
      bestShare = top < 0 ? 0 : share[top];
      // a stable sort, so the first of equal (share, throughput) options stays first
      Integer[] order = new Integer[all.size()];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.comparingDouble((Integer i) -> share[i]).thenComparing(i -> all.get(i).throughput(), Comparator.reverseOrder()));
      bySmallestShare = Arrays.stream(order).map(all::get).toArray(SegmentOption[]::new);
      shares = Arrays.stream(order).mapToDouble(i -> share[i]).toArray();
    }

    /** Copies of the best option while they fit in the demand, then the smallest share that covers the rest (the best option if none is smaller). */
    List<SegmentOption> cover(double demand) {
      if (best == null) {
        return List.of();
      }
      List<SegmentOption> out = new ArrayList<>();
      double left = demand;
      while (left >= best.throughput()) {
        out.add(best);
        left -= best.throughput();
      }
      if (left > demand * 1e-12) {
        SegmentOption last = best;
        double lastShare = bestShare;
        for (int i = 0; i < bySmallestShare.length; i++) {
          if (bySmallestShare[i].throughput() >= left) {
            last = bySmallestShare[i];
            lastShare = shares[i];
            break;
          }
        }
        out.add(lastShare < bestShare ? last : best);
      }
      return out;
    }
  }
}
