package org.rampa.heuristics.learned;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.PartitionTemplate;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.SharedStage;
import org.rampa.strategy.support.SharedSlotMenu;

/**
 * Sequential placement of one demand mix (docs/SHARING.md §6): an episode grows the demand scale. Each step
 * takes the neediest service (the lowest served throughput over its rate) and places one more
 * segment of it — a rate chunk as large as that segment serves — on one (candidate GPU, placement
 * level) pair. Candidates: the {@code topK} partly used GPUs with the most free capacity that are
 * not yet known to refuse the service, plus one fresh GPU per type. A GPU on which a service had no
 * legal pair is not offered to it again: a GPU only fills up (less free compute and memory, fewer
 * free MIG slices, more co-runners slowing each other), so what it refused it keeps refusing, and
 * the candidates reach past it to GPUs that can still take the service. (This only decides what is
 * offered; legality stays the masks' and the verifier's.) Levels: the whole GPU; contended parts
 * of 1/2, 1/3 and 1/4 — MPS shares on types with MPS, CU masks of that part of the CUs (rounded
 * down, {@code SharedSlotMenu.contendedLevel}) on types with CU masking; every MIG profile at its
 * first free legal start; every NPU partition template whose cores and memory fit. Each pair takes
 * the service's best batch (and process count) that the co-location verifier accepts on that GPU — memory, MIG
 * legality, MPS admission and every co-runner's SLO under the interference the new segment causes.
 * Pairs that have none are masked.
 *
 * <p>The episode ends when the neediest service fits nowhere: its rate can grow no more, so neither
 * can the scale. An episode may also be given {@link Limits}: at most a number of GPUs opened in
 * all (the cluster cut to that size, as the fewest-GPUs search of {@link LearnedColocationPlanner}
 * asks), and a target scale at which it stops (scale 1: the demand is served). The problem's
 * objective is not consulted: the planner turns each objective into such episodes. When the
 * candidates have nothing legal but some other partly used GPU could take the segment, the episode
 * falls back to the heuristic for the rest — every open GPU is scanned and the pair serving the
 * most is taken — and the outcome says from which step. Not thread-safe: one
 * environment per thread (it remembers the GPU configurations the verifier accepted).
 */
public final class ColocationEnvironment {
  /** Contended parts (MPS shares, CU masks) offered on a GPU: the harmonic menu of docs/SHARING.md §5, down to a quarter. */
  private static final double[] MPS_LEVELS = {1.0 / 2, 1.0 / 3, 1.0 / 4};
  private static final double SHARE_TOLERANCE = 1e-9;
  private static final int MIG_MASK_BITS = 8;
  private static final int VERIFIED_MEMORY = 200_000;

  /** What the policy sees of a (GPU, level) pair, in the network's input order. */
  public static final List<String> FEATURES = List.of(
      "fresh", "level-whole", "level-mps", "level-mig", "compute-fraction", "memory-fraction",
      "gpu-free-compute", "gpu-free-memory",
      "mig-free-0", "mig-free-1", "mig-free-2", "mig-free-3", "mig-free-4", "mig-free-5", "mig-free-6", "mig-free-7",
      "co-runners", "incumbent-slowdown", "own-slowdown", "demand-gain", "net-demand-gain", "demand-gain-per-compute",
      "free-after", "mig-placements-lost", "type-capability", "fresh-left");

  private final ColocationProblem problem;
  private final SegmentMenu menu;
  private final int topK;
  private final double maxPeakFlops;
  private final List<String> migProfiles;
  private final List<String> templates;
  private final int levelCount;
  private final Map<GpuConfiguration, Optional<List<SegmentPerformance>>> verified = new HashMap<>();
  private final double referenceScale;
  /** {@link #referenceScale}, or 1 when it is 0: what the gain features measure a service's demand at. */
  private final double demandScale;

  /** Chooses one of a step's candidates: the policy (sampling in training, greedy in inference). */
  public interface Chooser {
    int choose(double[][] features, boolean[] legal);
  }

