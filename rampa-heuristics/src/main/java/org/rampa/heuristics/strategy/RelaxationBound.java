package org.rampa.heuristics.strategy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.DoublePredicate;
import org.rampa.perf.LayerMemory;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.StageCursor;

/**
 * The label-setting search's admissible bound on the cost still to come, solved once per decision
 * by small dynamic programmes over (stages left, boundary) on a relaxation of the problem, over
 * every shape of the slot menu.
 *
 * <p><b>The relaxation.</b> Every unit of a shape costs as little as the cheapest one offering it,
 * capacities, nodes and transfers do not matter; a stage of layers S on whole GPUs of type t needs
 * ceil(T_S / max busy) GPUs (each holding all of S), on a share at least one (α ≥ 1 and a share's
 * time alone are not bounded here by the whole GPU's).
 *
 * <p><b>Latency (Lagrangian).</b> The plain relaxation ignores the latency bound, which is what
 * makes a large model expensive: fast GPUs cost more. For any μ ≥ 0, a completion whose latency
 * fits the label's slack {@code B - L} costs at least {@code h_μ - μ (B - L)}, where {@code h_μ}
 * is the relaxation's least cost plus μ times the completion's time alone on whole GPUs (a lower
 * bound on its latency: transfers and α only add; shares count 0). The bound is the largest of
 * the plain relaxation and these, over a fixed grid of μ; with it the search proves optimality
 * where the plain bound left a wide gap to the incumbent (a 70B model on thousands of GPUs).
 *
 * <p><b>Built as far as needed.</b> The plain table is built with the bound; each of the twelve
 * Lagrangian tables (most of the bound's work) only when the search first needs it. The search
 * asks {@link #priority} whether a label can still beat the incumbent: the plain bound first, then
 * the Lagrangian ones one table at a time, stopping at the first that shows it cannot (the full
 * bound, their largest, is never less). Only a label that every table leaves a chance gets a
 * priority, and that priority is the largest over all of them, so every value the search orders
 * or prunes by is the one an eager build gives: when the tables are built changes neither the
 * search's order nor its answers. Where greedy's incumbent is optimal, one or two tables usually
 * prove it.
 */
final class RelaxationBound {

  /** Multipliers of the grid, relative to the cost per second of latency of the plain relaxation's root. */
  private static final double[] MU_SCALES = {1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8, 16, 32, 64, 128};
  /**
   * The order in which {@link #priority} builds the tables (indices of {@link #MU_SCALES}): the
   * middle of the grid first, where the latency's price usually lies; only the time spent depends on it.
   */
  private static final int[] BUILD_ORDER = {4, 5, 3, 6, 2, 7, 1, 8, 0, 9, 10, 11};

  /**
   * Recently built tables by their inputs, shared across decisions: a simulator's arrivals of one
   * service class on a cluster whose cheapest prices per shape did not change ask for the same
   * relaxation (the free counts matter only where they cap a stage's replicas). The tables are
   * pure functions of the key, which is small ({@link Inputs}): a decision that finds its tables
   * here builds none of their O(L²·shapes) stages. Least recently used first; kept within {@link #RECENT_BUDGET}.
   */
  private static final LinkedHashMap<Inputs, Tables> RECENT = new LinkedHashMap<>(16, 0.75f, true);
  /** The most stage entries (stages times shapes, {@link Inputs#arcCount}) {@link #RECENT} holds: about 8 MB with the tables. */
  private static final long RECENT_BUDGET = 1 << 19;
  private static long recentSize;

  private final int layers;
  /** The request's K_max. */
  private final int requestMaxStages;
  /** The tables' stage rows: K_max, at most the layer count. */
  private final int maxStages;
  private final double latencyBudget;
  /** The plain and Lagrangian tables of these inputs, maybe shared with earlier decisions. */
  private final Tables tables;
  /** Whether the Lagrangian tables apply (a finite positive latency budget and root bound, and asked for). */
  private final boolean latencyBound;
  /** How many tables this search needed: those of the first {@code used} entries of {@link #BUILD_ORDER}. */
  private int used;

