package org.rampa.solver.colocation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.CuMaskPart;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;

/**
 * The configurations the exact planner searches, per pool, in the aggregated form its integer
 * model needs: MIG layout types (how many instances of each usable profile a maximal layout has;
 * on an NPU type, how many of each template a maximal template multiset has), each service's best
 * option per profile and its best whole-GPU option, the undominated MPS pairs as explicit columns,
 * and the pipeline partitions' staged choices ({@link StagedChoices}). On an AMD type with CU
 * masking the "profiles" are the menu's CU-mask parts, one per mask size and number of masks on the
 * card ({@link SegmentMenu#cuMaskParts}), and the layout types every multiset of mask sizes that fits
 * the card's eighths, each mask named for the multiset's size: an option priced for n tenants runs
 * on a card that n masks share, or fewer when the plan leaves some empty (α only falls), so the
 * aggregation stays exact for the count-based interference models the menu prices CU masks under.
 *
 * <p>Why aggregation is exact: MIG instances and NPU templates are isolated (α = 1), so an instance's throughput
 * depends only on its profile and the option it runs, never on its GPU or start. A plan is therefore
 * fully described by how many GPUs take each layout and how many instances of each profile each
 * service gets, subject to "no more instances of a profile given out than the layouts provide";
 * any such counts decode into per-GPU configurations. Giving each service its highest-throughput
 * option per profile loses nothing (more throughput never hurts any objective), nor does keeping
 * only maximal layouts (an instance may stay empty) and only layout types no other type matches
 * or beats on every usable profile.
 */
public final class ColocationSpace {

  /** The MPS splits of a GPU between two tenants: (s, 1 − s). */
  static final List<Double> MPS_SPLITS = List.of(0.2, 0.4, 0.5, 0.6, 0.8);

