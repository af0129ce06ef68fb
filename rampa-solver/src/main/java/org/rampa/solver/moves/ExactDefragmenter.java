package org.rampa.solver.moves;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Stage;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.Defragmenter;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.Move;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.strategy.SolveStatus;

/**
 * The sequence of at most the budget's moves that leaves the most room ({@link ForecastRoom}), then
 * the least price, then the fewest moves, by best-first branch and bound over ledger states: the
 * moves of a state are {@link MoveSpace}'s, each applied by the problem's {@link MoveRules} (so only
 * legal states that keep every touched SLO are reached), one group at a time (one GPU's layout moves
 * and the migrations off it), and a state reached before with no fewer moves and no less price is
 * not expanded again ({@link ExpandedStates}). Exact over {@link MoveSpace}'s moves.
 *
 * <p><b>The bound.</b> Charge every move to one GPU: a migration to the GPU it leaves, a re-cut or
 * mode change to its own. For a GPU g of a state s and j moves charged to it, best_g(j) is the most
 * room g has with the services of a set S of at most j of its movable services (admitted with their
 * request) gone, and, when j &gt; |S|, its best layout: the best maximal layout keeping the instances
 * still held, or, when nobody is left, no layout ({@link ForecastRoom#emptied}). The bound of s with
 * m moves left is the most Σ_g best_g(j_g) over Σ_g j_g ≤ m (a knapsack over GPUs).
 *
 * <p>It is admissible: take any sequence of at most m moves from s, and on each GPU g the set S of
 * services of s with a replica migrated off g (|S| ≤ the migrations charged to g). What g holds after
 * the sequence contains what s held on g less S (a service moves off a GPU only by a migration off
 * it), and g's layout changed only if a layout move was charged to g; a kept MIG holding stays in
 * every later layout (a re-cut keeps held instances). Room on one GPU never grows when holdings are
 * added to the same layout (the whole GPU needs it empty; a profile counts unheld instances; ⌊free
 * / ℓ⌋ and the client limit left shrink), and with the holdings fixed it is largest on a maximal
 * layout containing them, or with nobody on it and no layout: {@link ForecastRoom#emptied}. So g's
 * room after the sequence is at most best_g(moves charged to g), and the charges sum to at most m.
 * A group of moves charged to g is applied only when the bound with at least one move charged to g
 * can still beat the best found (groups most bound first), and the search stops when no queued
 * state's bound can.
 *
 * <p>{@code OPTIMAL} when the search ran out of states whose bound could beat the best sequence found;
 * {@code FEASIBLE} with the best found when the time limit stopped it (never a proof then). The
 * bound costs a subset enumeration per GPU (of its movable services, at most the budget of them)
 * and the search applies every group the bound allows, so it is meant for small clusters or small
 * budgets; on a large one the time limit turns it into an anytime search, best warm-started by a
 * heuristic ({@link #ExactDefragmenter(Defragmenter)}).
 */
public final class ExactDefragmenter implements Defragmenter {

  private static final double EPS = 1e-9;

  private final Optional<Defragmenter> warmStart;

  /** The search alone: its first incumbent is the state without moves. */
  public ExactDefragmenter() {
    this.warmStart = Optional.empty();
  }

  /**
   * The search starting from {@code warmStart}'s answer as its incumbent (a heuristic's: legal moves
   * within the budget), within the same time limit: more is pruned from the start, and a search the
   * time limit stops still answers at least as well as the heuristic. The optimum is the same.
   */
  public ExactDefragmenter(Defragmenter warmStart) {
    this.warmStart = Optional.of(warmStart);
  }

  @Override
  public String name() {
    return "exact-defrag";
  }

  /** A state reached by moves, its room (kept by GPU differences) and the bound of what it can still reach. */
  private record Node(ClusterState state, List<Move> moves, double cost, double room, double bound, long order) {}

  /** The best sequence found: most room, then least price, then fewest moves. */
  private record Best(Node node) {
    /** Whether a sequence with at least {@code room}, at price {@code cost} and {@code moves} moves, beats it. */
    boolean beatenBy(double room, double cost, int moves) {
      if (room > node.room() + EPS) {
        return true;
      }
      if (room < node.room() - EPS) {
        return false;
      }
      return cost < node.cost() - EPS || (cost <= node.cost() + EPS && moves < node.moves().size());
    }
  }