  /**
   * An episode's plan and how it was made.
   *
   * @param policySteps steps the chooser decided
   * @param fallbackSteps steps the heuristic decided after the candidates ran out of legal pairs
   * @param fellBackAt the step at which the heuristic took over, if it did
   * @param decisionNanos per policy step, the time from the step's start to its decision
   *     (candidates, features and the chooser)
   */
  public record Outcome(ColocationPlan plan, int policySteps, int fallbackSteps, OptionalInt fellBackAt, long[] decisionNanos) {}

  /**
   * Where an episode stops short of the cluster's end.
   *
   * @param gpuBudget GPUs the episode may open in all, over every pool (the cluster cut to this size)
   * @param targetScale the episode ends once every service is served its rate times this (infinity: grow to the end)
   */
  public record Limits(int gpuBudget, double targetScale) {
    public Limits {
      if (gpuBudget < 1) {
        throw Invalid.value("limits.gpuBudget", gpuBudget, "must be >= 1", "the cluster's GPU count");
      }
      if (!(targetScale > 0)) {
        throw Invalid.value("limits.targetScale", targetScale, "must be > 0", "1 to serve the demand, or infinity to grow to the end");
      }
    }
  }

  public ColocationEnvironment(ColocationProblem problem, int topK) {
    if (topK < 1 || topK > 1024) {
      throw Invalid.value("topK", topK, "must lie in [1, 1024]", "8");
    }
    // an episode asks for the same few thousand batch times again and again; GPUs are checked one by
    // one at scale 0 (a configuration's own rules), which the fewest-GPUs objective would refuse outright
    this.problem = problem.withObjective(ColocationObjective.MAX_SCALE).memoized();
    this.menu = SegmentMenu.of(this.problem);
    this.topK = topK;
    this.maxPeakFlops = problem.pools().stream().mapToDouble(p -> p.type().peakFlopsPerSecond()).max().orElseThrow();
    List<String> profiles = new ArrayList<>();
    for (GpuPool pool : problem.pools()) {
      pool.partitioning().mig().ifPresent(g -> g.profiles().forEach(p -> {
        if (!profiles.contains(p.name())) {
          profiles.add(p.name());
        }
      }));
    }
    this.migProfiles = List.copyOf(profiles);
    List<String> names = new ArrayList<>();
    for (GpuPool pool : problem.pools()) {
      pool.partitioning().templates().forEach(t -> {
        if (!names.contains(t.name())) {
          names.add(t.name());
        }
      });
    }
    this.templates = List.copyOf(names);
    this.levelCount = 1 + MPS_LEVELS.length + migProfiles.size() + templates.size();
    this.referenceScale = computeReferenceScale();
    this.demandScale = referenceScale > 0 ? referenceScale : 1;
  }

  /**
   * A scale no plan of isolated parts (whole GPUs, MIG instances) can exceed: every service served
   * at its best throughput per compute slice anywhere, all slices of the cluster shared out. The
   * training reward is the scale over it, so mixes of every size and rate weigh alike.
   */
  public double referenceScale() {
    return referenceScale;
  }

  private double computeReferenceScale() {
    double slices = 0;
    for (GpuPool pool : problem.pools()) {
      slices += 7.0 * pool.count();
    }
    double demand = 0;
    for (ColocationService service : problem.services()) {
      double density = 0;
      for (GpuPool pool : problem.pools()) {
        for (SegmentOption o : menu.options(pool.type().name(), service.id())) {
          // an NPU template (never a level of the policy, but in the menu) in sevenths of the card like a MIG instance
          double used = o.whole() ? 7 : o.template() ? 7.0 * pool.partitioning().template(o.profile()).cores() / pool.partitioning().npuCores()
              : pool.partitioning().requireMig().profile(o.profile()).computeSlices();
          density = Math.max(density, o.throughput() / used);
        }
      }
      if (density == 0) {
        return 0;
      }
      demand += service.rate() / density;
    }
    return slices / demand;
  }

