package org.rampa.strategy.support;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.domain.share.Placement;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.InterferenceModel;

/**
 * What {@link SharedSlotMenu} reads off one partly used GPU, kept across the states of a cluster:
 * the states a scheduler's decisions place on (and those a decision with moves confirms on) differ
 * from each other on the few GPUs the admissions and moves changed, and re-deriving every partly
 * used GPU's levels, shapes, memory caps and (for the best fits) the incumbents' budget and α was
 * half of a confirming placement on a full 1000-GPU cluster. Two parts per GPU, each kept with
 * exactly what it was derived from and used only when the state at hand has the same:
 * <ul>
 *   <li>the candidates before costs and top-k ({@link Candidates}): from the GPU's holdings (equal
 *       {@link Holding} values, in order: placements and memory, so an equal ledger built anew
 *       serves too), its entry in the capacity (free share, free instances or free cores, by
 *       equality), which of those three it is, and the menu's levels; the GPU's type is the
 *       cluster's;
 *   <li>the {@link org.rampa.verify.InterferenceGuard}'s budget and α per placement: from the
 *       ledger entries on the GPU and on every GPU their plans use (the very same
 *       {@link Allocation} objects, in ledger order: each names its request, plan and holdings,
 *       which is all the guard reads besides the cluster), and the performance and interference
 *       models (by equality: both are values, and a placement with sharing on builds its own).
 * </ul>
 * Costs, the order of candidates and the top-k are derived anew for every state (an importance
 * model may price a GPU by the whole state), so a menu built with the memo equals one built
 * without it, entry for entry ({@code PartlyUsedMemoTest}).
 *
 * <p>Bounded and safe to share between threads: one table per cluster (by identity, weakly
 * referenced, so a cluster nobody uses any more is not kept), at most {@link #CLUSTERS} tables;
 * when another cluster comes, the table that served a state least recently goes first (a
 * neighbourhood's small cluster, built anew for each probe, never serves one), and a table holds one
 * entry per GPU, replaced whenever the GPU's state differs. Entries are immutable but for their
 * guard results, kept in a concurrent map; two threads deriving one entry at once both store a
 * correct one.
 */
final class PartlyUsedMemo {

  /** Clusters whose tables are kept at once: a scheduler's own cluster and the neighbourhoods of a decision. */
  static final int CLUSTERS = 4;

  /** Which capacity map listed the GPU. */
  enum Kind {
    CONTENDED,
    MIG,
    TEMPLATE
  }

  /** One candidate of a partly used GPU before its cost: placement, shape, memory cap and what taking it leaves. */
  record Candidate(Placement placement, String shape, long memoryCap, double leftover) {}

  /**
   * The candidates of one partly used GPU, with what they were derived from; {@code offered} false
   * when the GPU offers the menu nothing at all and takes no place in its order (an MPS GPU at its
   * client limit, or without memory for one more reservation).
   */
  record Candidates(boolean offered, List<Candidate> list) {}

  /** The guard's answers for one placement on one GPU. */
  record GuardAnswer(int budget, double alpha) {}

  private static final List<Table> TABLES = new ArrayList<>();

  /** Orders the tables' last service, for eviction. */
  private static final AtomicLong CLOCK = new AtomicLong();

  private PartlyUsedMemo() {}

  /** The table of {@code cluster}, made (and another evicted, past {@link #CLUSTERS}) when it has none. */
  static Table of(Cluster cluster) {
    synchronized (TABLES) {
      Table stalest = null;
      for (Iterator<Table> it = TABLES.iterator(); it.hasNext(); ) {
        Table t = it.next();
        Cluster c = t.cluster.get();
        if (c == cluster) {
          return t;
        }
        if (c == null) {
          it.remove();
        } else if (stalest == null || t.lastServed < stalest.lastServed) {
          stalest = t;
        }
      }
      if (TABLES.size() >= CLUSTERS) {
        TABLES.remove(stalest);
      }
      Table t = new Table(cluster);
      TABLES.add(t);
      return t;
    }
  }

  /** A table kept nowhere: a menu built with it derives every GPU from scratch. */
  static Table fresh(Cluster cluster) {
    return new Table(cluster);
  }

  /** The memo of one cluster: an entry per GPU, by cluster position. */
  static final class Table {
    private final WeakReference<Cluster> cluster;
    private final AtomicReferenceArray<Entry> entries;
    /** {@link #CLOCK} when an entry last served a state (was kept and used); 0 when none ever did. */
    private volatile long lastServed;

