package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rampa.solver.flow.ArcGenerator.Arc;
import org.rampa.solver.flow.FreeGpus.CostGroup;
import org.rampa.solver.backend.LinearProgram.Row;
import org.rampa.solver.backend.LinearProgram.Term;
import org.rampa.solver.flow.NodeSlots.Slot;
import org.rampa.solver.flow.SharedSlots.Part;
import org.rampa.solver.backend.LinearProgram;

/**
 * Cost-bound pruning of a shared model (docs/SHARING.md section 5: the relaxation, the network-only
 * model and the co-location model with node slots): arcs that no plan of at most the incumbent's
 * cost can use are left out of what the solver sees, and the incumbent is its MIP start.
 *
 * <p><b>The bound.</b> Every arc has a least cost: its replicas at the cheapest GPUs it may take
 * (a whole arc: the cheapest group of its type; a shared arc: its cheapest parts, each once, and
 * fresh GPUs offering its placement at their cheapest; on a slot or in a slow-node pool alike,
 * every use of a GPU costs its group's cost). Every arc has a least latency: what the latency row
 * charges it, less, on a slot, what the slot's intra link saves at the cut after it (its {@code z}
 * there needs an arc on that slot ending at that cut, and a path has one arc ending at each cut it
 * crosses; slower intra links only add). Every solution pays at least the sum of its arcs' least
 * costs, keeps its latency row with its arcs at their least latencies and takes at most maxStages
 * arcs. A resource-constrained
 * shortest path over the arcs (latency in {@link #BUCKETS} buckets of the latency budget, each arc's
 * latency rounded <em>down</em> to a bucket, so that every path within the budget stays within the
 * buckets) gives, per arc, the least cost of any such path through it: a lower bound on every
 * solution using it, relaxing the GPU-count, one-holding and incumbent rows.
 *
 * <p><b>The incumbent.</b> The cheapest path of that search when it has network arcs only (no
 * slot, so its latency is what the row charges) and keeps the budget, else that of the same search
 * over the network arcs with latencies rounded <em>up</em> (every path of which keeps it);
 * its arcs on their cheapest GPUs (fresh before parts at equal cost, one holding per GPU) make a
 * complete assignment, kept only when it satisfies every row of the model (else, or when a given
 * MIP start is cheaper and satisfies them, that start is the incumbent). With
 * an incumbent of cost U, an arc whose bound exceeds U is in no optimal solution, so it and its
 * slot choices are left out: the optimum, and so every OPTIMAL answer, is unchanged, and the
 * solver's bound on the smaller model is still a bound on the full one. Without an incumbent the
 * model is solved as it is.
 */
public final class CostBound {

  /** Latency buckets: finer is tighter and slower (arcs x maxStages x buckets steps per pass). */
  static final int BUCKETS = 64;
  private static final double INF = Double.POSITIVE_INFINITY;

  /** What the solver gets: a model, a MIP start in its variables, and the way back to the full model's variables. */
  public static final class Reduced {
    public final LinearProgram model;
    public final Optional<double[]> hint;
    /** Per variable of {@link #model}, its index in the full model; null when nothing was left out. */
    private final int[] original;
    private final int fullSize;
    public final int arcsKept;

    private Reduced(LinearProgram model, Optional<double[]> hint, int[] original, int fullSize, int arcsKept) {
      this.model = model;
      this.hint = hint;
      this.original = original;
      this.fullSize = fullSize;
      this.arcsKept = arcsKept;
    }

    /** A solution of {@link #model} as values of the full model (0 for every variable left out). */
    public double[] expand(double[] values) {
      if (original == null || values.length == 0) {
        return values;
      }
      double[] full = new double[fullSize];
      for (int i = 0; i < values.length; i++) {
        full[original[i]] = values[i];
      }
      return full;
    }
  }

  private final IntervalFlowFormulation f;
  private final int layers;
  private final int stages;
  private final double budget;
  private final double width;
  /** Per arc: its least cost and its latency (microseconds, as the latency row charges it). */
  private final double[] least;
  private final double[] latency;

