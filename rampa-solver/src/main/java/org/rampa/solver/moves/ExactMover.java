package org.rampa.solver.moves;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Stage;
import org.rampa.moves.Move;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.Mover;
import org.rampa.moves.MovesResult;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/**
 * The cheapest sequence of at most the budget's moves after which the request fits (least price,
 * then fewest moves), by A* over ledger states with a proven lower bound: the candidate moves of a
 * state are {@link MoveSpace}'s, each applied by the problem's {@link MoveRules} (so only legal states
 * that keep every touched SLO are ever reached), and a state is a goal when the problem's placer
 * returns a plan on it. The bound is {@link MoveRelaxation}'s: the least number k of further moves,
 * and the least price c of further moves, after which the latency floor over everything the GPUs
 * could offer meets the SLO (each GPU's offers after at most so many removals, priced at the migration
 * price, and a layout move, at the cheaper layout price). Entries are taken in order of price + c,
 * then moves + k: both parts are consistent lower bounds, so the first goal taken has the least price,
 * then the fewest moves. A state whose k exceeds the moves left is cut with everything after it (no
 * sequence from it admits the request, under the performance model, whatever the placer); a state
 * with k &gt; 0 is no goal and is not placed; a move whose GPU could not change k in time is never
 * applied. Moves are applied lazily, one group (one replica's migrations, one GPU's re-cuts and mode
 * changes) at a time, each group queued at a lower bound of its moves' priorities (its GPU's offers
 * after the move, the others' as they are), so a decision applies few of the hundreds of thousands of
 * candidate moves of a large cluster: a cheap re-cut that cannot admit the request without a
 * migration elsewhere is queued at its price plus the migration's and waits behind a cheaper answer.
 *
 * <p>What is proven is relative to the placer: {@code OPTIMAL} when every cheaper state the bound did
 * not rule out was refused by the placer with a proof ({@code INFEASIBLE}); {@code INFEASIBLE} when
 * every reachable state within the budget was ruled out by the bound or refused with a proof. A placer
 * that gives up without a proof ({@code NO_PLAN_FOUND}, as {@code greedy} may) makes the answer
 * {@code FEASIBLE} or {@code NO_PLAN_FOUND}. With an exact placer ({@code dp}, {@code exact}) the
 * answer is exact over {@link MoveSpace}'s moves and the placer's placements (docs/moves.md).
 */
public final class ExactMover implements Mover {

  private static final double EPS = 1e-9;

  @Override
  public String name() {
    return "exact-moves";
  }

  /** A state reached by moves; {@code bound} is the relaxation's least number and price of further moves. */
  private record Node(ClusterState state, List<Move> moves, double cost, Set<String> touched, MoveRelaxation.Tally[] tallies,
      MoveRelaxation.Bound bound) {
    int level() {
      return bound.level();
    }
  }

  /**
   * A queue entry: a node, or the not yet applied moves of one group of a node — the migrations of one
   * replica (stage {@code stage} of {@code service} on {@code gpu}) or the layout moves of {@code gpu}
   * ({@code service} null) — queued at a lower bound of the priorities of the nodes they lead to.
   */
  private static final class Entry {
    final double price;
    final int moves;
    final double spent;
    long order;
    final Node node;
    final Node parent;
    final String gpu;
    final String service;
    final int stage;
    List<Move> pending;
    int next;

    Entry(double price, int moves, double spent, long order, Node node, Node parent, String gpu, String service, int stage) {
      this.price = price;
      this.moves = moves;
      this.spent = spent;
      this.order = order;
      this.node = node;
      this.parent = parent;
      this.gpu = gpu;
      this.service = service;
      this.stage = stage;
    }
  }

