package org.rampa.solver.moves;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Holding;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.moves.MoveCosts;
import org.rampa.perf.DeviceKind;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.strategy.support.StageFloor;
import org.rampa.verify.InterferenceGuard;

/**
 * A relaxation of "the request fits after at most k more moves of price at most c" that the exact
 * mover prunes and orders with (docs/moves.md, "Why the exact search is exact"). For each GPU and each
 * pair (r removals, l &le; 1 layout moves) it computes an {@link Offer}: every device kind a stage
 * replica of the newcomer could run on there in any state reachable from this one by moves touching
 * that GPU that take at most r of its replicas away and re-cut or change its mode at most l times
 * (a second layout move on a GPU offers nothing the first could not: held instances are the same) —
 * the whole GPU, an MPS share as large as the compute r removals could free, the MIG profiles of
 * instances that are or could be made free. A GPU receiving a replica only loses room. So every plan
 * of every state reachable by a sequence of at most k moves and price at most c uses only kinds of
 * the union, over all GPUs, of the offers of the pairs with r + l &le; k and r × migration price +
 * l × the cheaper layout price &le; c (the moves touching one GPU are among the sequence's, and their
 * price is at least that pair's); the latency floor over that union — every stage on its fastest
 * offered kind, slowed by the least slowdown its co-runners could cause (1 on isolated and free
 * placements), no transfers, memory within the kind — is a lower bound on the latency of any such
 * plan. When the floor misses the SLO no such sequence admits the request under the performance
 * model, whatever the placer: that is a proof, not a guess.
 *
 * <p>The offers obey one step rule the search relies on: a migration turns its source's offers at
 * (r + 1, l) into offers at (r, l) that are no larger, and only shrinks its target's; a layout move
 * turns its GPU's offers at (r, 1) into offers at (r, l) that are no larger. Hence {@link #bound}'s
 * level (the least k whose floor meets the SLO) drops by at most one per move and its price (the
 * least c) by at most the move's price: both are consistent lower bounds on what is still to pay
 * ({@code MoveRelaxationTest} checks both facts move by move and the price against brute force).
 *
 * <p>Nothing here depends on the placement a migrated replica lands on: a migration that changes a
 * one-replica stage's placement kind or size ({@code MoveRules#changesPlacements()}) still removes
 * one replica from its source and adds one holding to its target, whatever its kind, so the target
 * still only loses room (a free MIG instance taken, free compute and a co-runner added, a free GPU
 * no longer free), and a GPU's holders count as removable by whether they were admitted with their
 * request, not by where they could go.
 *
 * <p>Two facts of the performance model are assumed: a larger MPS share is never slower, and an MPS
 * process inside a MIG instance is no faster than the instance alone. Clusters with CU-mask or
 * NPU-template types are not modelled: there the relaxation is disabled (every bound 0: nothing
 * is pruned).
 */
final class MoveRelaxation {

  /** An MPS share of {@code fraction} where the newcomer's slowdown is at least {@code alpha}. */
  record MpsOption(double fraction, double alpha) {}

  /**
   * Everything a GPU (or a union of GPUs of one type) may offer a newcomer's stage: the whole GPU,
   * MPS options (only the ones no other option beats in both fraction and slowdown), MIG profiles.
   */
  record Offer(boolean whole, List<MpsOption> mps, Set<String> profiles) {
    static final Offer NONE = new Offer(false, List.of(), Set.of());
  }

  private final boolean enabled;
  private final Cluster cluster;
  private final ServiceRequest request;
  private final PerformanceModel performance;
  private final InterferenceModel interference;
  private final InterferenceGuard guard;
  private final int budget;
  private final double migrationPrice;
  private final double layoutPrice;
  /** The pairs (removals, layout moves) of at most {@code budget} moves, by price, then by moves. */
  private final List<int[]> byPrice = new ArrayList<>();
  private final List<String> gpus = new ArrayList<>();
  private final Map<String, Offer[]> rootOffers = new HashMap<>();
  private final Map<List<Object>, Offer[]> rootOffersWithout = new HashMap<>();
  private final Map<Map<String, Offer>, Boolean> meets = new HashMap<>();
  private final Map<DeviceKind, double[][]> times = new HashMap<>();