  /**
   * @param prefixTime per shape, the time alone of layers {@code [0, l)} on a whole GPU of the
   *     shape's type; null for a share
   * @param latencyBound whether to add the Lagrangian latency bounds (off: the plain relaxation only)
   */
  RelaxationBound(PlacementContext c, SlotPools pools, double[][] prefixTime, double maxBusy, int maxStages, double latencyBudget,
      boolean latencyBound) {
    this.layers = c.model.size();
    int shapes = pools.shapes.size();
    this.requestMaxStages = maxStages;
    // a stage holds one layer at least: more stages than layers add nothing (and K_max may be 1024)
    this.maxStages = Math.min(maxStages, layers);
    this.latencyBudget = latencyBudget;
    double[] cheapestOfShape = new double[shapes];
    int[] freeOfShape = new int[shapes];
    Arrays.fill(cheapestOfShape, Double.POSITIVE_INFINITY);
    for (int s = 0; s < shapes; s++) {
      for (SlotPools.Pool p : pools.poolsOfShape.get(s)) {
        cheapestOfShape[s] = Math.min(cheapestOfShape[s], p.cost(s, 0, 1));
        freeOfShape[s] += p.size();
      }
    }
    // the key holds what the stages' costs and times are made of (O(L·shapes)); the stages themselves
    // (O(L²·shapes), most of a decision that ends at the root) are built only when no earlier decision had it
    Inputs inputs = new Inputs(layers, this.maxStages, latencyBudget, maxBusy, PerformanceModel.layerMemory(c.model, c.batch),
        pools.maxCapOfShape, cheapestOfShape, replicasAvailable(prefixTime, maxBusy, freeOfShape), prefixTime);
    this.tables = tablesOf(inputs, c);
    double root = tables.plain[this.maxStages][0];
    this.latencyBound = latencyBound && root > 0 && root != Double.POSITIVE_INFINITY && latencyBudget > 0
        && latencyBudget != Double.POSITIVE_INFINITY;
  }

  /**
   * Per shape, its free count capped at the most replicas a stage on it may need (a stage of every
   * layer): counts above that leave every stage as it is, so decisions that differ only there share tables.
   */
  private static int[] replicasAvailable(double[][] prefixTime, double maxBusy, int[] freeOfShape) {
    int[] capped = new int[freeOfShape.length];
    for (int s = 0; s < capped.length; s++) {
      // a stage's time is a difference of prefix sums of non-negative times: never more than the whole model's
      double most = prefixTime[s] == null ? 1 : replicas(prefixTime[s][prefixTime[s].length - 1], maxBusy);
      capped[s] = (int) Math.min(freeOfShape[s], most);
    }
    return capped;
  }

  /** The replicas a stage of time alone {@code time} needs in the relaxation: enough to keep each within the busy bound. */
  private static double replicas(double time, double maxBusy) {
    return Math.max(1, Math.ceil(time / maxBusy - 1e-9));
  }

  /**
   * The tables of {@code inputs}: an earlier decision's when it had the same, else new ones (kept for
   * the next) over the stages of {@code c}'s model.
   */
  private static Tables tablesOf(Inputs inputs, PlacementContext c) {
    synchronized (RECENT) {
      Tables known = RECENT.get(inputs);
      if (known != null) {
        return known;
      }
    }
    Tables built = new Tables(inputs, c);
    long size = inputs.arcCount();
    if (size <= RECENT_BUDGET) {
      synchronized (RECENT) {
        if (RECENT.putIfAbsent(inputs, built) == null) {
          recentSize += size;
          for (var eldest = RECENT.entrySet().iterator(); recentSize > RECENT_BUDGET; ) {
            recentSize -= eldest.next().getKey().arcCount();
            eldest.remove();
          }
        }
      }
    }
    return built;
  }

  /**
   * {@code spent} plus the bound on the cost still to come ({@link #costToGo}) when {@code viable}
   * holds for that sum; otherwise some value for which it fails, found with as few tables as
   * possible. {@code viable} must be monotone (true for a sum, true for every smaller one): then a
   * part of the bound for which it fails proves that the whole fails it too.
   */
  double priority(double spent, int boundary, int stagesUsed, double latency, DoublePredicate viable) {
    if (boundary == layers) {
      return spent + 0;
    }
    int left = stagesLeft(stagesUsed);
    if (left <= 0) {
      return spent + Double.POSITIVE_INFINITY;
    }
    double best = tables.plain[left][boundary];
    if (!latencyBound || !viable.test(spent + best)) {
      return spent + best;
    }
    double slack = Math.max(0, latencyBudget - latency);
    for (int i = 0; i < BUILD_ORDER.length; i++) {
      int m = BUILD_ORDER[i];
      used = Math.max(used, i + 1);
      double[][] table = tables.lagrangian(m);
      double v = table[left][boundary] - tables.mu[m] * slack;
      // the sums' rounding must never lift the bound over a plan's true cost
      v -= 1e-9 * Math.abs(v);
      if (v > best) {
        best = v;
        if (!viable.test(spent + best)) {
          return spent + best;
        }
      }
    }
    return spent + best;
  }