  @Override
  public DefragResult defragment(DefragProblem p) {
    long deadline = System.nanoTime() + p.timeLimit().toNanos();
    Bounds bounds = new Bounds(p);
    double cheapest = Math.min(p.costs().migration(), Math.min(p.costs().recut(), p.costs().modeChange()));
    ClusterState start = p.state();
    double before = p.room().of(start);
    long order = 0;
    Node root = new Node(start, List.of(), 0, before, before + bounds.gain(start, p.budget()), order++);
    Best best = new Best(root);
    if (warmStart.isPresent()) {
      DefragResult w = warmStart.get().defragment(p);
      Node warm = new Node(w.after(), w.moves(), w.moveCost(), w.roomAfter(), w.roomAfter(), order++);
      if (best.beatenBy(warm.room(), warm.cost(), warm.moves().size())) {
        best = new Best(warm);
      }
    }
    // most bound first, then least price, fewest moves, first queued
    PriorityQueue<Node> open = new PriorityQueue<>(Comparator.comparingDouble((Node n) -> -n.bound()).thenComparingDouble(Node::cost)
        .thenComparingInt(n -> n.moves().size()).thenComparingLong(Node::order));
    open.add(root);
    ExpandedStates expanded = new ExpandedStates();
    long explored = 0;
    boolean timedOut = false;
    search:
    while (!open.isEmpty()) {
      Node n = open.poll();
      if (n.bound() < best.node().room() - EPS) {
        break; // nothing queued can reach the best room
      }
      int left = p.budget() - n.moves().size();
      if (left == 0 || !best.beatenBy(n.bound(), n.cost() + cheapest, n.moves().size() + 1)
          || !expanded.first(n.state(), n.moves().size(), n.cost())) {
        continue;
      }
      // every move of a GPU's group is charged to it: its children's rooms are bounded with at least one move on it; the groups
      // are tried most bound first (so a good sequence is found early), and none after the first that cannot beat the best
      List<Gpu> gpus = n.state().cluster().gpus();
      double[] groupGain = bounds.groupGains(n.state(), left);
      Integer[] byBound = new Integer[gpus.size()];
      Arrays.setAll(byBound, i -> i);
      Arrays.sort(byBound, Comparator.comparingDouble((Integer i) -> -groupGain[i]).thenComparingInt(i -> i));
      for (int i : byBound) {
        Gpu g = gpus.get(i);
        if (!best.beatenBy(n.room() + groupGain[i], n.cost() + cheapest, n.moves().size() + 1)) {
          break;
        }
        for (Move m : group(n.state(), p.rules(), g.id())) {
          if (System.nanoTime() > deadline) {
            timedOut = true;
            break search;
          }
          MoveRules.Outcome o = p.rules().attempt(n.state(), m);
          explored++;
          if (!o.applied()) {
            continue;
          }
          ClusterState after = o.after().get();
          double room = n.room();
          for (String changed : m.gpus()) {
            room += p.room().onGpu(after, changed) - p.room().onGpu(n.state(), changed);
          }
          List<Move> moves = new ArrayList<>(n.moves());
          moves.add(m);
          double cost = n.cost() + p.costs().of(m);
          Node child = new Node(after, List.copyOf(moves), cost, room, room + bounds.gain(after, left - 1), order++);
          if (best.beatenBy(room, cost, moves.size())) {
            best = new Best(child);
          }
          if (left > 1 && best.beatenBy(child.bound(), cost + cheapest, moves.size() + 1)) {
            open.add(child);
          }
        }
      }
    }
    Node b = best.node();
    ClusterState after = b.state();
    double roomAfter = p.room().of(after);
    double price = b.moves().stream().mapToDouble(p.costs()::of).sum();
    String gained = b.moves().size() + " moves gain " + String.format("%.4f", roomAfter - before) + " GPU share equivalents of room for the forecast";
    return timedOut
        ? new DefragResult(SolveStatus.FEASIBLE, b.moves(), price, after, before, roomAfter, gained + "; the time limit of " + p.timeLimit()
            + " ran out after " + explored + " moves tried, so a sequence with more room may exist", name(), explored)
        : new DefragResult(SolveStatus.OPTIMAL, b.moves(), price, after, before, roomAfter, gained + "; no sequence of at most " + p.budget()
            + " moves leaves more room, or as much at a lower price (" + explored + " moves tried)", name(), explored);
  }

  /** The candidate moves charged to {@code gpu}: its re-cuts and mode changes, then the migrations of each replica off it. */
  private static List<Move> group(ClusterState s, MoveRules rules, String gpu) {
    List<Move> out = new ArrayList<>(MoveSpace.layoutMoves(s, gpu));
    for (String service : s.servicesOn(gpu)) {
      Allocation a = s.allocations().get(service);
      if (a.plan().isEmpty()) {
        continue;
      }
      List<Stage> stages = a.plan().get().stages();
      for (int k = 0; k < stages.size(); k++) {
        if (stages.get(k).gpus().contains(gpu)) {
          out.addAll(MoveSpace.migrations(s, rules, service, k, gpu));
        }
      }
    }
    return out;
  }

  /**
   * best_g(j) less g's room now, per GPU, memoized by what the GPU holds and its layout (a child
   * differs from its parent on at most two GPUs), and the knapsack over GPUs.
   */
  private static final class Bounds {

    private final DefragProblem problem;
    private final Map<List<Object>, double[]> memo = new HashMap<>();