  @Override
  public MovesResult admit(MoveProblem p) {
    long deadline = System.nanoTime() + p.timeLimit().toNanos();
    MoveCosts costs = p.costs();
    MoveRelaxation relax = new MoveRelaxation(p.state(), p.request(), p.rules().performance(), p.rules().interference(), p.budget(), costs);
    // least priority first: price, then moves (each with the bound added), then the deeper entry, then a state before a group
    // (so a state a group just produced is tested before the group applies its next move), then first queued
    PriorityQueue<Entry> open = new PriorityQueue<>(Comparator.<Entry>comparingDouble(e -> e.price).thenComparingInt(e -> e.moves)
        .thenComparingDouble(e -> -e.spent).thenComparing(e -> e.node == null).thenComparingLong(e -> e.order));
    ExpandedStates expanded = new ExpandedStates();
    long order = 0;
    MoveRelaxation.Tally[] rootTallies = relax.tallies(p.state(), Set.of());
    Node root = new Node(p.state(), List.of(), 0, Set.of(), rootTallies, relax.bound(rootTallies, p.budget()));
    open.add(new Entry(root.bound().price(), root.level(), 0, order++, root, null, null, null, 0));
    PlacementResult firstRefusal = null;
    double cheapestUnproven = Double.POSITIVE_INFINITY;
    String unprovenReason = null;
    long explored = 0;
    long ruledOut = 0;
    while (!open.isEmpty()) {
      if (System.nanoTime() > deadline) {
        return timedOut(p, firstRefusal, explored);
      }
      Entry e = open.poll();
      if (e.node == null) {
        Node parent = e.parent;
        if (e.pending == null) {
          e.pending = e.service == null ? MoveSpace.layoutMoves(parent.state(), e.gpu)
              : List.copyOf(MoveSpace.migrations(parent.state(), p.rules(), e.service, e.stage, e.gpu));
        }
        if (e.next >= e.pending.size()) {
          continue;
        }
        Move m = e.pending.get(e.next++);
        if (e.next < e.pending.size()) {
          e.order = order++;
          open.add(e);
        }
        MoveRules.Outcome o = p.rules().attempt(parent.state(), m);
        if (o.applied()) {
          Node child = child(relax, parent, m, o.after().get(), costs, p.budget());
          if (child.level() <= p.budget() - child.moves().size()) {
            open.add(new Entry(child.cost() + child.bound().price(), child.moves().size() + child.level(), child.cost(), order++, child,
                null, null, null, 0));
          } else {
            ruledOut++;
          }
        }
        continue;
      }
      Node n = e.node;
      // a state reached before with no more moves and no more price is dominated (the price bound depends on the moves left,
      // so fewer moves alone would not do)
      if (!expanded.first(n.state(), n.moves().size(), n.cost())) {
        continue;
      }
      if (n.level() == 0 || n.moves().isEmpty()) { // the state without moves is placed for its reason
        PlacementResult r = p.placer().place(n.state(), p.request());
        explored++;
        if (r.plan().isPresent()) {
          boolean proven = cheapestUnproven >= n.cost() - EPS;
          return new MovesResult(proven ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, n.moves(), n.cost(), n.state(), Optional.of(r),
              proven ? "no cheaper sequence of at most " + p.budget() + " moves lets the request fit (" + explored + " states placed, "
                  + ruledOut + " ruled out by the latency floor)"
                  : "a cheaper sequence may exist: the placer gave up without a proof (" + unprovenReason + ")", name(), explored);
        }
        if (firstRefusal == null) {
          firstRefusal = r;
        }
        if (r.status() != SolveStatus.INFEASIBLE && n.level() == 0 && n.cost() < cheapestUnproven) {
          cheapestUnproven = n.cost();
          unprovenReason = r.status() + " after " + n.moves().size() + " moves: " + r.reason();
        }
      } else {
        ruledOut++;
      }
      if (n.moves().size() < p.budget()) {
        order = expand(p, relax, n, open, order);
      }
    }
    if (unprovenReason != null) {
      return new MovesResult(SolveStatus.NO_PLAN_FOUND, List.of(), 0, p.state(), Optional.ofNullable(firstRefusal),
          "no sequence of at most " + p.budget() + " moves found among " + explored + " placed states, but the placer gave up without "
              + "a proof on some (" + unprovenReason + "): try an exact strategy", name(), explored);
    }
    return new MovesResult(SolveStatus.INFEASIBLE, List.of(), 0, p.state(), Optional.ofNullable(firstRefusal),
        "no sequence of at most " + p.budget() + " moves lets the request fit: every reachable state was refused by the placer with a proof ("
            + explored + " placed) or ruled out by the latency floor over what at most the moves left could free (" + ruledOut
            + " states, and every move that could not lower it); without moves: " + (firstRefusal == null ? "" : firstRefusal.reason()),
        name(), explored);
  }