  /**
   * Admissible estimate of the cost still to come from {@code boundary} after {@code stagesUsed}
   * stages for a path whose latency so far is at least {@code latency}: the largest of the plain
   * bound and the Lagrangian ones at that slack (building the tables not built yet).
   */
  double costToGo(int boundary, int stagesUsed, double latency) {
    return priority(0, boundary, stagesUsed, latency, sum -> true);
  }

  /** The root's bound from the tables built so far (the plain one and the Lagrangian tables the search needed). */
  double rootBoundSoFar() {
    double best = tables.plain[maxStages][0];
    for (int i = 0; i < used; i++) {
      int m = BUILD_ORDER[i];
      double v = tables.lagrangian(m)[maxStages][0] - tables.mu[m] * latencyBudget;
      v -= 1e-9 * Math.abs(v);
      if (v > best) {
        best = v;
      }
    }
    return best;
  }

  /** How many of the twelve Lagrangian tables the search needed (built for it or found built by an earlier decision). */
  int latencyTablesUsed() {
    return used;
  }

  private int stagesLeft(int stagesUsed) {
    return Math.min(maxStages, requestMaxStages - stagesUsed);
  }

  /**
   * What the tables are a function of, and all a decision computes before it knows whether an earlier
   * one built them: per stage [j, k) and shape, the relaxed cost is infinite where the stage's memory
   * (a function of the layers' memory, {@link LayerMemory}) exceeds the shape's largest cap, else the
   * replicas its time alone (a difference of the shape's prefix times) needs at the busy bound, if that
   * many are available, times the shape's cheapest cost.
   */
  private static final class Inputs {
    final int layers;
    final int maxStages;
    final double latencyBudget;
    final double maxBusy;
    final LayerMemory memory;
    final long[] maxCapOfShape;
    final double[] cheapestOfShape;
    /** Per shape: GPUs of it free, capped at the most a stage may need ({@link #replicasAvailable}). */
    final int[] replicasOfShape;
    /** Per shape: the prefix times of the layers on a whole GPU of it; null for a share (its stages take time 0 and 1 unit). */
    final double[][] prefixTime;
    private final int hash;

    Inputs(int layers, int maxStages, double latencyBudget, double maxBusy, LayerMemory memory, long[] maxCapOfShape, double[] cheapestOfShape,
        int[] replicasOfShape, double[][] prefixTime) {
      this.layers = layers;
      this.maxStages = maxStages;
      this.latencyBudget = latencyBudget;
      this.maxBusy = maxBusy;
      this.memory = memory;
      this.maxCapOfShape = maxCapOfShape;
      this.cheapestOfShape = cheapestOfShape;
      this.replicasOfShape = replicasOfShape;
      this.prefixTime = prefixTime;
      int h = Objects.hash(layers, maxStages, latencyBudget, maxBusy, memory);
      h = 31 * h + Arrays.hashCode(maxCapOfShape);
      h = 31 * h + Arrays.hashCode(cheapestOfShape);
      h = 31 * h + Arrays.hashCode(replicasOfShape);
      this.hash = 31 * h + Arrays.deepHashCode(prefixTime);
    }

    int shapes() {
      return cheapestOfShape.length;
    }

    /** How many stage entries (stage and shape) the tables' arcs hold. */
    long arcCount() {
      return (long) (layers + 1) * (layers + 1) * shapes();
    }