  MoveRelaxation(ClusterState root, ServiceRequest request, PerformanceModel performance, InterferenceModel interference, int budget,
      MoveCosts costs) {
    this.cluster = root.cluster();
    this.request = request;
    this.performance = performance;
    this.interference = interference;
    this.guard = new InterferenceGuard(performance, interference);
    this.budget = budget;
    this.migrationPrice = costs.migration();
    this.layoutPrice = Math.min(costs.recut(), costs.modeChange());
    for (int r = 0; r <= budget; r++) {
      for (int l = 0; l <= 1 && r + l <= budget; l++) {
        byPrice.add(new int[] {r, l});
      }
    }
    byPrice.sort(java.util.Comparator.<int[]>comparingDouble(this::price).thenComparingInt(q -> q[0] + q[1]));
    boolean modelled = true;
    for (GpuType t : cluster.gpuTypes()) {
      GpuPartitioning p = t.partitioning();
      modelled &= p.computeUnits() == 0 && p.npuCores() == 0 && p.templates().isEmpty();
    }
    this.enabled = modelled;
    for (Gpu g : cluster.gpus()) {
      gpus.add(g.id());
      rootOffers.put(g.id(), offers(root, g.id(), null, null));
    }
  }

  /** The index of the offer after at most {@code removals} removals and {@code layoutMoves} (0 or 1) layout moves. */
  static int at(int removals, int layoutMoves) {
    return 2 * removals + layoutMoves;
  }

  /** The least price of {@code pair}'s moves: its removals at the migration price, its layout move at the cheaper layout price. */
  private double price(int[] pair) {
    return pair[0] * migrationPrice + pair[1] * layoutPrice;
  }

  /**
   * A lower bound on what reaching a goal still needs: at least {@code level} moves and at least
   * {@code price}; level budget + 1 and price infinite when no sequence within the moves left can
   * admit the request.
   */
  record Bound(int level, double price) {
    static final Bound ZERO = new Bound(0, 0);
  }

  /**
   * The offers of {@code gpu} in {@code state} ({@link #at} indexed, removals 0..budget + 1), without
   * one holding of {@code service} when given.
   */
  Offer[] offers(ClusterState state, String gpu, String service, Holding without) {
    return offersAt(state, gpu, service, without);
  }

  /**
   * The offers of {@code gpu} without one holding of {@code service} in a state where {@code gpu} is
   * as in the root (a search asks this for every replica of every state it expands): computed once.
   */
  Offer[] rootOffersWithout(ClusterState state, String gpu, String service, Holding without) {
    return rootOffersWithout.computeIfAbsent(List.of(gpu, service, without), k -> offersAt(state, gpu, service, without));
  }

  /** The union of offers per GPU type at one pair, as counts so one GPU can be taken out and put back. */
  final class Tally {
    private final Map<String, int[]> whole = new TreeMap<>();
    private final Map<String, Map<MpsOption, Integer>> mps = new TreeMap<>();
    private final Map<String, Map<String, Integer>> profiles = new TreeMap<>();
    private Map<String, Offer> kinds;

    Tally copy() {
      Tally t = new Tally();
      whole.forEach((k, v) -> t.whole.put(k, v.clone()));
      mps.forEach((k, v) -> t.mps.put(k, new HashMap<>(v)));
      profiles.forEach((k, v) -> t.profiles.put(k, new TreeMap<>(v)));
      t.kinds = kinds;
      return t;
    }

    void add(String type, Offer o, int sign) {
      if (o == Offer.NONE) {
        return;
      }
      kinds = null;
      if (o.whole()) {
        whole.computeIfAbsent(type, t -> new int[1])[0] += sign;
      }
      for (MpsOption m : o.mps()) {
        mps.computeIfAbsent(type, t -> new HashMap<>()).merge(m, sign, (a, b) -> a + b == 0 ? null : a + b);
      }
      for (String p : o.profiles()) {
        profiles.computeIfAbsent(type, t -> new TreeMap<>()).merge(p, sign, (a, b) -> a + b == 0 ? null : a + b);
      }
    }

    /** The union as one offer per GPU type (types offering nothing left out). */
    Map<String, Offer> kinds() {
      if (kinds != null) {
        return kinds;
      }
      Map<String, Offer> out = new TreeMap<>();
      Set<String> types = new TreeSet<>(whole.keySet());
      types.addAll(mps.keySet());
      types.addAll(profiles.keySet());
      for (String t : types) {
        boolean w = whole.containsKey(t) && whole.get(t)[0] > 0;
        List<MpsOption> f = front(mps.containsKey(t) ? mps.get(t).keySet() : Set.of());
        Set<String> p = profiles.containsKey(t) ? new TreeSet<>(profiles.get(t).keySet()) : Set.of();
        if (w || !f.isEmpty() || !p.isEmpty()) {
          out.put(t, new Offer(w, f, p));
        }
      }
      kinds = out;
      return out;
    }
  }