  private static Node child(MoveRelaxation relax, Node parent, Move m, ClusterState after, MoveCosts costs, int budget) {
    Set<String> changed = Set.copyOf(m.gpus());
    Set<String> touched = new HashSet<>(parent.touched());
    touched.addAll(changed);
    List<Move> moves = new ArrayList<>(parent.moves());
    moves.add(m);
    MoveRelaxation.Tally[] tallies = relax.tallies(parent.tallies(), parent.state(), parent.touched(), after, changed);
    return new Node(after, List.copyOf(moves), parent.cost() + costs.of(m), Set.copyOf(touched), tallies,
        relax.bound(tallies, budget - moves.size()));
  }

  /**
   * Queues the groups of {@code n}'s moves that could matter: for every GPU, its layout moves when one
   * move on it could bring the bound within the moves left, and each replica's migrations when taking
   * that replica off could; each group at its price plus the bound with its GPU's offers after it
   * (a replica taken off; a layout move spent) — every other GPU keeps its offers or, receiving a
   * replica, loses some, so no child of the group has a smaller priority.
   */
  private static long expand(MoveProblem p, MoveRelaxation relax, Node n, PriorityQueue<Entry> open, long order) {
    ClusterState s = n.state();
    int left = p.budget() - n.moves().size() - 1; // moves left after this one
    MoveCosts costs = p.costs();
    for (Gpu g : s.cluster().gpus()) {
      String id = g.id();
      boolean touched = n.touched().contains(id);
      MoveRelaxation.Offer[] current = touched ? relax.offers(s, id, null, null) : relax.rootOffers(id);
      MoveRelaxation.Bound any = relax.boundWith(n.tallies(), id, current, MoveRelaxation.afterAnyMove(current), left);
      if (any.level() > left) {
        continue; // no move on this GPU brings the request within reach
      }
      if (s.partitioning(id).mig().isPresent() && (!s.migLayout(id).isEmpty() || s.isFree(id))) {
        MoveRelaxation.Bound b = relax.boundWith(n.tallies(), id, current, MoveRelaxation.afterLayoutMove(current), left);
        if (b.level() <= left) {
          double price = n.cost() + Math.min(costs.recut(), costs.modeChange());
          open.add(new Entry(price + b.price(), n.moves().size() + 1 + b.level(), price, order++, null, n, id, null, 0));
        }
      }
      for (String service : s.servicesOn(id)) {
        Allocation a = s.allocations().get(service);
        if (a.request().isEmpty() || a.plan().isEmpty()) {
          continue;
        }
        List<Stage> stages = a.plan().get().stages();
        for (int k = 0; k < stages.size(); k++) {
          if (!stages.get(k).gpus().contains(id)) {
            continue;
          }
          Holding h = holdingOf(a, stages.get(k), id);
          MoveRelaxation.Bound b = h == null ? any : relax.boundWith(n.tallies(), id, current,
              touched ? relax.offers(s, id, service, h) : relax.rootOffersWithout(s, id, service, h), left);
          if (b.level() <= left) {
            double price = n.cost() + costs.migration();
            open.add(new Entry(price + b.price(), n.moves().size() + 1 + b.level(), price, order++, null, n, id, service, k));
          }
        }
      }
    }
    return order;
  }

  /** The holding of {@code stage}'s replica on {@code gpu} (alike holdings are interchangeable); null when none matches. */
  private static Holding holdingOf(Allocation a, Stage stage, String gpu) {
    for (Holding h : a.holdings()) {
      if (h.gpu().equals(gpu) && h.placement().equals(stage.placement())) {
        return h;
      }
    }
    return null;
  }

  private MovesResult timedOut(MoveProblem p, PlacementResult firstRefusal, long explored) {
    return new MovesResult(SolveStatus.NO_SOLUTION_IN_TIME, List.of(), 0, p.state(), Optional.ofNullable(firstRefusal),
        "the time limit of " + p.timeLimit() + " ran out after " + explored + " states; no sequence found yet", name(), explored);
  }
}