  /**
   * The GPU's performance when the co-location verifier accepts it alone, else null. Remembered:
   * the same configurations come back step after step and rollout after rollout; the memory is
   * dropped when it grows past {@link #VERIFIED_MEMORY} entries.
   */
  private List<SegmentPerformance> verified(GpuConfiguration gpu) {
    if (verified.size() > VERIFIED_MEMORY) {
      verified.clear();
    }
    return verified.computeIfAbsent(gpu, g -> ColocationVerifier.check(problem, new ColocationPlan(List.of(g), 0)).isEmpty()
        ? Optional.of(ColocationPerformance.evaluate(problem, g).orElseThrow()) : Optional.<List<SegmentPerformance>>empty())
        .orElse(null);
  }

  /** GPUs of every pool together. */
  public int clusterGpus() {
    return problem.pools().stream().mapToInt(GpuPool::count).sum();
  }

  /** Plays one episode to the end of the cluster. */
  public Outcome run(Chooser chooser) {
    return run(chooser, new Limits(clusterGpus(), Double.POSITIVE_INFINITY));
  }

  /** Plays one episode within {@code limits}. */
  public Outcome run(Chooser chooser, Limits limits) {
    return run(chooser, limits, List.of());
  }

  /**
   * Plays one episode within {@code limits} from a partial plan: the {@code start} GPUs are held from
   * the first step (they count in the budget, and the chooser may add segments to them), as if
   * earlier steps had placed them. Each must pass the co-location verifier alone.
   */
  public Outcome run(Chooser chooser, Limits limits, List<GpuConfiguration> start) {
    Episode episode = new Episode(chooser, limits);
    for (int i = 0; i < start.size(); i++) {
      episode.hold(i, start.get(i));
    }
    return episode.play();
  }

  /** One GPU taken from a pool, with its segments and their current throughputs. */
  private static final class Held {
    final int pool;
    final List<Segment> segments = new ArrayList<>();
    double[] throughput = new double[0];
    /** {@link Episode#freeFraction}, kept up to date by {@link Episode#apply}. */
    double free;
    /** Services that had no legal pair here: never offered this GPU again (it only fills up). */
    final BitSet refuses = new BitSet();

    Held(int pool) {
      this.pool = pool;
    }
  }

  /** A legal pair: the segment it adds and the GPU's performance afterwards. */
  private record Move(int gpu, int pool, Segment segment, List<SegmentPerformance> after) {}

  private final class Episode {
    final Chooser chooser;
    final int budget;
    final double target;
    /**
     * What the gain features measure a service's demand at: the reference scale of the cluster cut
     * to the budget (in proportion to its GPUs), so a cut cluster reads like a small one in training.
     */
    final double demandAt;
    final List<Held> held = new ArrayList<>();
    final int[] freshLeft;
    final double[] served;
    /** A fresh GPU's pairs do not depend on the episode's state: priced once per pool and service. */
    final Map<Integer, Move[]> freshMoves = new HashMap<>();
    final List<Long> nanos = new ArrayList<>();
    int policySteps;
    int fallbackSteps;
    int fellBackAt = -1;

    Episode(Chooser chooser, Limits limits) {
      this.chooser = chooser;
      this.budget = Math.min(limits.gpuBudget(), clusterGpus());
      this.target = limits.targetScale();
      // (the whole cluster keeps the reference itself: x * n / n need not round back to x)
      this.demandAt = budget == clusterGpus() ? demandScale : demandScale * budget / clusterGpus();
      this.freshLeft = problem.pools().stream().mapToInt(GpuPool::count).toArray();
      this.served = new double[problem.services().size()];
    }