  private CostBound(IntervalFlowFormulation f) {
    this.f = f;
    this.layers = f.layers();
    this.stages = f.request.maxStages();
    this.budget = FlowProgramBuilder.latencyBudgetMicros(f.free);
    this.width = budget / BUCKETS;
    this.least = new double[f.arcs.size()];
    this.latency = new double[f.arcs.size()];
    for (int a = 0; a < f.arcs.size(); a++) {
      least[a] = leastCost(f.arcs.get(a));
      latency[a] = leastLatency(f.arcs.get(a));
    }
  }

  /**
   * The least an arc adds to the latency row: what the row charges it (its compute and the network
   * transfer after it) less, on a slot, the most its cut after it may save intra-node (the slot's
   * {@code z} there, which only an arc on that slot ending at that cut allows). Slower intra links
   * only add to the row, so they are left out: a relaxation.
   */
  private double leastLatency(Arc arc) {
    double micros = FlowProgramBuilder.latencyMicros(f.free, arc);
    if (arc.slot >= 0 && arc.to < layers) {
      Slot s = f.slots.get(arc.slot);
      if (f.variables.intra(s, arc.to) >= 0 && s.intraSeconds[arc.to] < f.free.networkSeconds()[arc.to]) {
        micros -= (f.free.networkSeconds()[arc.to] - s.intraSeconds[arc.to]) * 1e6;
      }
    }
    return micros;
  }

  /**
   * The model {@code f} is solved as: smaller when it has shared arcs and an incumbent is found;
   * {@code hint} (a MIP start in the full model's variables, say a heuristic's) competes with the
   * incumbent found here.
   */
  public static Reduced of(IntervalFlowFormulation f, Optional<double[]> hint) {
    if (f.shared == null || f.arcs.isEmpty()) {
      return new Reduced(f.model, hint, null, f.model.variableCount(), f.arcs.size());
    }
    return new CostBound(f).reduce(hint);
  }

  private Reduced reduce(Optional<double[]> given) {
    int[] roundedDown = buckets(false);
    int[][][] forwardVia = new int[layers + 1][stages + 1][BUCKETS + 1];
    double[][][] forward = search(roundedDown, true, forwardVia);
    f.free.checkTime();
    double[][][] backward = search(roundedDown, false, null);
    f.free.checkTime();
    // the incumbent: the cheapest path of the rounded-down search when it keeps the real budget,
    // else that of a search with latencies rounded up (every path of which does), on its cheapest GPUs
    Optional<List<Integer>> cheapest = path(forward, forwardVia, roundedDown).filter(this::onNetworkWithinBudget);
    if (cheapest.isEmpty()) {
      int[] roundedUp = buckets(true);
      for (int a = 0; a < roundedUp.length; a++) {
        if (f.arcs.get(a).slot >= 0) {
          roundedUp[a] = -1; // the incumbent is a network plan: its latency is what the row charges
        }
      }
      int[][][] via = new int[layers + 1][stages + 1][BUCKETS + 1];
      cheapest = path(search(roundedUp, true, via), via, roundedUp);
    }
    Optional<double[]> found = cheapest.flatMap(this::assignment);
    f.free.checkTime();
    double[] incumbent = better(found.orElse(null), given.filter(f.model::admits).orElse(null));
    if (incumbent == null) {
      return new Reduced(f.model, given, null, f.model.variableCount(), f.arcs.size());
    }
    double ceiling = f.model.objectiveValue(incumbent);
    ceiling += 1e-9 * Math.max(1, Math.abs(ceiling));
    // backward[j][s][b]: least cost from j to the end in at most s arcs and at most b buckets
    for (double[][] byStages : backward) {
      for (int s = 0; s <= stages; s++) {
        for (int b = 0; b <= BUCKETS; b++) {
          double best = byStages[s][b];
          if (s > 0) {
            best = Math.min(best, byStages[s - 1][b]);
          }
          if (b > 0) {
            best = Math.min(best, byStages[s][b - 1]);
          }
          byStages[s][b] = best;
        }
      }
    }
    boolean[] keep = new boolean[f.model.variableCount()];
    Arrays.fill(keep, true);
    int kept = 0;
    Map<Long, Double> through = new HashMap<>();
    for (int a = 0; a < f.arcs.size(); a++) {
      Arc arc = f.arcs.get(a);
      int d = roundedDown[a];
      // an arc whose latency alone breaks the budget is in no solution
      double rest = d < 0 ? INF : through.computeIfAbsent(((long) arc.from * (layers + 1) + arc.to) * (BUCKETS + 1) + d,
          k -> leastAround(forward, backward, arc.from, arc.to, d));
      if (rest + least[a] <= ceiling) {
        kept++;
        continue;
      }
      keep[arc.variable] = false;
      if (arc.shared() && !arc.share.single) {
        for (int y : f.variables.parts(arc)) {
          keep[y] = false;
        }
      }
    }
    return restricted(keep, incumbent, kept);
  }