  /** The MPS splits of a GPU among three tenants: thirds, and every order of (0.2, 0.2, 0.6) and (0.2, 0.4, 0.4). */
  static final List<double[]> MPS_TRIPLE_SPLITS = List.of(new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0},
      new double[] {0.2, 0.2, 0.6}, new double[] {0.2, 0.6, 0.2}, new double[] {0.6, 0.2, 0.2},
      new double[] {0.2, 0.4, 0.4}, new double[] {0.4, 0.2, 0.4}, new double[] {0.4, 0.4, 0.2});

  /** Pair (and, apart, triple) evaluations per pool beyond which MPS pairs (triples) are not searched (and the answer says so). */
  static final int MPS_EVALUATION_LIMIT = 50_000;

  /**
   * A layout type: instance counts per usable profile (the pool's {@link Pool#profiles} order) and
   * one layout that has them: MIG instances ({@link MigSlice}) or NPU templates ({@link TemplatePartition}).
   */
  record LayoutType(int[] counts, List<Placement> layout) {}

  /** One pool's searched space. {@code mpsPairs} ({@code mpsTriples}) is null when there were too many pairs (triples) to enumerate. */
  record Pool(int index, GpuPool pool, List<String> profiles, List<LayoutType> layouts, SegmentOption[][] best, SegmentOption[] whole,
      List<ColocationColumn> mpsPairs, List<ColocationColumn> mpsTriples) {

    /** The MPS configurations searched: the pairs, then the triples. */
    List<ColocationColumn> mpsColumns() {
      List<ColocationColumn> out = new ArrayList<>(mpsPairs == null ? List.of() : mpsPairs);
      out.addAll(mpsTriples == null ? List.of() : mpsTriples);
      return out;
    }

    /** Position of {@code profile} among the usable profiles, -1 when no service can use it. */
    int profileIndex(String profile) {
      return profiles.indexOf(profile);
    }
  }

  private final ColocationProblem problem;
  private final List<Pool> pools = new ArrayList<>();
  private final StagedChoices.Space staged;

  ColocationSpace(ColocationProblem problem, SegmentMenu menu) {
    this.problem = problem;
    for (int k = 0; k < problem.pools().size(); k++) {
      pools.add(pool(k, menu));
    }
    this.staged = StagedChoices.of(problem, menu, pools);
  }

  List<Pool> pools() {
    return pools;
  }

  /** The ways the services' pipeline partitions can run ({@link StagedChoices}). */
  List<StagedChoices.Choice> stagedChoices() {
    return staged.choices();
  }

  /** The partitions not searched for having too many cap vectors; empty when every partition is. */
  List<String> skippedPartitions() {
    return staged.skipped();
  }

  /** False when some pool had too many MPS pairs to enumerate, so they are not searched there. */
  boolean searchesAllMpsPairs() {
    return pools.stream().allMatch(p -> p.mpsPairs() != null);
  }

  /** False when some pool had too many MPS triples to enumerate, so they are not searched there. */
  boolean searchesAllMpsTriples() {
    return pools.stream().allMatch(p -> p.mpsTriples() != null);
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

  /** The column of a configuration another planner made, priced by the performance model with its co-runners. */
  ColocationColumn column(GpuConfiguration gpu) {
    int k = problem.pools().indexOf(problem.pool(gpu.gpuType()));
    List<SegmentPerformance> perf = ColocationPerformance.evaluate(problem, gpu).orElseThrow();
    double[] a = new double[problem.services().size()];
    for (int i = 0; i < perf.size(); i++) {
      a[index(gpu.segments().get(i).service())] += perf.get(i).throughput();
    }
    return new ColocationColumn(k, gpu.segments(), a);
  }

  private Pool pool(int k, SegmentMenu menu) {
    GpuPool pool = problem.pools().get(k);
    String type = pool.type().name();
    List<ColocationService> services = problem.services();
    SegmentOption[] whole = new SegmentOption[services.size()];
    for (int i = 0; i < services.size(); i++) {
      whole[i] = menu.best(type, services.get(i).id(), null).orElse(null);
    }
    List<String> profiles = new ArrayList<>();
    List<SegmentOption[]> best = new ArrayList<>();
    for (String part : partNames(problem, pool)) {
      SegmentOption[] options = new SegmentOption[services.size()];
      boolean usable = false;
      for (int i = 0; i < services.size(); i++) {
        options[i] = menu.best(type, services.get(i).id(), part).orElse(null);
        usable |= options[i] != null || StagedChoices.runsStageOn(menu, type, services.get(i), part);
      }
      if (usable) {
        profiles.add(part);
        best.add(options);
      }
    }
    List<LayoutType> layouts = new ArrayList<>();
    if (!profiles.isEmpty()) {
      Map<String, LayoutType> distinct = new LinkedHashMap<>();
      for (List<Placement> layout : maximalLayouts(problem, pool)) {
        int[] counts = new int[profiles.size()];
        layout.forEach(s -> {
          int p = profiles.indexOf(partName(s, layout.size()));
          if (p >= 0) {
            counts[p]++;
          }
        });
        distinct.putIfAbsent(java.util.Arrays.toString(counts), new LayoutType(counts, layout));
      }
      List<LayoutType> all = new ArrayList<>(distinct.values());
      for (LayoutType t : all) {
        if (all.stream().noneMatch(o -> o != t && covers(o.counts(), t.counts()))) {
          layouts.add(t);
        }
      }
    }
    boolean mps = pool.partitioning().mps() && pool.count() > 0;
    List<ColocationService> tenants = mps ? mpsCapable(k) : List.of();
    return new Pool(k, pool, List.copyOf(profiles), List.copyOf(layouts), best.toArray(SegmentOption[][]::new), whole,
        mps ? enumeratePairs(k, tenants) : List.of(), mps ? enumerateTriples(k, tenants) : List.of());
  }

  /**
   * The parts of a pool's GPUs, by name: its MIG profiles, or its NPU templates (a type has one or
   * the other; templates are hard partitions like MIG instances, without positions), or the menu's
   * CU-mask parts on a type with CU masking.
   */
  private static List<String> partNames(ColocationProblem problem, GpuPool pool) {
    List<String> out = new ArrayList<>();
    pool.partitioning().mig().ifPresent(g -> g.profiles().forEach(p -> out.add(p.name())));
    pool.partitioning().templates().forEach(t -> out.add(t.name()));
    SegmentMenu.cuMaskParts(problem, pool).forEach(c -> out.add(c.name()));
    return out;
  }

  /**
   * The layouts of a pool's GPUs: maximal MIG layouts, or maximal template multisets, or every
   * multiset of the menu's CU-mask sizes whose eighths fit the card (not only maximal ones: a mask's
   * price depends on how many share the card, so a card of fewer masks is a layout of its own).
   */
  private static List<List<Placement>> maximalLayouts(ColocationProblem problem, GpuPool pool) {
    List<List<Placement>> out = new ArrayList<>();
    pool.partitioning().mig().ifPresent(g -> MigLayouts.maximal(g).forEach(l -> out.add(List.copyOf(l))));
    if (!pool.partitioning().templates().isEmpty()) {
      TemplateLayouts.maximal(pool.partitioning()).forEach(l -> out.add(List.copyOf(l)));
    }
    if (!SegmentMenu.cuMaskParts(problem, pool).isEmpty()) {
      cuMaskLayouts(pool, 0, 0, new ArrayList<>(), out);
    }
    return out;
  }

  /** Adds every non-empty multiset of the menu's mask sizes of index {@code from} or later that fits beside {@code used} eighths. */
  private static void cuMaskLayouts(GpuPool pool, int from, int used, List<Placement> current, List<List<Placement>> out) {
    if (!current.isEmpty()) {
      out.add(List.copyOf(current));
    }
    for (int i = from; i < SegmentMenu.CU_MASK_EIGHTHS.size(); i++) {
      int eighths = SegmentMenu.CU_MASK_EIGHTHS.get(i);
      if (used + eighths <= CuMaskPart.PARTS_PER_CARD) {
        current.add(new CuMask(CuMaskPart.of(pool.partitioning(), eighths, 1).computeUnits(), 0));
        cuMaskLayouts(pool, i, used + eighths, current, out);
        current.remove(current.size() - 1);
      }
    }
  }

  /**
   * The part an isolated placement or CU mask runs on, on a GPU holding {@code partsOnGpu} parts:
   * its MIG profile or NPU template, or the CU-mask part of its CUs priced for that many masks; null
   * for other placements.
   */
  static String partName(Placement p, int partsOnGpu) {
    if (p instanceof MigSliceMps m) {
      return m.profile();
    }
    if (p instanceof MigSlice m) {
      return m.profile();
    }
    if (p instanceof CuMask c) {
      return CuMaskPart.name(c.computeUnits(), partsOnGpu);
    }
    return p instanceof TemplatePartition t ? t.template() : null;
  }

  /** The memory-slice start of a MIG part; 0 for a template (it has none). */
  static int start(Placement p) {
    if (p instanceof MigSliceMps m) {
      return m.start();
    }
    return p instanceof MigSlice m ? m.start() : 0;
  }

  private static boolean covers(int[] a, int[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] < b[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every configuration of two MPS tenants sharing one GPU as (s, 1 − s), s from {@link
   * #MPS_SPLITS}, at every pair of allowed batches that keeps both within the SLO rule with α for
   * exactly this pair; undominated ones only. Services the time model knows no MPS time for are
   * left out. Null when more than {@link #MPS_EVALUATION_LIMIT} pairs would be evaluated.
   */
  private List<ColocationColumn> enumeratePairs(int k, List<ColocationService> capable) {
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
              mpsColumn(k, List.of(a, b), new double[] {split, 1 - split}, new int[] {ba, bb}).ifPresent(raw::add);
            }
          }
        }
      }
    }
    return undominated(raw);
  }

  /**
   * Every configuration of three MPS tenants (a multiset of services) sharing one GPU by a split of
   * {@link #MPS_TRIPLE_SPLITS}, at every triple of allowed batches that keeps all three within the
   * SLO rule with α for exactly these co-runners; undominated ones only. A tenant whose batch misses
   * the SLO rule on its share even without co-runners is skipped before evaluating the triple
   * (every interference model has α ≥ 1). Null when more than {@link #MPS_EVALUATION_LIMIT}
   * triples would be evaluated.
   */
  private List<ColocationColumn> enumerateTriples(int k, List<ColocationService> capable) {
    record Triple(List<ColocationService> tenants, double[] split, int[] batches) {}
    Map<String, Boolean> aloneAdmits = new java.util.HashMap<>();
    List<Triple> candidates = new ArrayList<>();
    for (int i = 0; i < capable.size(); i++) {
      for (int j = i; j < capable.size(); j++) {
        for (int l = j; l < capable.size(); l++) {
          List<ColocationService> three = List.of(capable.get(i), capable.get(j), capable.get(l));
          for (double[] split : MPS_TRIPLE_SPLITS) {
            for (int ba : three.get(0).batches()) {
              for (int bb : three.get(1).batches()) {
                for (int bc : three.get(2).batches()) {
                  int[] batches = {ba, bb, bc};
                  boolean possible = true;
                  for (int t = 0; t < 3 && possible; t++) {
                    possible = admitsAlone(k, three.get(t), split[t], batches[t], aloneAdmits);
                  }
                  if (possible) {
                    if (candidates.size() == MPS_EVALUATION_LIMIT) {
                      return null;
                    }
                    candidates.add(new Triple(three, split, batches));
                  }
                }
              }
            }
          }
        }
      }
    }
    List<ColocationColumn> raw = new ArrayList<>();
    for (Triple c : candidates) {
      mpsColumn(k, c.tenants(), c.split(), c.batches()).ifPresent(raw::add);
    }
    return undominated(raw);
  }

  /**
   * False when {@code s} at {@code batch} on an MPS share {@code share} of pool {@code k} misses the
   * SLO rule even without co-runners (its time before α, with a margin for rounding), so no MPS set
   * holding it can keep it within its SLO.
   */
  private boolean admitsAlone(int k, ColocationService s, double share, int batch, Map<String, Boolean> memo) {
    return memo.computeIfAbsent(s.id() + "|" + share + "|" + batch, key -> {
      Segment alone = new Segment(s.id(), new MpsShare(share, s.processMemoryBytes()), batch);
      Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, new GpuConfiguration(problem.pools().get(k).type().name(),
          List.of(alone)));
      return perf.isPresent() && problem.sloRule().admits(perf.get().get(0).batchSeconds() / perf.get().get(0).slowdown() * (1 - 1e-9), s);
    });
  }

  /** The services the time model knows an MPS time for on pool {@code k} (and whose process fits the GPU). */
  private List<ColocationService> mpsCapable(int k) {
    GpuPool pool = problem.pools().get(k);
    String type = pool.type().name();
    List<ColocationService> capable = new ArrayList<>();
    for (ColocationService s : problem.services()) {
      Segment alone = new Segment(s.id(), new MpsShare(0.5, s.processMemoryBytes()), s.batches().get(0));
      try {
        alone.placement().requireOn(pool.partitioning());
      } catch (IllegalArgumentException e) {
        continue; // its process holds more memory than the GPU has: no MPS share can run it
      }
      if (ColocationPerformance.evaluate(problem, new GpuConfiguration(type, List.of(alone))).isPresent()) {
        capable.add(s);
      }
    }
    return capable;
  }

  /**
   * The column of {@code tenants} sharing one GPU of pool {@code k} by MPS shares {@code split} at
   * {@code batches}; empty when MPS admission refuses it or a tenant misses the SLO rule with α for
   * exactly these co-runners.
   */
  private Optional<ColocationColumn> mpsColumn(int k, List<ColocationService> tenants, double[] split, int[] batches) {
    GpuPool pool = problem.pools().get(k);
    List<Segment> segments = new ArrayList<>();
    for (int t = 0; t < tenants.size(); t++) {
      segments.add(new Segment(tenants.get(t).id(), new MpsShare(split[t], tenants.get(t).processMemoryBytes()), batches[t]));
    }
    if (problem.admission().check(pool.partitioning(), segments.stream().map(Segment::placement).toList()).isPresent()) {
      return Optional.empty();
    }
    Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(problem, new GpuConfiguration(pool.type().name(), segments));
    if (perf.isEmpty()) {
      return Optional.empty();
    }
    double[] throughput = new double[problem.services().size()];
    for (int t = 0; t < tenants.size(); t++) {
      if (!problem.sloRule().admits(perf.get().get(t).batchSeconds(), tenants.get(t))) {
        return Optional.empty();
      }
      throughput[index(tenants.get(t).id())] += perf.get().get(t).throughput();
    }
    return Optional.of(new ColocationColumn(k, List.copyOf(segments), throughput));
  }

  /**
   * The columns no other column matches or beats on every service's throughput. Throughputs are
   * never negative, so only a column serving every service {@code c} serves can dominate {@code c}:
   * the candidates are the columns serving {@code c}'s first service, compared on {@code c}'s
   * services alone (all-pairs over every service was hours for a few hundred services).
   */
  private static List<ColocationColumn> undominated(List<ColocationColumn> raw) {
    Map<String, ColocationColumn> distinct = new LinkedHashMap<>();
    raw.forEach(c -> distinct.putIfAbsent(java.util.Arrays.toString(c.throughput()), c));
    List<ColocationColumn> all = new ArrayList<>(distinct.values());
    Map<Integer, List<ColocationColumn>> serving = new java.util.HashMap<>();
    Map<ColocationColumn, int[]> supports = new java.util.IdentityHashMap<>();
    for (ColocationColumn c : all) {
      int[] support = java.util.stream.IntStream.range(0, c.throughput().length).filter(i -> c.throughput()[i] > 0).toArray();
      supports.put(c, support);
      for (int i : support) {
        serving.computeIfAbsent(i, k -> new ArrayList<>()).add(c);
      }
    }
    List<ColocationColumn> out = new ArrayList<>();
    for (ColocationColumn c : all) {
      int[] support = supports.get(c);
      List<ColocationColumn> candidates = support.length == 0 ? all : serving.get(support[0]);
      boolean dominated = false;
      for (ColocationColumn d : candidates) {
        if (d != c && dominatesOn(d.throughput(), c.throughput(), support)) {
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

  private static boolean dominatesOn(double[] a, double[] b, int[] support) {
    for (int i : support) {
      if (a[i] < b[i]) {
        return false;
      }
    }
    return true;
  }
}