    /** Takes {@code gpu} as held, with its segments and their verified throughputs. */
    void hold(int index, GpuConfiguration gpu) {
      if (held.size() >= budget) {
        throw Invalid.value("start.size", index + 1, "must not exceed the episode's budget of " + budget + " GPUs", "cut the partial plan or raise the budget");
      }
      int pool = -1;
      for (int p = 0; p < freshLeft.length && pool < 0; p++) {
        if (freshLeft[p] > 0 && problem.pools().get(p).type().name().equals(gpu.gpuType())) {
          pool = p;
        }
      }
      List<SegmentPerformance> performance = verified(gpu);
      if (pool < 0 || performance == null) {
        throw Invalid.value("start[" + index + "]", gpu, pool < 0 ? "needs a GPU of a type the cluster has left" : "must pass the co-location verifier",
            "start from GPUs of a verified plan of this problem");
      }
      Held h = new Held(pool);
      held.add(h);
      freshLeft[pool]--;
      h.segments.addAll(gpu.segments());
      h.throughput = performance.stream().mapToDouble(SegmentPerformance::throughput).toArray();
      h.free = freeFraction(h);
      credit(h, 1);
    }

    Outcome play() {
      while (true) {
        long start = System.nanoTime();
        int s = neediest();
        if (served[s] / rate(s) >= target) {
          return outcome();
        }
        if (fellBackAt < 0) {
          List<Integer> gpus = candidateGpus(s, topK);
          Move[] moves = moves(s, gpus);
          boolean[] legal = new boolean[moves.length];
          boolean any = false;
          for (int i = 0; i < moves.length; i++) {
            legal[i] = moves[i] != null;
            any |= legal[i];
          }
          if (any) {
            double[][] features = new double[moves.length][];
            for (int i = 0; i < moves.length; i++) {
              features[i] = moves[i] == null ? new double[FEATURES.size()] : features(s, moves[i]);
            }
            int chosen = chooser.choose(features, legal);
            if (chosen < 0 || chosen >= moves.length || !legal[chosen]) {
              throw Invalid.value("chosen", chosen, "must index a legal candidate of " + moves.length);
            }
            nanos.add(System.nanoTime() - start);
            apply(moves[chosen]);
            policySteps++;
            continue;
          }
        }
        Move best = heuristicMove(s);
        if (best == null) {
          return outcome();
        }
        if (fellBackAt < 0) {
          fellBackAt = policySteps;
        }
        apply(best);
        fallbackSteps++;
      }
    }

    int neediest() {
      int best = 0;
      for (int s = 1; s < served.length; s++) {
        if (served[s] / rate(s) < served[best] / rate(best)) {
          best = s;
        }
      }
      return best;
    }

    double rate(int s) {
      return problem.services().get(s).rate();
    }

    /**
     * Service {@code s}'s demand at the reference scale: the gain features are throughput over it,
     * a share of what the service will need, so they read alike on 32 GPUs and on 1000 (where the
     * reached scale, and with it every service's need, is about 30 times larger).
     */
    double demand(int s) {
      return rate(s) * demandAt;
    }

    /** Fresh GPUs of pool {@code p} the episode may still open: the pool's, within the budget. */
    int freshLeft(int p) {
      return Math.min(freshLeft[p], budget - held.size());
    }

    /**
     * Open GPUs (partly used, room left, not known to refuse service {@code s}), the {@code limit}
     * with the most free capacity, then -1 per pool with a fresh GPU.
     */
    List<Integer> candidateGpus(int s, int limit) {
      List<Integer> open = new ArrayList<>();
      for (int g = 0; g < held.size(); g++) {
        if (held.get(g).free > SHARE_TOLERANCE && !held.get(g).refuses.get(s)) {
          open.add(g);
        }
      }
      open.sort((a, b) -> {
        int c = Double.compare(held.get(b).free, held.get(a).free);
        return c != 0 ? c : Integer.compare(a, b);
      });
      List<Integer> out = new ArrayList<>(open.subList(0, Math.min(limit, open.size())));
      for (int p = 0; p < freshLeft.length; p++) {
        if (freshLeft(p) > 0) {
          out.add(-1 - p);
        }
      }
      return out;
    }

