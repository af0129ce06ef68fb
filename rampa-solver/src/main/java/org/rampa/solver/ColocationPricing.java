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

  ColocationPricing(ColocationProblem problem, SegmentMenu menu) {
    this.problem = problem;
    this.menu = menu;
    for (GpuPool pool : problem.pools()) {
      layouts.add(pool.partitioning().mig().map(MigLayouts::maximal).orElse(List.of()));
    }
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
    List<ColocationColumn> raw = new ArrayList<>();
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

  /** The column of a configuration some other planner made (isolated segments, priced by the performance model). */
  ColocationColumn column(ColocationProblem problem, org.rampa.colocation.GpuConfiguration gpu) {
    int k = problem.pools().indexOf(problem.pool(gpu.gpuType()));
    List<org.rampa.colocation.SegmentPerformance> perf = org.rampa.colocation.ColocationPerformance.evaluate(problem, gpu).orElseThrow();
    List<SegmentOption> options = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < gpu.segments().size(); i++) {
      org.rampa.colocation.Segment s = gpu.segments().get(i);
      org.rampa.domain.share.Placement p = s.placement();
      String profile = p instanceof MigSlice m ? m.profile() : p instanceof org.rampa.domain.share.MigSliceMps mm ? mm.profile() : null;
      int start = p instanceof MigSlice m ? m.start() : p instanceof org.rampa.domain.share.MigSliceMps mm ? mm.start() : 0;
      long memory = p instanceof org.rampa.domain.share.MigSliceMps mm ? mm.processMemoryBytes() : problem.service(s.service()).processMemoryBytes();
      options.add(new SegmentOption(s.service(), gpu.gpuType(), profile, s.batch(), s.processes(), memory, perf.get(i).throughput()));
      starts.add(start);
    }
    return column(k, options, starts);
  }

  ColocationColumn column(int k, List<SegmentOption> options, List<Integer> starts) {
    double[] a = new double[problem.services().size()];
    for (SegmentOption o : options) {
      a[index(o.service())] += o.throughput();
    }
    return new ColocationColumn(k, List.copyOf(options), List.copyOf(starts), a);
  }
}
