package org.rampa.solver;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigSlice;

/**
 * The pricing problem of column generation for one pool: the configuration maximising
 * {@code Σ_i p_i · throughput_i} for prices {@code p}. MIG instances are isolated, so a layout's
 * value is the sum over its instances of the best priced option on each profile, and the best
 * layout is the best of the geometry's maximal layouts; a whole-GPU configuration is the best
 * priced whole option. Exact for the configurations the planner searches (whole GPU; MIG layouts
 * with one service per instance, MPS processes inside an instance).
 */
final class ColocationPricing {

  private final ColocationProblem problem;
  private final SegmentMenu menu;
  private final List<List<List<MigSlice>>> layouts = new ArrayList<>();
  /** Per pool, the undominated MPS pair configurations; null when there were too many to enumerate. */
  private final List<List<ColocationColumn>> mpsPairs = new ArrayList<>();

  /** The MPS splits of a GPU between two tenants: (s, 1 − s). */
  static final List<Double> MPS_SPLITS = List.of(0.2, 0.4, 0.5, 0.6, 0.8);

  /** Pair evaluations per pool beyond which MPS pairs are not searched (and no complete enumeration is claimed). */
  static final int MPS_EVALUATION_LIMIT = 50_000;

  ColocationPricing(ColocationProblem problem, SegmentMenu menu) {
    this.problem = problem;
    this.menu = menu;
    for (int k = 0; k < problem.pools().size(); k++) {
      GpuPool pool = problem.pools().get(k);
      layouts.add(pool.partitioning().mig().map(MigLayouts::maximal).orElse(List.of()));
      mpsPairs.add(pool.partitioning().mps() && pool.count() > 0 ? enumeratePairs(k) : List.of());
    }
  }

  /** False when a pool had too many MPS pairs to enumerate, so they are not searched there. */
  boolean searchesAllMpsPairs() {
    return mpsPairs.stream().allMatch(java.util.Objects::nonNull);
  }

  /**
   * Every configuration of two MPS tenants sharing one GPU as (s, 1 − s), s from {@link
   * #MPS_SPLITS}, at every pair of allowed batches that keeps both within the SLO rule with α for
   * exactly this pair; undominated ones only. Services the time model knows no MPS time for are
   * left out. Null when more than {@link #MPS_EVALUATION_LIMIT} pairs would be evaluated.
   */
  private List<ColocationColumn> enumeratePairs(int k) {
    GpuPool pool = problem.pools().get(k);
    String type = pool.type().name();
    List<ColocationService> capable = new ArrayList<>();
    for (ColocationService s : problem.services()) {
      org.rampa.colocation.Segment alone = new org.rampa.colocation.Segment(s.id(), new org.rampa.domain.share.MpsShare(0.5, s.processMemoryBytes()), s.batches().get(0));
      if (org.rampa.colocation.ColocationPerformance.evaluate(problem, new org.rampa.colocation.GpuConfiguration(type, List.of(alone))).isPresent()) {
        capable.add(s);
      }
    }
    long evaluations = 0;
    for (int i = 0; i < capable.size(); i++) {
      for (int j = i; j < capable.size(); j++) {
        evaluations += (long) MPS_SPLITS.size() * capable.get(i).batches().size() * capable.get(j).batches().size();
      }
    }
    if (evaluations > MPS_EVALUATION_LIMIT) {
      return null;
    }
    List<ColocationColumn> raw = new ArrayList<>();
    for (int i = 0; i < capable.size(); i++) {
      for (int j = i; j < capable.size(); j++) {
        ColocationService a = capable.get(i);
        ColocationService b = capable.get(j);
        for (double split : MPS_SPLITS) {
          if (i == j && split > 0.5) {
            continue; // the same service twice: (s, 1 − s) and (1 − s, s) are one configuration
          }
          for (int ba : a.batches()) {
            for (int bb : b.batches()) {
              List<org.rampa.colocation.Segment> pair = List.of(
                  new org.rampa.colocation.Segment(a.id(), new org.rampa.domain.share.MpsShare(split, a.processMemoryBytes()), ba),
                  new org.rampa.colocation.Segment(b.id(), new org.rampa.domain.share.MpsShare(1 - split, b.processMemoryBytes()), bb));
              org.rampa.colocation.GpuConfiguration gpu = new org.rampa.colocation.GpuConfiguration(type, pair);
              if (problem.admission().check(pool.partitioning(), pair.stream().map(org.rampa.colocation.Segment::placement).toList()).isPresent()) {
                continue;
              }
              Optional<List<org.rampa.colocation.SegmentPerformance>> perf = org.rampa.colocation.ColocationPerformance.evaluate(problem, gpu);
              if (perf.isEmpty() || !problem.sloRule().admits(perf.get().get(0).batchSeconds(), a)
                  || !problem.sloRule().admits(perf.get().get(1).batchSeconds(), b)) {
                continue;
              }
              double[] t = new double[problem.services().size()];
              t[index(a.id())] += perf.get().get(0).throughput();
              t[index(b.id())] += perf.get().get(1).throughput();
              raw.add(new ColocationColumn(k, pair, t));
            }
          }
        }
      }
    }
    return undominated(raw);
  }