    /** Every (GPU, level) pair of the candidates, null where illegal; a held GPU with none refuses {@code s} from now on. */
    Move[] moves(int s, List<Integer> gpus) {
      Move[] out = new Move[gpus.size() * levelCount];
      for (int k = 0; k < gpus.size(); k++) {
        int g = gpus.get(k);
        Move[] row = g >= 0 ? pairs(s, g, held.get(g).pool, held.get(g).segments) : fresh(s, -1 - g);
        if (g >= 0 && Arrays.stream(row).allMatch(m -> m == null)) {
          held.get(g).refuses.set(s);
        }
        System.arraycopy(row, 0, out, k * levelCount, levelCount);
      }
      return out;
    }

    Move[] fresh(int s, int pool) {
      return freshMoves.computeIfAbsent(pool * served.length + s, key -> pairs(s, -1, pool, List.of()));
    }

    /** The levels of one GPU: whole, the contended parts (MPS shares or CU masks), the MIG profiles, the NPU templates. */
    Move[] pairs(int s, int gpu, int pool, List<Segment> incumbents) {
      Move[] out = new Move[levelCount];
      GpuPool p = problem.pools().get(pool);
      String type = p.type().name();
      ColocationService service = problem.services().get(s);
      boolean empty = incumbents.isEmpty();
      Placement first = empty ? null : incumbents.get(0).placement();
      boolean mig = !empty && isMig(first);
      if (empty) {
        out[0] = menu.best(type, service.id(), null).map(o -> move(gpu, pool, incumbents, o.at(0))).orElse(null);
      }
      if ((p.partitioning().mps() || p.partitioning().computeUnits() > 0) && (empty || isContended(first))) {
        double free = 1 - usedCompute(incumbents, p);
        for (int l = 0; l < MPS_LEVELS.length; l++) {
          Placement level = SharedSlotMenu.contendedLevel(p.partitioning(), MPS_LEVELS[l], service.processMemoryBytes());
          if (level.computeFraction(p.partitioning()) <= free + SHARE_TOLERANCE) {
            out[1 + l] = contendedMove(gpu, pool, incumbents, service, level);
          }
        }
      }
      if (!p.partitioning().templates().isEmpty() && (empty || first instanceof TemplatePartition)) {
        for (int t = 0; t < templates.size(); t++) {
          String name = templates.get(t);
          if (p.partitioning().templates().stream().anyMatch(x -> x.name().equals(name))) {
            out[1 + MPS_LEVELS.length + migProfiles.size() + t] = templateMove(gpu, pool, incumbents, service, name);
          }
        }
      }
      if (p.partitioning().mig().isPresent() && (empty || mig)) {
        MigGeometry geometry = p.partitioning().requireMig();
        for (int m = 0; m < migProfiles.size(); m++) {
          String profile = migProfiles.get(m);
          if (geometry.profiles().stream().anyMatch(x -> x.name().equals(profile))) {
            out[1 + MPS_LEVELS.length + m] = migMove(gpu, pool, incumbents, service, geometry, profile);
          }
        }
      }
      return out;
    }

    Move contendedMove(int gpu, int pool, List<Segment> incumbents, ColocationService service, Placement placement) {
      List<Integer> batches = new ArrayList<>(service.batches());
      // the largest batch first: it serves the most per share; smaller ones when co-runners' SLOs say no
      batches.sort((a, b) -> Integer.compare(b, a));
      GpuPool p = problem.pools().get(pool);
      for (int batch : batches) {
        // alone, before interference: a batch too slow or unknown to the time model needs no verifier
        OptionalDouble alone = problem.timeModel().seconds(SharedStage.wholeModel(service.model(), batch, p.type(), p.partitioning(), placement));
        if (alone.isEmpty() || !problem.sloRule().admits(alone.getAsDouble(), service)) {
          continue;
        }
        Move m = move(gpu, pool, incumbents, new Segment(service.id(), placement, batch));
        if (m != null) {
          return m;
        }
      }
      return null;
    }

