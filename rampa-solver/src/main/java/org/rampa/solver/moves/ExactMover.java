package org.rampa.solver.moves;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;
import org.rampa.moves.Move;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.Mover;
import org.rampa.moves.MovesResult;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/**
 * The cheapest sequence of at most the budget's moves after which the request fits, by uniform-cost
 * search (Dijkstra) over ledger states: states are expanded in order of the price of the moves that
 * reach them, each state once per move count (a state reached again at no lower count is skipped:
 * everything after it was explored already at no higher price), the candidate moves of each state are
 * {@link MoveSpace#candidates} and each is applied by the problem's {@link MoveRules} (so only legal
 * states that keep every touched SLO are ever reached), and a state is a goal when the problem's
 * placer returns a plan on it. Prices are positive, so the first goal taken from the queue has the
 * least price; among goals of that price the plan of least importance cost wins, then fewer moves.
 *
 * <p>What is proven is relative to the placer: {@code OPTIMAL} when every state cheaper than the
 * answer was refused with a proof ({@code INFEASIBLE}); {@code INFEASIBLE} when every reachable state
 * within the budget was, so no sequence of at most the budget's moves in the move space lets the
 * request fit. A placer that gives up without a proof ({@code NO_PLAN_FOUND}, as {@code greedy} may)
 * makes the answer {@code FEASIBLE} or {@code NO_PLAN_FOUND}. With an exact placer ({@code dp},
 * {@code exact}) the answer is exact over {@link MoveSpace}'s moves and the placer's placements. The
 * search is exhaustive: practical for budgets of 1 to 3 on small clusters, not for 1000 GPUs.
 */
public final class ExactMover implements Mover {

  private static final double EPS = 1e-9;

  @Override
  public String name() {
    return "exact-moves";
  }

  private record Node(ClusterState state, List<Move> moves, double cost, long order) {}

  /** A state up to its version: who holds what, and each GPU's MIG layout as a set. */
  private record Key(Map<String, List<Holding>> holdings, Map<String, Set<MigSlice>> layouts) {
    static Key of(ClusterState s) {
      Map<String, List<Holding>> holdings = new TreeMap<>();
      for (Allocation a : s.allocations().values()) {
        holdings.put(a.serviceId(), a.holdings());
      }
      Map<String, Set<MigSlice>> layouts = new TreeMap<>();
      s.migLayouts().forEach((g, l) -> layouts.put(g, new HashSet<>(l)));
      return new Key(holdings, layouts);
    }
  }

  @Override
  public MovesResult admit(MoveProblem p) {
    long deadline = System.nanoTime() + p.timeLimit().toNanos();
    PriorityQueue<Node> open = new PriorityQueue<>(Comparator.comparingDouble(Node::cost)
        .thenComparingInt(n -> n.moves().size()).thenComparingLong(Node::order));
    Map<Key, Integer> expanded = new HashMap<>();
    long order = 0;
    open.add(new Node(p.state(), List.of(), 0, order++));
    Node best = null;
    PlacementResult bestPlacement = null;
    PlacementResult firstRefusal = null;
    double cheapestUnproven = Double.POSITIVE_INFINITY;
    String unprovenReason = null;
    long explored = 0;
    while (!open.isEmpty()) {
      Node n = open.poll();
      if (best != null && n.cost() > best.cost() + EPS) {
        break;
      }
      Key key = Key.of(n.state());
      Integer seen = expanded.get(key);
      if (seen != null && seen <= n.moves().size()) {
        continue;
      }
      expanded.put(key, n.moves().size());
      if (System.nanoTime() > deadline) {
        return timedOut(p, best, bestPlacement, firstRefusal, explored);
      }
      PlacementResult r = p.placer().place(n.state(), p.request());
      explored++;
      if (r.plan().isPresent()) {
        if (best == null || r.plan().get().cost() < bestPlacement.plan().get().cost() - EPS) {
          best = n;
          bestPlacement = r;
        }
        continue;
      }
      if (firstRefusal == null) {
        firstRefusal = r;
      }
      if (r.status() != SolveStatus.INFEASIBLE && n.cost() < cheapestUnproven) {
        cheapestUnproven = n.cost();
        unprovenReason = r.status() + " after " + n.moves().size() + " moves: " + r.reason();
      }
      if (best != null || n.moves().size() >= p.budget()) {
        continue; // a goal's price is reached: children cost more; or the budget is spent
      }
      for (Move m : MoveSpace.candidates(n.state())) {
        if (System.nanoTime() > deadline) {
          return timedOut(p, best, bestPlacement, firstRefusal, explored); // best is null here: a goal stops expansion
        }
        MoveRules.Outcome o = p.rules().attempt(n.state(), m);
        if (o.applied()) {
          List<Move> moves = new ArrayList<>(n.moves());
          moves.add(m);
          open.add(new Node(o.after().get(), List.copyOf(moves), n.cost() + p.costs().of(m), order++));
        }
      }
    }
    if (best != null) {
      boolean proven = cheapestUnproven >= best.cost() - EPS;
      return new MovesResult(proven ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, best.moves(), best.cost(), best.state(),
          Optional.of(bestPlacement), proven ? "no cheaper sequence of at most " + p.budget() + " moves lets the request fit ("
              + explored + " states placed)" : "a cheaper sequence may exist: the placer gave up without a proof (" + unprovenReason + ")",
          name(), explored);
    }
    if (unprovenReason != null) {
      return new MovesResult(SolveStatus.NO_PLAN_FOUND, List.of(), 0, p.state(), Optional.ofNullable(firstRefusal),
          "no sequence of at most " + p.budget() + " moves found among " + explored + " reachable states, but the placer gave up without "
              + "a proof on some (" + unprovenReason + "): try an exact strategy", name(), explored);
    }
    return new MovesResult(SolveStatus.INFEASIBLE, List.of(), 0, p.state(), Optional.ofNullable(firstRefusal),
        "no sequence of at most " + p.budget() + " moves lets the request fit: all " + explored + " reachable states were searched and "
            + "the placer proved each infeasible; without moves: " + (firstRefusal == null ? "" : firstRefusal.reason()), name(), explored);
  }

  private MovesResult timedOut(MoveProblem p, Node best, PlacementResult bestPlacement, PlacementResult firstRefusal, long explored) {
    if (best != null) {
      // every cheaper state was placed already: the price is the least, only the tie-break among equal prices was cut short
      return new MovesResult(SolveStatus.FEASIBLE, best.moves(), best.cost(), best.state(), Optional.of(bestPlacement),
          "the time limit ran out while comparing sequences of the least price", name(), explored);
    }
    return new MovesResult(SolveStatus.NO_SOLUTION_IN_TIME, List.of(), 0, p.state(), Optional.ofNullable(firstRefusal),
        "the time limit of " + p.timeLimit() + " ran out after " + explored + " states; no sequence found yet", name(), explored);
  }
}