  /** The best configuration of pool {@code k} at prices {@code p}; empty when no price is positive or no option exists. */
  Optional<ColocationColumn> best(int k, double[] p) {
    GpuPool pool = problem.pools().get(k);
    String type = pool.type().name();
    double bestValue = 0;
    ColocationColumn best = null;
    SegmentOption whole = bestOption(type, null, p);
    if (whole != null) {
      bestValue = value(whole, p);
      best = column(k, List.of(whole), List.of(0));
    }
    java.util.Map<String, SegmentOption> perProfile = new java.util.HashMap<>();
    for (List<MigSlice> layout : layouts.get(k)) {
      double v = 0;
      for (MigSlice s : layout) {
        SegmentOption o = perProfile.computeIfAbsent(s.profile(), q -> bestOption(type, q, p));
        if (o != null) {
          v += value(o, p);
        }
      }
      if (v > bestValue + 1e-12) {
        List<SegmentOption> opts = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        for (MigSlice s : layout) {
          SegmentOption o = perProfile.get(s.profile());
          if (o != null) {
            opts.add(o);
            starts.add(s.start());
          }
        }
        bestValue = v;
        best = column(k, opts, starts);
      }
    }
    for (ColocationColumn c : mpsPairs.get(k) == null ? List.<ColocationColumn>of() : mpsPairs.get(k)) {
      double v = 0;
      for (int i = 0; i < p.length; i++) {
        v += Math.max(0, p[i]) * c.throughput()[i];
      }
      if (v > bestValue + 1e-12) {
        bestValue = v;
        best = c;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The option on {@code profile} (null: whole GPU) of the service with the highest positive priced throughput. */
  private SegmentOption bestOption(String type, String profile, double[] p) {
    SegmentOption best = null;
    double bestValue = 0;
    for (int i = 0; i < p.length; i++) {
      if (p[i] <= 0) {
        continue;
      }
      Optional<SegmentOption> o = menu.best(type, problem.services().get(i).id(), profile);
      if (o.isPresent() && p[i] * o.get().throughput() > bestValue) {
        bestValue = p[i] * o.get().throughput();
        best = o.get();
      }
    }
    return best;
  }

  private double value(SegmentOption o, double[] p) {
    return p[index(o.service())] * o.throughput();
  }

  int index(String service) {
    List<ColocationService> s = problem.services();
    for (int i = 0; i < s.size(); i++) {
      if (s.get(i).id().equals(service)) {
        return i;
      }
    }
    throw new IllegalStateException("option of unknown service " + service);
  }

  /**
   * Every configuration of pool {@code k} that no other configuration dominates, when there are at
   * most {@code limit} before filtering: whole-GPU options, and each maximal layout with every
   * instance given to some service (instances of one profile are interchangeable, so a layout is
   * enumerated by how many instances of each profile each service gets). More throughput never
   * hurts any objective and instances are isolated, so the integer model over these columns has
   * the optimum of the whole searched space. Empty when the space is larger than {@code limit}.
   */
  Optional<List<ColocationColumn>> allColumns(int k, int limit) {
    GpuPool pool = problem.pools().get(k);
    String type = pool.type().name();
    List<ColocationService> services = problem.services();
    if (mpsPairs.get(k) == null) {
      return Optional.empty();
    }
    List<ColocationColumn> raw = new ArrayList<>(mpsPairs.get(k));
    for (ColocationService s : services) {
      menu.best(type, s.id(), null).ifPresent(o -> raw.add(column(k, List.of(o), List.of(0))));
    }
    for (List<MigSlice> layout : layouts.get(k)) {
      java.util.Map<String, List<Integer>> startsByProfile = new java.util.LinkedHashMap<>();
      layout.forEach(sl -> startsByProfile.computeIfAbsent(sl.profile(), q -> new ArrayList<>()).add(sl.start()));
      List<List<SegmentOption[]>> perProfile = new ArrayList<>();
      List<List<Integer>> starts = new ArrayList<>();
      for (var e : startsByProfile.entrySet()) {
        List<SegmentOption> candidates = new ArrayList<>();
        for (ColocationService s : services) {
          menu.best(type, s.id(), e.getKey()).ifPresent(candidates::add);
        }
        if (candidates.isEmpty()) {
          continue;
        }
        if (raw.size() + multisetCount(candidates.size(), e.getValue().size()) > limit) {
          return Optional.empty();
        }
        List<SegmentOption[]> fills = new ArrayList<>();
        multisets(candidates, e.getValue().size(), 0, new ArrayList<>(), fills);
        perProfile.add(fills);
        starts.add(e.getValue());
      }
      long count = 1;
      for (List<SegmentOption[]> f : perProfile) {
        count *= f.size();
      }
      if (raw.size() + count > limit) {
        return Optional.empty();
      }
      product(k, perProfile, starts, 0, new ArrayList<>(), new ArrayList<>(), raw);
    }
    return Optional.of(undominated(raw));
  }

  /** C(n + m − 1, m): multisets of size m from n kinds, capped far above any limit to stay in range. */
  private static long multisetCount(int n, int m) {
    long c = 1;
    for (int i = 1; i <= m; i++) {
      c = c * (n + i - 1) / i;
      if (c > Integer.MAX_VALUE) {
        return Integer.MAX_VALUE;
      }
    }
    return c;
  }

  private static void multisets(List<SegmentOption> candidates, int size, int from, List<SegmentOption> current, List<SegmentOption[]> out) {
    if (current.size() == size) {
      out.add(current.toArray(new SegmentOption[0]));
      return;
    }
    for (int i = from; i < candidates.size(); i++) {
      current.add(candidates.get(i));
      multisets(candidates, size, i, current, out);
      current.remove(current.size() - 1);
    }
  }

  private void product(int k, List<List<SegmentOption[]>> perProfile, List<List<Integer>> starts, int depth, List<SegmentOption> opts, List<Integer> at,
      List<ColocationColumn> out) {
    if (depth == perProfile.size()) {
      out.add(column(k, opts, at));
      return;
    }
    for (SegmentOption[] fill : perProfile.get(depth)) {
      int before = opts.size();
      for (int j = 0; j < fill.length; j++) {
        opts.add(fill[j]);
        at.add(starts.get(depth).get(j));
      }
      product(k, perProfile, starts, depth + 1, opts, at, out);
      opts.subList(before, opts.size()).clear();
      at.subList(before, at.size()).clear();
    }
  }

  /** The columns no other column matches or beats on every service's throughput. */
  private static List<ColocationColumn> undominated(List<ColocationColumn> raw) {
    java.util.Map<String, ColocationColumn> distinct = new java.util.LinkedHashMap<>();
    raw.forEach(c -> distinct.putIfAbsent(java.util.Arrays.toString(c.throughput()), c));
    List<ColocationColumn> all = new ArrayList<>(distinct.values());
    List<ColocationColumn> out = new ArrayList<>();
    for (ColocationColumn c : all) {
      boolean dominated = false;
      for (ColocationColumn d : all) {
        if (d != c && dominates(d.throughput(), c.throughput())) {
          dominated = true;
          break;
        }
      }
      if (!dominated) {
        out.add(c);
      }
    }
    return out;
  }

  private static boolean dominates(double[] a, double[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] < b[i]) {
        return false;
      }
    }
    return true;
  }

  /** The column of a configuration some other planner made, priced by the performance model with its co-runners. */
  ColocationColumn column(ColocationProblem problem, org.rampa.colocation.GpuConfiguration gpu) {
    int k = problem.pools().indexOf(problem.pool(gpu.gpuType()));
    List<org.rampa.colocation.SegmentPerformance> perf = org.rampa.colocation.ColocationPerformance.evaluate(problem, gpu).orElseThrow();
    double[] a = new double[problem.services().size()];
    for (int i = 0; i < perf.size(); i++) {
      a[index(gpu.segments().get(i).service())] += perf.get(i).throughput();
    }
    return new ColocationColumn(k, gpu.segments(), a);
  }

  ColocationColumn column(int k, List<SegmentOption> options, List<Integer> starts) {
    double[] a = new double[problem.services().size()];
    List<org.rampa.colocation.Segment> segments = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      a[index(options.get(i).service())] += options.get(i).throughput();
      segments.add(options.get(i).at(starts.get(i)));
    }
    return new ColocationColumn(k, List.copyOf(segments), a);
  }
}