    Move migMove(int gpu, int pool, List<Segment> incumbents, ColocationService service, MigGeometry geometry, String profile) {
      MigProfile p = geometry.profile(profile);
      MigLayout layout = migLayout(incumbents, problem.pools().get(pool));
      for (int start : p.allowedStarts()) {
        if (!layout.fits(p, start)) {
          continue;
        }
        // isolated options priced alone, best throughput first: the first the GPU accepts is the best
        for (SegmentOption o : menu.options(problem.pools().get(pool).type().name(), service.id())) {
          if (profile.equals(o.profile())) {
            Move m = move(gpu, pool, incumbents, o.at(start));
            if (m != null) {
              return m;
            }
          }
        }
        return null;
      }
      return null;
    }

    /**
     * Template {@code name} when its cores fit the card's free cores: the service's isolated options on
     * it, best throughput first, the first the verifier accepts (it checks the memory).
     */
    Move templateMove(int gpu, int pool, List<Segment> incumbents, ColocationService service, String name) {
      GpuPartitioning parts = problem.pools().get(pool).partitioning();
      if (usedCores(incumbents, parts) + parts.template(name).cores() > parts.npuCores()) {
        return null;
      }
      for (SegmentOption o : menu.options(problem.pools().get(pool).type().name(), service.id())) {
        if (o.template() && name.equals(o.profile())) {
          Move m = move(gpu, pool, incumbents, o.at(0));
          if (m != null) {
            return m;
          }
        }
      }
      return null;
    }

    /** The move when the verifier accepts the GPU with {@code added}, else null. */
    Move move(int gpu, int pool, List<Segment> incumbents, Segment added) {
      List<Segment> segments = new ArrayList<>(incumbents);
      segments.add(added);
      List<SegmentPerformance> after = verified(new GpuConfiguration(problem.pools().get(pool).type().name(), segments));
      return after == null ? null : new Move(gpu, pool, added, after);
    }

    double[] features(int s, Move m) {
      double[] f = new double[FEATURES.size()];
      GpuPool pool = problem.pools().get(m.pool());
      List<Segment> incumbents = m.gpu() >= 0 ? held.get(m.gpu()).segments : List.of();
      double[] before = m.gpu() >= 0 ? held.get(m.gpu()).throughput : new double[0];
      Placement placement = m.segment().placement();
      f[0] = m.gpu() < 0 ? 1 : 0;
      f[1] = placement instanceof Whole ? 1 : 0;
      // a CU mask is a contended part like an MPS share, a template an isolated hard partition like a
      // MIG instance (docs/SHARING.md §1, §3): the network sees each as its kind
      f[2] = isContended(placement) ? 1 : 0;
      f[3] = isMig(placement) || placement instanceof TemplatePartition ? 1 : 0;
      f[4] = placement.computeFraction(pool.partitioning());
      f[5] = placement.memoryBytes(pool.partitioning()) / (double) pool.partitioning().memoryBytes();
      f[6] = 1 - usedCompute(incumbents, pool);
      f[7] = 1 - usedMemory(incumbents, pool);
      MigLayout layout = migLayout(incumbents, pool);
      for (int i = 0; layout != null && i < Math.min(MIG_MASK_BITS, layout.geometry().memorySlices()); i++) {
        f[8 + i] = layout.isFree(i) ? 1 : 0;
      }
      if (placement instanceof TemplatePartition) {
        // templates have no positions: the free cores as the leading bits, in eighths of the card like A100's memory slices
        int freeBits = (int) Math.round(MIG_MASK_BITS * (1 - usedCores(incumbents, pool.partitioning()) / (double) pool.partitioning().npuCores()));
        for (int i = 0; i < freeBits; i++) {
          f[8 + i] = 1;
        }
      }
      int n = m.after().size();
      f[16] = (n - 1) / 8.0;
      double incumbentSlowdown = 0;
      double loss = 0;
      for (int i = 0; i < n - 1; i++) {
        incumbentSlowdown += m.after().get(i).slowdown() - 1;
        loss += (before[i] - m.after().get(i).throughput()) / demand(index(incumbents.get(i).service()));
      }
      f[17] = n > 1 ? incumbentSlowdown / (n - 1) : 0;
      SegmentPerformance own = m.after().get(n - 1);
      f[18] = own.slowdown() - 1;
      double gain = own.throughput() / demand(s);
      // gains span orders of magnitude (a whole H100 on a small CNN): compress them
      f[19] = Math.log1p(gain);
      f[20] = Math.signum(gain - loss) * Math.log1p(Math.abs(gain - loss));
      f[21] = Math.log1p(gain / Math.max(f[4], 1e-3));
      f[22] = 1 - usedComputeAfter(incumbents, m.segment(), pool);
      f[23] = migPlacementsLost(incumbents, m.segment(), pool);
      f[24] = pool.type().peakFlopsPerSecond() / maxPeakFlops;
      f[25] = freshLeft(m.pool()) / (double) Math.max(1, Math.min(pool.count(), budget));
      return f;
    }