  /** The least cost of the rest of a path around an arc [from, to) of {@code d} buckets. */
  private double leastAround(double[][][] forward, double[][][] backward, int from, int to, int d) {
    double best = INF;
    for (int s = 0; s < stages; s++) {
      for (int b = 0; b + d <= BUCKETS; b++) {
        double before = forward[from][s][b];
        if (before < best) {
          best = Math.min(best, before + backward[to][stages - 1 - s][BUCKETS - b - d]);
        }
      }
    }
    return best;
  }

  /** Per arc, its latency in buckets, rounded down (a relaxation) or up (conservative); over the budget: -1. */
  private int[] buckets(boolean roundUp) {
    int[] d = new int[f.arcs.size()];
    for (int a = 0; a < d.length; a++) {
      double q = latency[a] / width;
      // rounding down, a hair less, so that float noise never rounds a relaxation up; the incumbent is re-checked anyway
      double r = roundUp ? Math.ceil(q) : Math.floor(q - 1e-9);
      d[a] = r > BUCKETS ? -1 : (int) Math.max(0, r);
    }
    return d;
  }

  /**
   * Least costs by (boundary, arcs taken, buckets taken): from boundary 0 forward, or to the last
   * boundary backward ({@code [j][s][b]}: the rest from j in exactly s arcs and b buckets). Arcs
   * with the same layers and buckets are one step at the least cost among them. {@code via}, when
   * given (forward only), records the arc reaching each state.
   */
  private double[][][] search(int[] d, boolean forward, int[][][] via) {
    double[][][] cost = new double[layers + 1][stages + 1][BUCKETS + 1];
    for (double[][] byStages : cost) {
      for (double[] row : byStages) {
        Arrays.fill(row, INF);
      }
    }
    cost[forward ? 0 : layers][0][0] = 0;
    List<List<Integer>> leaving = steps(d, forward);
    for (int step = 0; step <= layers; step++) {
      int j = forward ? step : layers - step;
      for (int s = 0; s < stages; s++) {
        double[] here = cost[j][s];
        int first = 0;
        while (first <= BUCKETS && here[first] == INF) {
          first++;
        }
        int last = BUCKETS;
        while (last >= first && here[last] == INF) {
          last--;
        }
        for (int a : leaving.get(j)) {
          Arc arc = f.arcs.get(a);
          int next = forward ? arc.to : arc.from;
          double[] there = cost[next][s + 1];
          int da = d[a];
          double c = least[a];
          for (int b = first, end = Math.min(last, BUCKETS - da); b <= end; b++) {
            double v = here[b] + c;
            if (v < there[b + da]) {
              there[b + da] = v;
              if (via != null) {
                via[next][s + 1][b + da] = a;
              }
            }
          }
        }
      }
    }
    return cost;
  }

