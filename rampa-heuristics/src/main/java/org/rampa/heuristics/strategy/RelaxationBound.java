package org.rampa.heuristics.strategy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.DoublePredicate;
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
   * pure functions of the key. Least recently used first; kept within {@link #RECENT_BUDGET}.
   */
  private static final LinkedHashMap<Inputs, Tables> RECENT = new LinkedHashMap<>(16, 0.75f, true);
  /** The most stage entries (arcs per shape, the key's size) {@link #RECENT} holds: about 8 MB with the tables. */
  private static final long RECENT_BUDGET = 1 << 19;
  private static long recentSize;

  private final int layers;
  private final int shapes;
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
    this.shapes = pools.shapes.size();
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
    double[] arcCost = new double[(layers + 1) * (layers + 1) * shapes];
    double[] arcTime = new double[arcCost.length];
    Arrays.fill(arcCost, Double.POSITIVE_INFINITY);
    for (int j = 0; j < layers; j++) {
      StageCursor stageFromJ = c.performance.cursor(c.model, c.batch, j, List.of());
      for (int k = j + 1; k <= layers; k++) {
        long memory = stageFromJ.add().memoryBytes();
        for (int s = 0; s < shapes; s++) {
          if (memory > pools.maxCapOfShape[s]) {
            continue;
          }
          double time = prefixTime[s] == null ? 0 : prefixTime[s][k] - prefixTime[s][j];
          double r = prefixTime[s] == null ? 1 : Math.max(1, Math.ceil(time / maxBusy - 1e-9));
          if (r <= freeOfShape[s]) {
            arcCost[arc(j, k, s)] = r * cheapestOfShape[s];
            arcTime[arc(j, k, s)] = time;
          }
        }
      }
    }
    Inputs inputs = new Inputs(layers, shapes, this.maxStages, latencyBudget, arcCost, arcTime);
    this.tables = tablesOf(inputs);
    double root = tables.plain[this.maxStages][0];
    this.latencyBound = latencyBound && root > 0 && root != Double.POSITIVE_INFINITY && latencyBudget > 0
        && latencyBudget != Double.POSITIVE_INFINITY;
  }

  private int arc(int j, int k, int s) {
    return Inputs.arc(layers, shapes, j, k, s);
  }

  /** The tables of {@code inputs}: an earlier decision's when it had the same, else new ones (kept for the next). */
  private static Tables tablesOf(Inputs inputs) {
    synchronized (RECENT) {
      Tables known = RECENT.get(inputs);
      if (known != null) {
        return known;
      }
    }
    Tables built = new Tables(inputs);
    if (inputs.arcCost.length <= RECENT_BUDGET) {
      synchronized (RECENT) {
        if (RECENT.putIfAbsent(inputs, built) == null) {
          recentSize += inputs.arcCost.length;
          for (var eldest = RECENT.entrySet().iterator(); recentSize > RECENT_BUDGET; ) {
            recentSize -= eldest.next().getKey().arcCost.length;
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

  /** What the tables are a function of: per stage [j, k) and shape the relaxed cost (infinite where the shape cannot hold it) and time alone. */
  private record Inputs(int layers, int shapes, int maxStages, double latencyBudget, double[] arcCost, double[] arcTime) {

    static int arc(int layers, int shapes, int j, int k, int s) {
      return (j * (layers + 1) + k) * shapes + s;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Inputs i && layers == i.layers && shapes == i.shapes && maxStages == i.maxStages
          && Double.compare(latencyBudget, i.latencyBudget) == 0 && Arrays.equals(arcCost, i.arcCost) && Arrays.equals(arcTime, i.arcTime);
    }

    /** From a sample of the stages (equals compares them all): hashing every stage cost as much as a table. */
    @Override
    public int hashCode() {
      int h = Objects.hash(layers, shapes, maxStages, latencyBudget);
      for (int x = 0; x < arcCost.length; x += 61) {
        h = 31 * h + Double.hashCode(arcCost[x]);
        h = 31 * h + Double.hashCode(arcTime[x]);
      }
      return h;
    }
  }

  /** The plain table, built with it, and the twelve Lagrangian ones, each built the first time a search needs it. */
  private static final class Tables {
    private final Inputs in;
    /** plain[s][j]: least relaxed cost with at most s stages from boundary j. */
    final double[][] plain;
    /** μ per Lagrangian table. */
    final double[] mu = new double[MU_SCALES.length];
    /** [m][s][j]: least relaxed cost plus mu[m] times time alone, with at most s stages from boundary j; null until built. */
    private final AtomicReferenceArray<double[][]> lagrangian = new AtomicReferenceArray<>(MU_SCALES.length);

    Tables(Inputs in) {
      this.in = in;
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
      int shapes = in.shapes;
      double[][] stage = new double[layers][layers + 1];
      for (int j = 0; j < layers; j++) {
        double[] row = stage[j];
        Arrays.fill(row, Double.POSITIVE_INFINITY);
        for (int k = j + 1; k <= layers; k++) {
          int at = Inputs.arc(layers, shapes, j, k, 0);
          for (int s = 0; s < shapes; s++) {
            double v = in.arcCost[at + s] + mu * in.arcTime[at + s];
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