    /** The heuristic's move: over every open GPU and a fresh one per type, the legal pair serving the most. */
    Move heuristicMove(int s) {
      Move best = null;
      for (Move m : moves(s, candidateGpus(s, Integer.MAX_VALUE))) {
        if (m != null && (best == null || m.after().get(m.after().size() - 1).throughput() > best.after().get(best.after().size() - 1).throughput())) {
          best = m;
        }
      }
      return best;
    }

    void apply(Move m) {
      Held gpu;
      if (m.gpu() < 0) {
        gpu = new Held(m.pool());
        held.add(gpu);
        freshLeft[m.pool()]--;
      } else {
        gpu = held.get(m.gpu());
      }
      credit(gpu, -1);
      gpu.segments.add(m.segment());
      gpu.throughput = m.after().stream().mapToDouble(SegmentPerformance::throughput).toArray();
      gpu.free = freeFraction(gpu);
      credit(gpu, 1);
    }

    /** Adds ({@code sign} 1) or takes back (-1) what {@code gpu}'s segments serve. */
    void credit(Held gpu, int sign) {
      for (int i = 0; i < gpu.segments.size(); i++) {
        served[index(gpu.segments.get(i).service())] += sign * gpu.throughput[i];
      }
    }

    /** Room left on a held GPU: its free MPS or CU compute or template cores, or its free MIG memory slices; none on a whole one. */
    double freeFraction(Held gpu) {
      GpuPool pool = problem.pools().get(gpu.pool);
      Placement first = gpu.segments.get(0).placement();
      if (first instanceof Whole) {
        return 0;
      }
      if (isMig(first)) {
        return migLayout(gpu.segments, pool).freeSlices() / (double) pool.partitioning().requireMig().memorySlices();
      }
      return 1 - usedCompute(gpu.segments, pool);
    }

    int index(String service) {
      for (int i = 0; i < served.length; i++) {
        if (problem.services().get(i).id().equals(service)) {
          return i;
        }
      }
      throw new IllegalStateException("no service " + service);
    }

    Outcome outcome() {
      List<GpuConfiguration> gpus = held.stream()
          .map(h -> new GpuConfiguration(problem.pools().get(h.pool).type().name(), h.segments)).toList();
      ColocationPlan unscaled = new ColocationPlan(gpus, 0);
      // the scale from the verifier's own throughputs, not the episode's running sums
      Map<String, Double> throughputs = ColocationVerifier.throughputs(problem, unscaled);
      double scale = Double.POSITIVE_INFINITY;
      for (ColocationService service : problem.services()) {
        scale = Math.min(scale, throughputs.get(service.id()) / service.rate());
      }
      long[] decisions = nanos.stream().mapToLong(Long::longValue).toArray();
      return new Outcome(new ColocationPlan(gpus, scale), policySteps, fallbackSteps,
          fellBackAt < 0 ? OptionalInt.empty() : OptionalInt.of(fellBackAt), decisions);
    }
  }