  /**
   * Per boundary, the arcs a search steps along from it: of the arcs over the same layers, only
   * those that no other is at most as slow (in buckets) and as cheap as; at equal both, the first.
   */
  private List<List<Integer>> steps(int[] d, boolean forward) {
    Map<Long, List<Integer>> byLayers = new HashMap<>();
    for (int a = 0; a < d.length; a++) {
      if (d[a] >= 0) {
        Arc arc = f.arcs.get(a);
        byLayers.computeIfAbsent((long) arc.from * (layers + 1) + arc.to, k -> new ArrayList<>()).add(a);
      }
    }
    List<List<Integer>> leaving = new ArrayList<>();
    for (int j = 0; j <= layers; j++) {
      leaving.add(new ArrayList<>());
    }
    for (List<Integer> same : byLayers.values()) {
      same.sort((x, y) -> d[x] != d[y] ? Integer.compare(d[x], d[y]) : Double.compare(least[x], least[y]));
      double cheapest = INF;
      for (int a : same) {
        if (least[a] < cheapest) {
          cheapest = least[a];
          Arc arc = f.arcs.get(a);
          leaving.get(forward ? arc.from : arc.to).add(a);
        }
      }
    }
    return leaving;
  }

  /** Whether a path has network arcs only (whose latency is what the row charges) and keeps the latency row's budget. */
  private boolean onNetworkWithinBudget(List<Integer> path) {
    double sum = 0;
    for (int a : path) {
      if (f.arcs.get(a).slot >= 0) {
        return false;
      }
      sum += latency[a];
    }
    return sum <= budget;
  }

  /** The cheapest path to the last boundary in the forward search, as arc indices. */
  private Optional<List<Integer>> path(double[][][] cost, int[][][] via, int[] d) {
    double best = INF;
    int bs = -1;
    int bb = -1;
    for (int s = 1; s <= stages; s++) {
      for (int b = 0; b <= BUCKETS; b++) {
        if (cost[layers][s][b] < best) {
          best = cost[layers][s][b];
          bs = s;
          bb = b;
        }
      }
    }
    if (bs < 0) {
      return Optional.empty();
    }
    List<Integer> arcs = new ArrayList<>();
    for (int j = layers, s = bs, b = bb; j > 0; s--) {
      int a = via[j][s][b];
      arcs.add(0, a);
      b -= d[a];
      j = f.arcs.get(a).from;
    }
    return Optional.of(arcs);
  }

  /**
   * The path's arcs on their cheapest GPUs as values of the model's variables: whole replicas from
   * the cheapest groups of their type, shared ones from the cheapest of fresh GPUs (first at equal
   * cost) and parts, at most one holding per GPU; empty when that breaks a row of the model.
   */
  private Optional<double[]> assignment(List<Integer> path) {
    double[] values = new double[f.model.variableCount()];
    int[] left = new int[f.groups.size()];
    for (int g = 0; g < left.length; g++) {
      left[g] = f.groups.get(g).outsideSlowNodes;
    }
    Set<String> held = new HashSet<>();
    for (int a : path) {
      Arc arc = f.arcs.get(a);
      values[arc.variable] = 1;
      if (!arc.shared()) {
        for (int r = 0; r < arc.replicas; r++) {
          int g = cheapestGroup(arc.type, left, -1);
          if (g < 0) {
            return Optional.empty();
          }
          left[g]--;
          values[f.variables.groupNet()[g]]++;
        }
        continue;
      }
      if (arc.share.single) {
        if (!held.add(f.shared.parts.get(arc.share.parts[0]).gpu)) {
          return Optional.empty();
        }
        continue;
      }
      boolean[] taken = new boolean[arc.share.parts.length];
      for (int r = 0; r < arc.replicas; r++) {
        int g = arc.share.fresh ? cheapestGroup(arc.type, left, arc.share.keyIndex) : -1;
        int u = cheapestPart(arc, taken, held);
        double freshCost = g < 0 ? INF : f.groups.get(g).sharedCosts[arc.share.keyIndex];
        if (u >= 0 && f.shared.parts.get(arc.share.parts[u]).cost < freshCost) {
          taken[u] = true;
          held.add(f.shared.parts.get(arc.share.parts[u]).gpu);
          values[f.variables.parts(arc)[u]] = 1;
        } else if (g >= 0) {
          left[g]--;
          values[f.variables.groupShared()[g][arc.share.keyIndex]]++;
        } else {
          return Optional.empty();
        }
      }
    }
    return f.model.admits(values) ? Optional.of(values) : Optional.empty();
  }