    static int arc(int layers, int shapes, int j, int k, int s) {
      return (j * (layers + 1) + k) * shapes + s;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Inputs i && hash == i.hash && layers == i.layers && maxStages == i.maxStages
          && Double.compare(latencyBudget, i.latencyBudget) == 0 && Double.compare(maxBusy, i.maxBusy) == 0
          && Arrays.equals(maxCapOfShape, i.maxCapOfShape) && Arrays.equals(cheapestOfShape, i.cheapestOfShape)
          && Arrays.equals(replicasOfShape, i.replicasOfShape) && Arrays.deepEquals(prefixTime, i.prefixTime) && memory.equals(i.memory);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** The plain table, built with it, and the twelve Lagrangian ones, each built the first time a search needs it. */
  private static final class Tables {
    private final Inputs in;
    /** Per stage [j, k) and shape ({@link Inputs#arc}): the relaxed cost, infinite where the shape cannot hold it. */
    private final double[] arcCost;
    /** Per stage and shape: the time alone (0 on a share). */
    private final double[] arcTime;
    /** plain[s][j]: least relaxed cost with at most s stages from boundary j. */
    final double[][] plain;
    /** μ per Lagrangian table. */
    final double[] mu = new double[MU_SCALES.length];
    /** [m][s][j]: least relaxed cost plus mu[m] times time alone, with at most s stages from boundary j; null until built. */
    private final AtomicReferenceArray<double[][]> lagrangian = new AtomicReferenceArray<>(MU_SCALES.length);

    /** The tables of {@code in}, whose stages are those of {@code c}'s model at its batch. */
    Tables(Inputs in, PlacementContext c) {
      this.in = in;
      int layers = in.layers;
      int shapes = in.shapes();
      arcCost = new double[(int) in.arcCount()];
      arcTime = new double[arcCost.length];
      Arrays.fill(arcCost, Double.POSITIVE_INFINITY);
      for (int j = 0; j < layers; j++) {
        StageCursor stageFromJ = c.performance.cursor(c.model, c.batch, j, List.of());
        for (int k = j + 1; k <= layers; k++) {
          long memory = stageFromJ.add().memoryBytes();
          for (int s = 0; s < shapes; s++) {
            if (memory > in.maxCapOfShape[s]) {
              continue;
            }
            double[] prefix = in.prefixTime[s];
            double time = prefix == null ? 0 : prefix[k] - prefix[j];
            double r = prefix == null ? 1 : replicas(time, in.maxBusy);
            if (r <= in.replicasOfShape[s]) {
              arcCost[Inputs.arc(layers, shapes, j, k, s)] = r * in.cheapestOfShape[s];
              arcTime[Inputs.arc(layers, shapes, j, k, s)] = time;
            }
          }
        }
      }
      this.plain = relaxedCosts(0);
      double root = plain[in.maxStages][0];
      for (int m = 0; m < mu.length; m++) {
        mu[m] = MU_SCALES[m] * root / in.latencyBudget;
      }
    }

    /** Table m, built on first use (two threads may both build it: the same values, one of them is kept). */
    double[][] lagrangian(int m) {
      double[][] t = lagrangian.get(m);
      if (t == null) {
        t = relaxedCosts(mu[m]);
        lagrangian.compareAndSet(m, null, t);
      }
      return t;
    }

    /** t[s][j]: least over at most s stages from boundary j of relaxed cost plus {@code mu} times time alone. */
    private double[][] relaxedCosts(double mu) {
      int layers = in.layers;
      int shapes = in.shapes();
      double[][] stage = new double[layers][layers + 1];
      for (int j = 0; j < layers; j++) {
        double[] row = stage[j];
        Arrays.fill(row, Double.POSITIVE_INFINITY);
        for (int k = j + 1; k <= layers; k++) {
          int at = Inputs.arc(layers, shapes, j, k, 0);
          for (int s = 0; s < shapes; s++) {
            double v = arcCost[at + s] + mu * arcTime[at + s];
            if (v < row[k]) {
              row[k] = v;
            }
          }
        }
      }
      double[][] t = new double[in.maxStages + 1][];
      t[0] = new double[layers + 1];
      Arrays.fill(t[0], Double.POSITIVE_INFINITY);
      t[0][layers] = 0;
      for (int st = 1; st <= in.maxStages; st++) {
        double[] next = t[st - 1];
        double[] row = new double[layers + 1];
        row[layers] = 0;
        for (int j = layers - 1; j >= 0; j--) {
          double[] from = stage[j];
          double best = Double.POSITIVE_INFINITY;
          for (int k = j + 1; k <= layers; k++) {
            double v = from[k] + next[k];
            if (v < best) {
              best = v;
            }
          }
          row[j] = best;
        }
        if (Arrays.equals(row, next)) {
          // one more stage helped nowhere: each row depends on the one before only, so the rest are this one
          Arrays.fill(t, st, t.length, next);
          break;
        }
        t[st] = row;
      }
      return t;
    }
  }
}