    private Table(Cluster cluster) {
      this.cluster = new WeakReference<>(cluster);
      this.entries = new AtomicReferenceArray<>(cluster.gpus().size());
    }

    /**
     * The entry of the GPU at cluster position {@code index} in {@code state}, listed by the
     * capacity as {@code kind} with {@code free}; {@code derive} makes its candidates when the
     * kept entry was derived from anything else.
     */
    Entry entry(ClusterState state, int index, Kind kind, Object free, List<Double> levels, Supplier<Candidates> derive) {
      List<Holding> holdings = state.holdingsOn(state.cluster().gpus().get(index).id());
      Entry e = entries.get(index);
      if (e != null && e.kind == kind && e.free.equals(free) && e.levels.equals(levels) && e.holdings.equals(holdings)) {
        if (lastServed == 0 || lastServed < CLOCK.get()) {
          lastServed = CLOCK.incrementAndGet(); // stamped again only once another table has been stamped since
        }
        return e;
      }
      e = new Entry(kind, free, List.copyOf(levels), holdings, derive.get());
      entries.set(index, e);
      return e;
    }
  }

  /** What one partly used GPU offers, and the guard's answers there. */
  static final class Entry {
    private final Kind kind;
    private final Object free;
    private final List<Double> levels;
    private final List<Holding> holdings;
    final Candidates candidates;
    /** The guard's answers with what they were derived from; replaced as a whole when that differs. */
    private volatile Guarded guarded;

    private Entry(Kind kind, Object free, List<Double> levels, List<Holding> holdings, Candidates candidates) {
      this.kind = kind;
      this.free = free;
      this.levels = levels;
      this.holdings = holdings;
      this.candidates = candidates;
    }

    /**
     * The guard's budget and α of {@code placement} on {@code gpu} in {@code state}, from
     * {@code compute} unless kept for the same ledger entries around the GPU and the same models;
     * {@code around} is {@link #around} of the GPU in {@code state}.
     */
    GuardAnswer guard(List<Object> around, Placement placement, Supplier<GuardAnswer> compute) {
      Guarded g = guarded;
      if (g == null || !sameElements(g.around, around)) {
        g = new Guarded(around, new ConcurrentHashMap<>());
        guarded = g;
      }
      GuardAnswer a = g.answers.get(placement);
      if (a == null) {
        a = compute.get();
        g.answers.put(placement, a);
      }
      return a;
    }
  }

  private record Guarded(List<Object> around, Map<Placement, GuardAnswer> answers) {}

  /**
   * Everything the guard's answers on {@code gpu} depend on besides the cluster and the placement:
   * the two models (compared by equality), then the ledger entries holding {@code gpu} (ledger order) and, for each
   * GPU their plans use besides it, the ledger entries holding that GPU (ledger order).
   */
  static List<Object> around(ClusterState state, String gpu, PerformanceModel performance, InterferenceModel interference) {
    List<Object> out = new ArrayList<>();
    out.add(new Models(performance, interference));
    Map<String, Allocation> ledger = state.allocations();
    List<Allocation> here = new ArrayList<>();
    for (String id : state.servicesOn(gpu)) {
      here.add(ledger.get(id));
    }
    out.addAll(here);
    for (Allocation a : here) {
      for (String other : gpusOf(a)) {
        if (!other.equals(gpu)) {
          out.add(other); // the GPU's name separates its entries from the next GPU's
          for (String id : state.servicesOn(other)) {
            out.add(ledger.get(id));
          }
        }
      }
    }
    return out;
  }

  /** The GPUs {@code a}'s plan uses, or its holdings' when it has none (the guard then re-times nothing of it). */
  private static List<String> gpusOf(Allocation a) {
    List<String> gpus = new ArrayList<>();
    if (a.plan().isPresent()) {
      Plan p = a.plan().get();
      for (Stage s : p.stages()) {
        gpus.addAll(s.gpus());
      }
    } else {
      for (Holding h : a.holdings()) {
        gpus.add(h.gpu());
      }
    }
    return gpus;
  }

  /** The models the guard answered under, equal when they time alike (both are values). */
  private record Models(PerformanceModel performance, InterferenceModel interference) {}

  /** Same length and, position by position, the same objects (or, for GPU names and models, equal ones). */
  private static boolean sameElements(List<?> a, List<?> b) {
    if (a == b) {
      return true;
    }
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Object x = a.get(i);
      Object y = b.get(i);
      if (x != y && !((x instanceof String || x instanceof Models) && x.equals(y))) {
        return false;
      }
    }
    return true;
  }
}