  /** The cheapest group of {@code type} with a GPU left, for a whole GPU ({@code key} -1) or fresh placement {@code key}. */
  private int cheapestGroup(int type, int[] left, int key) {
    int best = -1;
    for (int g = 0; g < left.length; g++) {
      CostGroup group = f.groups.get(g);
      if (group.type != type || left[g] == 0 || key >= 0 && f.variables.shared(group)[key] < 0) {
        continue;
      }
      double c = key < 0 ? group.cost : group.sharedCosts[key];
      if (best < 0 || c < (key < 0 ? f.groups.get(best).cost : f.groups.get(best).sharedCosts[key])) {
        best = g;
      }
    }
    return best;
  }

  private int cheapestPart(Arc arc, boolean[] taken, Set<String> held) {
    int best = -1;
    for (int u = 0; u < arc.share.parts.length; u++) {
      Part p = f.shared.parts.get(arc.share.parts[u]);
      if (!taken[u] && !held.contains(p.gpu) && (best < 0 || p.cost < f.shared.parts.get(arc.share.parts[best]).cost)) {
        best = u;
      }
    }
    return best;
  }

  /**
   * The least an arc's replicas cost in any solution: whole ones at the cheapest group of the
   * type; shared ones at the cheapest of their parts (each once) and, when fresh GPUs may serve,
   * the cheapest GPU of the type offering the placement. Every group counts, wherever its GPUs are
   * (outside slow nodes, on slots, in slow-node pools): each use of a GPU is charged its group's
   * cost, so this is at most what the arc's network, slot or pool uses cost.
   */
  private double leastCost(Arc arc) {
    if (!arc.shared()) {
      double cheapest = INF;
      for (CostGroup g : f.groups) {
        if (g.type == arc.type) {
          cheapest = Math.min(cheapest, g.cost);
        }
      }
      return arc.replicas * cheapest;
    }
    double fresh = INF;
    if (arc.share.fresh) {
      for (CostGroup g : f.groups) {
        if (g.type == arc.type && !Double.isNaN(g.sharedCosts[arc.share.keyIndex])) {
          fresh = Math.min(fresh, g.sharedCosts[arc.share.keyIndex]);
        }
      }
    }
    double[] parts = new double[arc.share.parts.length];
    for (int u = 0; u < parts.length; u++) {
      parts[u] = f.shared.parts.get(arc.share.parts[u]).cost;
    }
    Arrays.sort(parts);
    double sum = 0;
    for (int r = 0, u = 0; r < arc.replicas; r++) {
      if (u < parts.length && parts[u] < fresh) {
        sum += parts[u++];
      } else {
        sum += fresh;
      }
    }
    return sum;
  }

  private double[] better(double[] a, double[] b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return f.model.objectiveValue(b) < f.model.objectiveValue(a) ? b : a;
  }

  /** The model without the variables {@code keep} leaves out (each fixed at 0), and {@code incumbent} in its variables. */
  private Reduced restricted(boolean[] keep, double[] incumbent, int kept) {
    LinearProgram full = f.model;
    int[] index = new int[keep.length];
    List<Integer> original = new ArrayList<>();
    LinearProgram.Builder model = new LinearProgram.Builder();
    for (int i = 0; i < keep.length; i++) {
      index[i] = -1;
      if (keep[i]) {
        LinearProgram.Variable v = full.variables().get(i);
        index[i] = model.add(v);
        model.setObjective(index[i], full.objective(i));
        original.add(i);
      }
    }
    for (Row row : full.rows()) {
      List<Term> terms = new ArrayList<>(row.terms().size());
      for (Term t : row.terms()) {
        if (keep[t.variable()]) {
          terms.add(new Term(index[t.variable()], t.coefficient()));
        }
      }
      if (!terms.isEmpty() || row.lower() > 0 || row.upper() < 0) {
        model.addRow(row.name(), row.lower(), row.upper(), terms);
      }
    }
    double[] hint = new double[original.size()];
    for (int i = 0; i < hint.length; i++) {
      hint[i] = incumbent[original.get(i)];
    }
    return new Reduced(model.build(), Optional.of(hint), original.stream().mapToInt(Integer::intValue).toArray(), keep.length, kept);
  }
}