  private static boolean isMig(Placement p) {
    return p instanceof MigSlice || p instanceof MigSliceMps;
  }


  /**
   * Compute taken: MPS shares, or MIG compute slices over the card's (the policy was trained on
   * slice counts, not on the SMs {@link Placement#computeFraction} gives); the whole GPU counts 1.
   */
  private static double usedCompute(List<Segment> segments, GpuPool pool) {
    double used = 0;
    for (Segment s : segments) {
      if (s.placement() instanceof MpsShare m) {
        used += m.fraction();
      } else if (s.placement() instanceof CuMask || s.placement() instanceof TemplatePartition) {
        used += s.placement().computeFraction(pool.partitioning());
      } else if (isMig(s.placement())) {
        MigGeometry geometry = pool.partitioning().requireMig();
        used += geometry.computeSliceFraction(geometry.profile(MigLayout.instanceOf(s.placement()).profile()));
      } else {
        used += 1;
      }
    }
    return Math.min(1, used);
  }

  private static boolean isContended(Placement p) {
    return p instanceof MpsShare || p instanceof CuMask;
  }

  /** NPU cores the templates among {@code segments} take. */
  private static int usedCores(List<Segment> segments, GpuPartitioning parts) {
    int used = 0;
    for (Segment s : segments) {
      if (s.placement() instanceof TemplatePartition t) {
        used += parts.template(t.template()).cores();
      }
    }
    return used;
  }

  private static double usedComputeAfter(List<Segment> segments, Segment added, GpuPool pool) {
    List<Segment> all = new ArrayList<>(segments);
    all.add(added);
    return usedCompute(all, pool);
  }

  private static double usedMemory(List<Segment> segments, GpuPool pool) {
    double used = 0;
    for (Segment s : segments) {
      used += s.placement().memoryBytes(pool.partitioning()) / (double) pool.partitioning().memoryBytes();
    }
    return Math.min(1, used);
  }

  /** Over every template, how many more copies of it the free cores and memory left by {@code segments} hold. */
  private static int templateCopies(List<Segment> segments, GpuPartitioning parts) {
    int freeCores = parts.npuCores() - usedCores(segments, parts);
    long freeMemory = parts.memoryBytes() - segments.stream().mapToLong(s -> s.placement().memoryBytes(parts)).sum();
    int copies = 0;
    for (PartitionTemplate t : parts.templates()) {
      copies += (int) Math.min(freeCores / t.cores(), Math.max(0, freeMemory) / t.memoryBytes());
    }
    return copies;
  }

  /** The MIG instances of a GPU's segments; null on a GPU without MIG or running MPS. */
  private static MigLayout migLayout(List<Segment> segments, GpuPool pool) {
    if (pool.partitioning().mig().isEmpty() || (!segments.isEmpty() && !isMig(segments.get(0).placement()))) {
      return null;
    }
    return MigLayout.of(pool.partitioning().requireMig(), segments.stream().map(s -> MigLayout.instanceOf(s.placement())).toList());
  }

  /**
   * The share of (profile, start) placements legal before that the added MIG instance makes illegal;
   * for a template, the share of template copies that fit the free cores and memory it takes away.
   */
  private static double migPlacementsLost(List<Segment> segments, Segment added, GpuPool pool) {
    if (added.placement() instanceof TemplatePartition) {
      List<Segment> after = new ArrayList<>(segments);
      after.add(added);
      int before = templateCopies(segments, pool.partitioning());
      return before == 0 ? 0 : (before - templateCopies(after, pool.partitioning())) / (double) before;
    }
    if (!isMig(added.placement())) {
      return 0;
    }
    MigLayout layout = migLayout(segments, pool);
    MigSlice slice = MigLayout.instanceOf(added.placement());
    int before = layout.legalPlacements();
    int after = layout.with(slice.profile(), slice.start()).legalPlacements();
    return before == 0 ? 0 : (before - after) / (double) before;
  }
}