    Bounds(DefragProblem problem) {
      this.problem = problem;
    }

    /** The most room {@code s} can gain with at most {@code moves} moves. */
    double gain(ClusterState s, int moves) {
      if (moves == 0) {
        return 0;
      }
      double[] best = new double[moves + 1]; // best[k]: most gain with at most k moves charged to the GPUs so far
      for (Gpu g : s.cluster().gpus()) {
        best = combine(best, ofGpu(s, g.id(), moves), moves);
      }
      return best[moves];
    }

    /**
     * Per GPU in cluster order, the most room {@code s} can gain with at most {@code moves} moves of
     * which at least one is charged to that GPU: the most over j ≥ 1 of its gain with j moves plus the
     * other GPUs' with the rest (knapsacks of the GPUs before it and after it, combined).
     */
    double[] groupGains(ClusterState s, int moves) {
      List<Gpu> gpus = s.cluster().gpus();
      int n = gpus.size();
      double[][] gains = new double[n][];
      for (int i = 0; i < n; i++) {
        gains[i] = ofGpu(s, gpus.get(i).id(), moves);
      }
      double[][] before = new double[n + 1][];
      double[][] after = new double[n + 1][];
      before[0] = new double[moves + 1];
      after[n] = new double[moves + 1];
      for (int i = 0; i < n; i++) {
        before[i + 1] = combine(before[i], gains[i], moves);
        after[n - 1 - i] = combine(after[n - i], gains[n - 1 - i], moves);
      }
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        double[] others = combine(before[i], after[i + 1], moves);
        out[i] = Double.NEGATIVE_INFINITY;
        for (int j = 1; j <= moves; j++) {
          out[i] = Math.max(out[i], gains[i][j] + others[moves - j]);
        }
      }
      return out;
    }

    /** The knapsack of two gain tables (index: at most that many moves, nondecreasing): the most gain of both within each count. */
    private static double[] combine(double[] a, double[] b, int moves) {
      double[] out = new double[moves + 1];
      for (int k = 0; k <= moves; k++) {
        out[k] = Double.NEGATIVE_INFINITY;
        for (int j = 0; j <= k; j++) {
          out[k] = Math.max(out[k], a[k - j] + b[j]);
        }
      }
      return out;
    }

    /** best_g(j) less g's room now for j in [0, moves], nondecreasing in j. */
    private double[] ofGpu(ClusterState s, String gpu, int moves) {
      List<Object> key = List.of(gpu, s.holdingsOn(gpu), s.migLayout(gpu), moves);
      double[] known = memo.get(key);
      if (known != null) {
        return known;
      }
      ForecastRoom room = problem.room();
      double now = room.onGpu(s, gpu);
      List<String> movable = new ArrayList<>();
      for (String id : s.servicesOn(gpu)) {
        if (s.allocations().get(id).request().isPresent()) {
          movable.add(id);
        }
      }
      double[] out = new double[moves + 1];
      subsets(s, gpu, movable, 0, 0, moves, now, out);
      for (int j = 1; j <= moves; j++) {
        out[j] = Math.max(out[j], out[j - 1]);
      }
      memo.put(key, out);
      return out;
    }

    /** Records in {@code out} the gains with the services of {@code s} off {@code gpu} chosen so far ({@code size} of them), and recurses. */
    private void subsets(ClusterState s, String gpu, List<String> movable, int from, int size, int moves, double now, double[] out) {
      ForecastRoom room = problem.room();
      out[size] = Math.max(out[size], room.onGpu(s, gpu) - now);
      if (size + 1 <= moves) {
        out[size + 1] = Math.max(out[size + 1], bestLayout(s, gpu) - now);
      }
      for (int i = from; i < movable.size() && size + 1 <= moves; i++) {
        subsets(s.release(movable.get(i)), gpu, movable, i + 1, size + 1, moves, now, out);
      }
    }

    /** {@code gpu}'s most room in {@code s} after any layout moves: nobody left, no layout; else the best maximal layout keeping what is held. */
    private double bestLayout(ClusterState s, String gpu) {
      ForecastRoom room = problem.room();
      if (s.isFree(gpu)) {
        return room.emptied(s, gpu);
      }
      List<MigSlice> layout = s.migLayout(gpu);
      if (layout.isEmpty()) {
        return room.onGpu(s, gpu); // held in another mode: a layout needs it empty first
      }
      List<MigSlice> held = new ArrayList<>();
      for (Holding h : s.holdingsOn(gpu)) {
        held.add(MigLayout.instanceOf(h.placement()));
      }
      double best = room.onGpu(s, gpu);
      for (List<MigSlice> to : MoveSpace.maximalLayouts(s.partitioning(gpu).requireMig(), held)) {
        best = Math.max(best, room.withLayout(s, gpu, to));
      }
      return best;
    }
  }
}