  /** The union of two unions of offers, type by type. */
  private static Map<String, Offer> union(Map<String, Offer> a, Map<String, Offer> b) {
    if (a.isEmpty() || a.equals(b)) {
      return b;
    }
    Map<String, Offer> out = new TreeMap<>(a);
    b.forEach((t, o) -> out.merge(t, o, (x, y) -> {
      List<MpsOption> mps = new ArrayList<>(x.mps());
      mps.addAll(y.mps());
      Set<String> profiles = new TreeSet<>(x.profiles());
      profiles.addAll(y.profiles());
      return new Offer(x.whole() || y.whole(), front(mps), profiles);
    }));
    return out;
  }

  private boolean meets(Map<String, Offer> kinds) {
    return meets.computeIfAbsent(kinds, this::floorMeets);
  }

  /** The options no other beats in both fraction (larger) and slowdown (smaller), largest fraction first. */
  static List<MpsOption> front(java.util.Collection<MpsOption> options) {
    List<MpsOption> sorted = new ArrayList<>(options);
    sorted.sort(java.util.Comparator.comparingDouble(MpsOption::fraction).reversed().thenComparingDouble(MpsOption::alpha));
    List<MpsOption> out = new ArrayList<>();
    double least = Double.POSITIVE_INFINITY;
    for (MpsOption o : sorted) {
      if (o.alpha() < least) {
        out.add(o);
        least = o.alpha();
      }
    }
    return List.copyOf(out);
  }

