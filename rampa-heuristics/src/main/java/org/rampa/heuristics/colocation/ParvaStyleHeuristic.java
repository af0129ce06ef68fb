package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.PipelineStage;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;

/**
 * ParvaGPU-style co-location (SC'24, re-implemented from its description): per service the option
 * (whole GPU, MIG instance, NPU template or AMD CU mask, batch, processes) with the best throughput per share
 * under the SLO rule, copies of it to cover the rate and a right-sized last one (the smallest share
 * that covers the remainder); best-fit packing over legal MIG starts, free template cores or free
 * eighths of a card's CUs (CU masks priced for the fullest card, {@link SegmentMenu#cuMaskOptionsForAnyCard}). On a
 * cluster of several GPU types, what does not fit once the best type's pool is full spills over: the
 * service's uncovered throughput is covered the same way on its next-best type (ranked by the
 * throughput per share of each type's best option), and so on, so every pool is used (a single pool
 * packs as before: nothing to spill to). Then a
 * repair pass that tries to empty nearly empty GPUs and a local search that tries every GPU, fewest
 * used slices first: a GPU is
 * removed when its services' lost throughput, beyond their surplus, can be re-covered by
 * right-sized options in the free room of the other GPUs. A service offering pipeline partitions
 * runs whole or split by the one partition that needs the least share per request/s ({@link
 * Covers}); each stage is then covered and packed like a service of its own.
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
    return covers(problem, menu).choose(service.id(), demand).items;
  }

  @Override
  List<PipelineStage> stages(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand) {
    return covers(problem, menu).choose(service.id(), demand).stages;
  }

  @Override
  boolean spills() {
    return true;
  }

  @Override
  List<SegmentOption> spill(ColocationProblem problem, SegmentMenu menu, Unit unit, double deficit, Set<String> fullTypes) {
    for (ServiceCover onType : covers(problem, menu).of(unit).byType()) {
      if (!fullTypes.contains(onType.gpuType())) {
        return onType.cover(deficit);
      }
    }
    return List.of();
  }

  private Covers covers(ColocationProblem problem, SegmentMenu menu) {
    Covers covers = lastCovers;
    if (covers == null || covers.menu != menu) {
      covers = new Covers(problem, menu);
      lastCovers = covers;
    }
    return covers;
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
    Map<Unit, Double> lost = new HashMap<>();
    bin.options.forEach(o -> lost.merge(Unit.of(o), o.throughput(), Double::sum));
    packing.removeBin(bin);
    lost.forEach((u, t) -> packing.served.merge(u, -t, Double::sum));
    Covers covers = covers(problem, menu);
    List<GpuBin> addedTo = new ArrayList<>();
    boolean ok = true;
    for (ColocationService s : problem.services()) {
      for (PipelineStage stage : packing.parts.get(s.id())) {
        Unit u = new Unit(s.id(), stage);
        double deficit = -packing.surplus(u);
        if (!lost.containsKey(u) || deficit <= s.rate() * 1e-12) {
          continue;
        }
        List<SegmentOption> items = new ArrayList<>(covers.of(u).cover(deficit));
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
    lost.forEach((u, t) -> packing.served.merge(u, t, Double::sum));
    packing.restoreBin(bin);
    return false;
  }

  /**
   * How much of a GPU {@code o} uses up: its placement's own share equivalent (docs/SHARING.md
   * section 4; its start does not change it). The packing takes only templates whose memory is at
   * most their cores' share of the card ({@link GpuBin.Starts}), so a template's is its cores' share.
   */
  static double shareEquivalent(ColocationProblem problem, SegmentOption o) {
    return o.placementAt(0).shareEquivalent(problem.pool(o.gpuType()).partitioning());
  }

  /**
   * Per service of one menu, the configurations it may run (the whole model; per partition, its
   * stages at their cheapest batch-time caps, see {@link Pipeline}) and, per part, its options
   * ordered for the configurator's two questions. For a demand, the service runs the configuration
   * whose covers (copies plus right-sized last ones, per part) take the least share in sum; the
   * whole model wins ties. Each stage uses only options within its cap, so any mix of them keeps
   * the sum of the stages' slowest batches within the SLO rule's budget.
   */
  private static final class Covers {
    final SegmentMenu menu;
    private final ColocationProblem problem;
    private final Map<String, List<List<PipelineStage>>> configurations = new HashMap<>();
    private final Map<Unit, ServiceCover> byUnit = new HashMap<>();

    Covers(ColocationProblem problem, SegmentMenu menu) {
      this.menu = menu;
      this.problem = problem;
      for (ColocationService s : problem.services()) {
        List<SegmentOption> whole = new ArrayList<>();
        for (GpuPool pool : problem.pools()) {
          if (pool.count() > 0) {
            whole.addAll(menu.options(pool.type().name(), s.id()));
            // CU masks priced for the fullest card: best fit may put any masks that fit beside them
            whole.addAll(menu.cuMaskOptionsForAnyCard(pool.type().name(), s.id()));
          }
        }
        List<List<PipelineStage>> mine = new ArrayList<>();
        mine.add(Collections.singletonList(null));
        byUnit.put(new Unit(s.id(), null), new ServiceCover(problem, whole));
        for (int p = 0; p < s.partitions().size(); p++) {
          Pipeline pipeline = Pipeline.cheapest(problem, menu, s, p);
          if (pipeline != null) {
            mine.add(pipeline.stages);
            for (int k = 0; k < pipeline.stages.size(); k++) {
              byUnit.put(new Unit(s.id(), pipeline.stages.get(k)), new ServiceCover(problem, pipeline.options.get(k)));
            }
          }
        }
        configurations.put(s.id(), mine);
      }
    }

    /** The configuration of {@code service} whose covers of {@code demand} take the least share (the whole model on ties; empty covers when none serves). */
    Choice choose(String service, double demand) {
      Choice best = null;
      double bestShare = Double.POSITIVE_INFINITY;
      for (List<PipelineStage> stages : configurations.get(service)) {
        List<SegmentOption> items = new ArrayList<>();
        boolean served = true;
        for (PipelineStage stage : stages) {
          List<SegmentOption> part = byUnit.get(new Unit(service, stage)).cover(demand);
          served &= !part.isEmpty();
          items.addAll(part);
        }
        if (!served) {
          continue;
        }
        double share = 0;
        for (SegmentOption o : items) {
          share += shareEquivalent(problem, o);
        }
        if (best == null || share < bestShare) {
          best = new Choice(stages, items);
          bestShare = share;
        }
      }
      return best != null ? best : new Choice(Collections.singletonList(null), List.of());
    }

    ServiceCover of(Unit unit) {
      return byUnit.get(unit);
    }
  }

  /** The parts a service's demand splits into and the options that cover each of them. */
  private record Choice(List<PipelineStage> stages, List<SegmentOption> items) {}

  /** One partition of a service at its cheapest batch-time caps: its stages, each stage's options within its cap, and the share per request/s. */
  private record Pipeline(List<PipelineStage> stages, List<List<SegmentOption>> options, double cost) {

    /** The partition's cheapest caps, or null when some stage has no option or no caps fit the budget. */
    static Pipeline cheapest(ColocationProblem problem, SegmentMenu menu, ColocationService s, int partition) {
      double budget = problem.sloRule().budgetSeconds(s);
      int n = s.partitions().get(partition).stages();
      List<PipelineStage> stages = new ArrayList<>();
      List<List<SegmentOption>> all = new ArrayList<>();
      List<double[][]> frontiers = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        PipelineStage stage = new PipelineStage(partition, k);
        List<SegmentOption> options = new ArrayList<>();
        for (GpuPool pool : problem.pools()) {
          if (pool.count() > 0) {
            options.addAll(menu.stageOptions(pool.type().name(), s.id(), stage));
          }
        }
        if (options.isEmpty()) {
          return null;
        }
        stages.add(stage);
        all.add(options);
        frontiers.add(frontier(problem, options));
      }
      double[] caps = new double[n];
      double[] bestCaps = new double[n];
      double[] bestCost = {Double.POSITIVE_INFINITY};
      search(frontiers, 0, 0, 0, budget, caps, bestCaps, bestCost);
      if (bestCost[0] == Double.POSITIVE_INFINITY) {
        return null;
      }
      List<List<SegmentOption>> within = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        double cap = bestCaps[k];
        within.add(all.get(k).stream().filter(o -> o.batchSeconds() <= cap).toList());
      }
      return new Pipeline(List.copyOf(stages), within, bestCost[0]);
    }

    /** (batch-time cap, least share per request/s within it), by increasing cap, only where the cost drops. */
    private static double[][] frontier(ColocationProblem problem, List<SegmentOption> options) {
      List<SegmentOption> byTime = new ArrayList<>(options);
      byTime.sort(Comparator.comparingDouble(SegmentOption::batchSeconds));
      List<double[]> out = new ArrayList<>();
      double best = Double.POSITIVE_INFINITY;
      for (SegmentOption o : byTime) {
        double cost = shareEquivalent(problem, o) / o.throughput();
        if (cost < best) {
          best = cost;
          out.add(new double[] {o.batchSeconds(), cost});
        }
      }
      return out.toArray(double[][]::new);
    }

    private static void search(List<double[][]> frontiers, int k, double time, double cost, double budget, double[] caps, double[] bestCaps, double[] bestCost) {
      if (k == frontiers.size()) {
        if (cost < bestCost[0]) {
          bestCost[0] = cost;
          System.arraycopy(caps, 0, bestCaps, 0, caps.length);
        }
        return;
      }
      for (double[] point : frontiers.get(k)) {
        if (time + point[0] > budget) {
          break;
        }
        caps[k] = point[0];
        search(frontiers, k + 1, time + point[0], cost + point[1], budget, caps, bestCaps, bestCost);
      }
    }
  }

  /**
   * One service's options: the one with the best throughput per share (the first of equals), and
   * all of them by share, larger throughput first among equal shares, for the right-sized last copy.
   */
  private static final class ServiceCover {
    private final ColocationProblem problem;
    private final List<SegmentOption> all;
    private final SegmentOption best;
    private final double bestShare;
    private final SegmentOption[] bySmallestShare;
    private final double[] shares;
    /** Built on the first spill only, so a plan whose best types have room pays nothing for it. */
    private List<ServiceCover> byType;

    ServiceCover(ColocationProblem problem, List<SegmentOption> all) {
      this.problem = problem;
      this.all = all;
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

    /** The GPU type of the best option (null when there is none). */
    String gpuType() {
      return best == null ? null : best.gpuType();
    }

    /**
     * One cover per GPU type among the options, best type first: by the throughput per share of the
     * type's best option (the ranking that picks {@link #best}; the first type in pool order among equals).
     */
    synchronized List<ServiceCover> byType() {
      if (byType == null) {
        Map<String, List<SegmentOption>> split = new LinkedHashMap<>();
        for (SegmentOption o : all) {
          split.computeIfAbsent(o.gpuType(), t -> new ArrayList<>()).add(o);
        }
        List<ServiceCover> ranked = new ArrayList<>();
        split.values().forEach(options -> ranked.add(new ServiceCover(problem, options)));
        // a stable sort: equal ratios keep the options' (pool) order
        ranked.sort(Comparator.comparingDouble((ServiceCover c) -> c.best.throughput() / c.bestShare).reversed());
        byType = List.copyOf(ranked);
      }
      return byType;
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