  /** The tallies of {@code state} at every pair of at most budget moves ({@link #at}), where only {@code touched} GPUs may differ from the root. */
  Tally[] tallies(ClusterState state, Set<String> touched) {
    Tally[] out = new Tally[at(budget, 1) + 1];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Tally();
    }
    for (String g : gpus) {
      Offer[] o = touched.contains(g) ? offers(state, g, null, null) : rootOffers.get(g);
      String type = cluster.gpu(g).type();
      for (int i = 0; i < out.length; i++) {
        out[i].add(type, o[i], 1);
      }
    }
    return out;
  }

  /**
   * The tallies of {@code state}, reached from {@code parent} (whose tallies are {@code before} and
   * where {@code touched} GPUs may differ from the root) by a move that changed only {@code changed}:
   * the parent's with those GPUs' offers replaced, equal to {@link #tallies(ClusterState, Set)} of the
   * union of both sets (every other GPU holds what it held in the parent).
   */
  Tally[] tallies(Tally[] before, ClusterState parent, Set<String> touched, ClusterState state, Set<String> changed) {
    Tally[] out = new Tally[before.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = before[i].copy();
    }
    for (String g : changed) {
      Offer[] was = touched.contains(g) ? offers(parent, g, null, null) : rootOffers.get(g);
      Offer[] now = offers(state, g, null, null);
      String type = cluster.gpu(g).type();
      for (int i = 0; i < out.length; i++) {
        out[i].add(type, was[i], -1);
        out[i].add(type, now[i], 1);
      }
    }
    return out;
  }

  /**
   * The bound of a state whose tallies are {@code tallies} with at most {@code left} moves left:
   * its level is the least k &le; left whose union over the pairs of k moves (k removals, or k − 1
   * removals and a layout move) meets the SLO, its price the least c whose union over the pairs of at
   * most {@code left} moves and price &le; c meets it; level budget + 1 and price infinite when even
   * {@code left} moves cannot. {@link Bound#ZERO} whenever the relaxation is
   * disabled.
   */
  Bound bound(Tally[] tallies, int left) {
    if (!enabled) {
      return Bound.ZERO;
    }
    int moves = Math.min(left, budget);
    int level = -1;
    for (int k = 0; k <= moves && level < 0; k++) {
      Map<String, Offer> u = tallies[at(k, 0)].kinds();
      if (k >= 1) {
        u = union(u, tallies[at(k - 1, 1)].kinds());
      }
      if (meets(u)) {
        level = k;
      }
    }
    if (level < 0) {
      return new Bound(budget + 1, Double.POSITIVE_INFINITY);
    }
    List<int[]> pairs = byPrice.stream().filter(q -> q[0] + q[1] <= moves).toList();
    Map<String, Offer> u = Map.of();
    for (int i = 0; i < pairs.size(); i++) {
      int[] q = pairs.get(i);
      u = union(u, tallies[at(q[0], q[1])].kinds());
      double c = price(q);
      if ((i + 1 == pairs.size() || price(pairs.get(i + 1)) > c) && meets(u)) { // the union of every pair priced at most c
        return new Bound(level, c);
      }
    }
    throw new IllegalStateException("the union of all pairs of at most " + moves + " moves meets the SLO at level " + level
        + " but at no price: the pairs by price miss one");
  }

  /** {@link #bound} with {@code gpu}'s offers in {@code tallies}, which are {@code current}, replaced by {@code replacement}. */
  Bound boundWith(Tally[] tallies, String gpu, Offer[] current, Offer[] replacement, int left) {
    if (!enabled) {
      return Bound.ZERO;
    }
    String type = cluster.gpu(gpu).type();
    int used = Math.min(tallies.length, at(Math.max(0, Math.min(left, budget)), 0) + 1); // bound reads no pair of more moves
    for (int i = 0; i < used; i++) {
      tallies[i].add(type, current[i], -1);
      tallies[i].add(type, replacement[i], 1);
    }
    try {
      return bound(tallies, left);
    } finally {
      for (int i = 0; i < used; i++) {
        tallies[i].add(type, replacement[i], -1);
        tallies[i].add(type, current[i], 1);
      }
    }
  }

  Offer[] rootOffers(String gpu) {
    return rootOffers.get(gpu);
  }

  /** Any one move on a GPU spent already: its offers one removal and a layout move up, a bound for every move on it. */
  static Offer[] afterAnyMove(Offer[] offers) {
    Offer[] out = new Offer[offers.length - 2];
    for (int r = 0; at(r, 1) < out.length; r++) {
      out[at(r, 0)] = offers[at(r + 1, 1)];
      out[at(r, 1)] = offers[at(r + 1, 1)];
    }
    return out;
  }

  /**
   * A re-cut or a mode change on a GPU spent already: its offers with the layout move (held instances
   * do not change, so a second layout move offers nothing the first could not), the bound for its
   * layout moves.
   */
  static Offer[] afterLayoutMove(Offer[] offers) {
    Offer[] out = new Offer[offers.length];
    for (int r = 0; at(r, 1) < out.length; r++) {
      out[at(r, 0)] = offers[at(r, 1)];
      out[at(r, 1)] = offers[at(r, 1)];
    }
    return out;
  }

  private record Held(MigSlice instance, boolean movable) {}

  /**
   * What {@code gpu} may offer after at most r removals of its movable replicas and l &le; 1 layout
   * moves (a re-cut or a mode change) on it, for r in 0..budget + 1 ({@link #at}), without
   * {@code without} of {@code service} when given.
   */
  private Offer[] offersAt(ClusterState state, String gpu, String service, Holding without) {
    GpuPartitioning parts = state.partitioning(gpu);
    List<Holding> holds = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    List<Boolean> movable = new ArrayList<>();
    boolean skipped = without == null;
    for (String id : state.servicesOn(gpu)) {
      Allocation a = state.allocations().get(id);
      boolean canMove = a.request().isPresent() && a.plan().isPresent();
      for (Holding h : a.holdings()) {
        if (!h.gpu().equals(gpu)) {
          continue;
        }
        if (!skipped && id.equals(service) && h.equals(without)) {
          skipped = true;
          continue;
        }
        holds.add(h);
        owners.add(id);
        movable.add(canMove);
      }
    }
    int m = 0;
    for (boolean b : movable) {
      m += b ? 1 : 0;
    }
    int u = holds.size() - m;
    List<MigSlice> layout = state.migLayout(gpu);
    MigGeometry geometry = parts.mig().orElse(null);
    List<List<MpsOption>> byRemovals = layout.isEmpty() && parts.mps() && holds.stream().allMatch(h -> h.placement() instanceof MpsShare)
        ? mpsOptions(state, gpu, parts, holds, owners, movable, skipped && without != null ? service : null) : null;
    List<Held> held = new ArrayList<>();
    Map<MigSlice, Boolean> exclusive = new HashMap<>();
    Map<String, Integer> recutRemovals = new HashMap<>(); // profile: the fewest removals after which a re-cut can create it
    if (!layout.isEmpty()) {
      for (int i = 0; i < holds.size(); i++) {
        Holding h = holds.get(i);
        MigSlice s = h.placement() instanceof MigSliceMps mm ? mm.slice() : h.placement() instanceof MigSlice ms ? ms : null;
        if (s != null) {
          held.add(new Held(s, movable.get(i)));
          exclusive.merge(s, h.placement() instanceof MigSlice, Boolean::logicalOr);
        }
      }
      for (MigProfile p : geometry == null ? List.<MigProfile>of() : geometry.profiles()) {
        for (int start : p.allowedStarts()) {
          int removals = 0;
          boolean blocked = false;
          for (Held h : held) {
            if (!MigLayout.empty(geometry).with(h.instance().profile(), h.instance().start()).fits(p, start)) {
              blocked |= !h.movable();
              removals++;
            }
          }
          if (!blocked) {
            recutRemovals.merge(p.name(), removals, Math::min);
          }
        }
      }
    }
    Offer[] out = new Offer[at(budget + 1, 1) + 1];
    for (int r = 0; r <= budget + 1; r++) {
      for (int l = 0; l <= 1; l++) {
        boolean whole = false;
        List<MpsOption> mps = new ArrayList<>();
        Set<String> profiles = new TreeSet<>();
        if (u == 0 && m <= r) { // every holder can leave
          if (layout.isEmpty()) {
            whole = true;
            if (parts.mps()) {
              mps.add(new MpsOption(1, 1));
            }
            if (geometry != null && l == 1) {
              geometry.profiles().forEach(p -> profiles.add(p.name())); // then a mode change into MIG
            }
          } else {
            layout.forEach(s -> profiles.add(s.profile()));
            if (l == 1) { // then a re-cut, or out of MIG mode
              whole = true;
              if (parts.mps()) {
                mps.add(new MpsOption(1, 1));
              }
              geometry.profiles().forEach(p -> profiles.add(p.name()));
            }
          }
        }
        if (!layout.isEmpty()) {
          for (Held h : held) {
            if (r >= 1 && h.movable()) {
              profiles.add(h.instance().profile()); // its holder moves away
            }
          }
          for (MigSlice s : layout) {
            if (!exclusive.getOrDefault(s, false)) {
              profiles.add(s.profile()); // free, or joinable by one more MPS process (no faster than the instance)
            }
          }
          if (l == 1) { // a re-cut after at most r removals
            int rr = r;
            recutRemovals.forEach((p, removals) -> {
              if (removals <= rr) {
                profiles.add(p);
              }
            });
          }
        } else if (byRemovals != null) {
          for (int size = 0; size <= Math.min(r, byRemovals.size() - 1); size++) {
            mps.addAll(byRemovals.get(size));
          }
        }
        List<MpsOption> front = front(mps);
        out[at(r, l)] = whole || !front.isEmpty() || !profiles.isEmpty() ? new Offer(whole, front, Set.copyOf(profiles)) : Offer.NONE;
      }
    }
    return out;
  }

  /** Subsets of movable holdings enumerated at most: beyond, one option takes the largest fraction with no slowdown. */
  private static final int SUBSET_LIMIT = 8;

  /**
   * The MPS options of an MPS GPU after removing at most {@code k} of its movable {@code holds}: for
   * each set of removals, the free compute (with the ledger's overcommit) and the least slowdown the
   * co-runners left could cause the newcomer — the least over the corners of its utilisations, a lower
   * bound under every model monotone in them, exact under the linear default.
   */
  private List<List<MpsOption>> mpsOptions(ClusterState state, String gpu, GpuPartitioning parts, List<Holding> holds, List<String> owners,
      List<Boolean> movable, String removed) {
    int k = budget + 1;
    List<List<MpsOption>> out = new ArrayList<>();
    for (int i = 0; i <= k; i++) {
      out.add(new ArrayList<>());
    }
    double used = 0;
    List<Integer> freeable = new ArrayList<>();
    for (int i = 0; i < holds.size(); i++) {
      used += holds.get(i).placement().computeFraction(parts);
      if (movable.get(i)) {
        freeable.add(i);
      }
    }
    double free = Math.max(0, 1 - used) + state.mpsOvercommit();
    if (freeable.size() > SUBSET_LIMIT) {
      List<Double> fs = new ArrayList<>();
      freeable.forEach(i -> fs.add(holds.get(i).placement().computeFraction(parts)));
      fs.sort((a, b) -> Double.compare(b, a));
      double f = free;
      for (int i = 0; i <= Math.min(k, fs.size()); i++) {
        if (f > 0) {
          out.get(i).add(new MpsOption(Math.min(1, f), 1));
        }
        f += i < fs.size() ? fs.get(i) : 0;
      }
      return out;
    }
    List<CoRunner> all = new ArrayList<>(coRunners(state, gpu));
    if (removed != null) {
      all.remove(coRunnerOf(all, removed)); // the holding taken off already
    }
    GpuType type = cluster.typeOf(gpu);
    for (int mask = 0; mask < 1 << freeable.size(); mask++) {
      if (Integer.bitCount(mask) > k) {
        continue;
      }
      double f = free;
      List<CoRunner> left = new ArrayList<>(all);
      for (int b = 0; b < freeable.size(); b++) {
        if ((mask & 1 << b) != 0) {
          f += holds.get(freeable.get(b)).placement().computeFraction(parts);
          left.remove(coRunnerOf(left, owners.get(freeable.get(b))));
        }
      }
      if (f <= 0) {
        continue;
      }
      f = Math.min(1, f);
      out.get(Integer.bitCount(mask)).add(new MpsOption(f, left.isEmpty() ? 1 : leastSlowdown(type, new MpsShare(f, type.memoryBytes()), f, left)));
    }
    return out;
  }

  private ClusterState coRunnersOf;
  private final Map<String, List<CoRunner>> coRunners = new HashMap<>();

  /** Everything {@code state} holds on {@code gpu} as co-runners, kept for the last state asked about (a search asks per GPU many times). */
  private List<CoRunner> coRunners(ClusterState state, String gpu) {
    if (state != coRunnersOf) {
      coRunnersOf = state;
      coRunners.clear();
    }
    return coRunners.computeIfAbsent(gpu, g -> guard.coRunnersOn(state, g, "", -1));
  }

  /** A co-runner of {@code service} in {@code all}; null when none. */
  private static CoRunner coRunnerOf(List<CoRunner> all, String service) {
    for (CoRunner c : all) {
      if (c.service().equals(service)) {
        return c;
      }
    }
    return null;
  }

  private double leastSlowdown(GpuType type, MpsShare placement, double share, List<CoRunner> others) {
    double least = Double.POSITIVE_INFINITY;
    double bandwidth = type.effectiveBandwidthBytesPerSecond();
    for (double l2 = 0; l2 <= 1; l2++) {
      for (double dram = 0; dram <= 1; dram++) {
        CoRunner self = new CoRunner(" newcomer", placement, share, l2, dram, dram * share * bandwidth);
        least = Math.min(least, interference.slowdown(type, self, others));
      }
    }
    return Math.max(1, least);
  }

  /**
   * The latency floor over {@code kinds}: at most maxStages stages, each on one offered kind that
   * holds its memory, timed alone (α ≥ 1 only slows it), transfers free, plus the batching wait.
   */
  private boolean floorMeets(Map<String, Offer> kinds) {
    List<DeviceKind> devices = new ArrayList<>();
    List<Double> slowdowns = new ArrayList<>();
    kinds.forEach((typeName, o) -> {
      GpuType type = cluster.type(typeName);
      GpuPartitioning parts = type.partitioning();
      if (o.whole()) {
        devices.add(DeviceKind.of(type, new Whole()));
        slowdowns.add(1.0);
      }
      for (MpsOption m : o.mps()) {
        devices.add(DeviceKind.of(type, new MpsShare(m.fraction(), type.memoryBytes())));
        slowdowns.add(m.alpha());
      }
      for (String p : o.profiles()) {
        devices.add(DeviceKind.of(type, new MigSlice(p, parts.requireMig().profile(p).allowedStarts().get(0))));
        slowdowns.add(1.0); // isolated, or joining an instance: no faster than the instance alone
      }
    });
    int n = request.model().size();
    // each stage's least time over the offered kinds, its slowdown applied; the split is then over stages alone
    double[][] fastest = new double[n][n + 1];
    for (double[] row : fastest) {
      Arrays.fill(row, Double.POSITIVE_INFINITY);
    }
    for (int d = 0; d < devices.size(); d++) {
      double[][] t = times(devices.get(d));
      double alpha = slowdowns.get(d);
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j <= n; j++) {
          fastest[i][j] = Math.min(fastest[i][j], alpha * t[i][j]);
        }
      }
    }
    double floor = StageFloor.leastSeconds(fastest, request.maxStages());
    return SloPredicate.meetsLatency(floor + request.slo().batchingWaitSeconds(), request.slo());
  }

  /** Stage times alone on {@code kind}, [from][to], infinite where the stage's memory does not fit. */
  private double[][] times(DeviceKind kind) {
    return times.computeIfAbsent(kind, d -> StageFloor.stageSecondsAlone(performance, request.model(), request.slo().batchSize(), d));
  }
}
