package org.rampa.heuristics.moves;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.moves.Migration;
import org.rampa.moves.ModeChange;
import org.rampa.moves.Move;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.moves.Mover;
import org.rampa.moves.MovesResult;
import org.rampa.moves.Recut;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;

/**
 * A fast mover: tries the cheap moves first and stops at the first sequence after which the
 * request fits. (1) Re-cuts of a MIG GPU's free part to a maximal layout keeping its held
 * instances that offer a larger free instance than the GPU has, one per kind of GPU and layout, at
 * most {@code maxVictims}, one at a time — unless the request does not fit even with all of them
 * applied at once (one placement). (2) Evacuation: the partly held GPUs whose replicas the budget can move
 * (counting a MIG GPU's mode change out of MIG) and where the request would fit were they empty and
 * out of MIG mode (at most {@code maxVictims} of them, fewest moves and least held first), each emptied replica by replica, smallest first, every replica to the fullest GPU that takes it ({@link MoveSpace#migrations}, applied by the
 * problem's {@link MoveRules}), the request tried after every move; an emptied MIG GPU leaves MIG
 * mode if the budget allows. It proves nothing: when it finds no sequence it says
 * {@code NO_PLAN_FOUND}, never {@code INFEASIBLE} (unless the placer proved the request infeasible
 * on the state as it is and the budget is 0).
 */
public final class GreedyMover implements Mover {

  /** GPUs tried for evacuation by default. */
  public static final int DEFAULT_MAX_VICTIMS = 8;

  private final int maxVictims;

  public GreedyMover() {
    this(DEFAULT_MAX_VICTIMS);
  }

  /** A mover that tries to evacuate at most {@code maxVictims} GPUs per request. */
  public GreedyMover(int maxVictims) {
    if (maxVictims < 1) {
      throw org.rampa.domain.Invalid.value("moves.maxVictims", maxVictims, "must be >= 1");
    }
    this.maxVictims = maxVictims;
  }

  @Override
  public String name() {
    return "greedy-moves";
  }

  @Override
  public MovesResult admit(MoveProblem p) {
    long deadline = System.nanoTime() + p.timeLimit().toNanos();
    PlacementResult now = p.placer().place(p.state(), p.request());
    long[] explored = {1};
    if (now.plan().isPresent()) {
      return found(p, List.of(), p.state(), now, "fits without moves", explored[0]);
    }
    if (p.budget() == 0) {
      return new MovesResult(now.status() == SolveStatus.INFEASIBLE ? SolveStatus.INFEASIBLE : SolveStatus.NO_PLAN_FOUND, List.of(), 0,
          p.state(), Optional.of(now), "moves budget 0: " + now.reason(), name(), explored[0]);
    }
    List<Recut> recuts = promisingRecuts(p.state());
    if (!recuts.isEmpty() && fitsAfterAll(p, recuts, explored)) {
      for (Recut m : recuts) {
        if (System.nanoTime() > deadline) {
          break;
        }
        Optional<MovesResult> r = tryMoves(p, p.state(), List.of(), m, explored);
        if (r.isPresent()) {
          return r.get();
        }
      }
    }
    int victims = 0;
    int probes = 0;
    for (String gpu : evacuationCandidates(p)) {
      if (victims == maxVictims || probes++ == 4 * maxVictims || System.nanoTime() > deadline) {
        break;
      }
      if (!fitsEmptied(p, gpu, explored)) {
        continue;
      }
      victims++;
      Optional<MovesResult> r = evacuate(p, gpu, explored, deadline);
      if (r.isPresent()) {
        return r.get();
      }
    }
    return new MovesResult(SolveStatus.NO_PLAN_FOUND, List.of(), 0, p.state(), Optional.of(now), "no sequence of at most " + p.budget()
        + " moves found by re-cuts and by evacuating " + victims + " GPUs (a heuristic: one may exist); without moves: "
        + now.reason(), name(), explored[0]);
  }

  /** Empties {@code gpu} replica by replica into the fullest GPUs that take them, trying the request after each move. */
  private Optional<MovesResult> evacuate(MoveProblem p, String gpu, long[] explored, long deadline) {
    ClusterState s = p.state();
    List<Move> moves = new ArrayList<>();
    for (Replica replica : replicas(s, gpu)) {
      if (moves.size() == p.budget() || System.nanoTime() > deadline) {
        return Optional.empty();
      }
      Optional<Move> m = bestTarget(p.rules(), s, replica.service(), replica.stage(), gpu);
      if (m.isEmpty()) {
        return Optional.empty();
      }
      Optional<MovesResult> r = tryMoves(p, s, moves, m.get(), explored);
      if (r.isPresent()) {
        return r;
      }
      s = p.rules().apply(s, m.get());
      moves.add(m.get());
    }
    List<MigSlice> layout = s.migLayout(gpu);
    if (!layout.isEmpty() && s.isFree(gpu) && moves.size() < p.budget()) {
      return tryMoves(p, s, moves, new ModeChange(gpu, layout, List.of()), explored);
    }
    return Optional.empty();
  }

  /** The migration of the replica to the fullest GPU (least free compute) that the rules accept. */
  static Optional<Move> bestTarget(MoveRules rules, ClusterState s, String service, int stage, String gpu) {
    List<Migration> candidates = new ArrayList<>(MoveSpace.migrations(s, service, stage, gpu));
    candidates.sort(Comparator.comparingDouble((Migration m) -> s.freeShare(m.toGpu())).thenComparingInt(m -> s.cluster().indexOf(m.toGpu())));
    for (Migration m : candidates) {
      if (rules.attempt(s, m).applied()) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** {@code moves} then {@code next} on {@code state}, if {@code next} applies and the request then fits. */
  private Optional<MovesResult> tryMoves(MoveProblem p, ClusterState state, List<Move> moves, Move next, long[] explored) {
    MoveRules.Outcome o = p.rules().attempt(state, next);
    if (!o.applied()) {
      return Optional.empty();
    }
    ClusterState after = o.after().get();
    PlacementResult r = p.placer().place(after, p.request());
    explored[0]++;
    if (r.plan().isEmpty()) {
      return Optional.empty();
    }
    List<Move> all = new ArrayList<>(moves);
    all.add(next);
    return Optional.of(found(p, all, after, r, "fits after " + all.size() + " moves (heuristic: fewer may do)", explored[0]));
  }

  private MovesResult found(MoveProblem p, List<Move> moves, ClusterState after, PlacementResult r, String reason, long explored) {
    double cost = moves.stream().mapToDouble(p.costs()::of).sum();
    // no moves is the least any sequence can cost; with moves the heuristic proves nothing
    return new MovesResult(moves.isEmpty() ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE, moves, cost, after, Optional.of(r), reason, name(),
        explored);
  }

  /**
   * The re-cuts worth placing the request after, at most {@code maxVictims}: those whose new layout
   * offers a free instance with more memory slices than any free instance of the GPU now (a re-cut
   * to a layout of no larger free instances rarely lets anything new fit), one per GPU type, held
   * instances and new layout (GPUs alike in these are alike to the request but for their node),
   * largest new free instance first. Each try costs a placement, which on a full 1000-GPU cluster
   * is most of a decision's time, hence the filter and the cap.
   */
  private List<Recut> promisingRecuts(ClusterState s) {
    Map<String, Recut> byClass = new LinkedHashMap<>();
    Map<Recut, Integer> gain = new HashMap<>();
    for (Move m : MoveSpace.layoutMoves(s)) {
      if (!(m instanceof Recut r)) {
        continue;
      }
      MigGeometry g = s.partitioning(r.gpu()).requireMig();
      Set<MigSlice> held = new HashSet<>();
      s.holdingsOn(r.gpu()).forEach(h -> held.add(h.placement() instanceof MigSliceMps mm ? mm.slice() : (MigSlice) h.placement()));
      int before = largestFree(g, r.fromLayout(), held);
      int after = largestFree(g, r.toLayout(), held);
      if (after <= before) {
        continue;
      }
      String key = s.cluster().gpu(r.gpu()).type() + "|" + new TreeSet<>(held.stream().map(MigSlice::label).toList()) + "|"
          + new TreeSet<>(r.toLayout().stream().map(MigSlice::label).toList());
      if (byClass.putIfAbsent(key, r) == null) {
        gain.put(r, after);
      }
    }
    List<Recut> out = new ArrayList<>(byClass.values());
    out.sort(Comparator.comparingInt((Recut r) -> -gain.get(r)));
    return out.subList(0, Math.min(out.size(), maxVictims));
  }

  /** The most memory slices of an instance of {@code layout} nobody holds (0 when none). */
  private static int largestFree(MigGeometry g, List<MigSlice> layout, Set<MigSlice> held) {
    int best = 0;
    for (MigSlice x : layout) {
      if (!held.contains(x)) {
        best = Math.max(best, g.profile(x.profile()).memorySlices());
      }
    }
    return best;
  }

  /**
   * Whether the request fits once every re-cut of {@code recuts} (each on its own GPU) is applied:
   * one placement that spares trying them one by one when none can help. A heuristic filter: on a
   * placer that does no worse with more free instances it rarely skips a re-cut that would work
   * alone, but it does not prove that.
   */
  private static boolean fitsAfterAll(MoveProblem p, List<Recut> recuts, long[] explored) {
    ClusterState all = p.state();
    for (Recut r : recuts) {
      MoveRules.Outcome o = p.rules().attempt(all, r);
      if (o.applied()) {
        all = o.after().get();
      }
    }
    explored[0]++;
    return p.placer().place(all, p.request()).plan().isPresent();
  }

  /**
   * The GPUs worth evacuating, in the order to try them: partly held GPUs whose every holding can
   * be re-timed and whose replicas the budget can move (a MIG GPU counts one more move, for leaving
   * MIG), fewest moves first, then least held compute, then cluster order. {@code admit} tries at
   * most {@code 4 × maxVictims} of them and evacuates at most {@code maxVictims}: those where the
   * request fits once they are emptied ({@link #fitsEmptied}), so that moves are spent only where
   * they can help.
   */
  private static List<String> evacuationCandidates(MoveProblem p) {
    ClusterState s = p.state();
    Map<String, Integer> moveCount = new HashMap<>();
    for (Gpu g : s.cluster().gpus()) {
      List<String> services = s.servicesOn(g.id());
      if (services.isEmpty() || !services.stream().allMatch(id -> s.allocations().get(id).request().isPresent())) {
        continue;
      }
      int n = replicas(s, g.id()).size() + (s.migLayout(g.id()).isEmpty() ? 0 : 1);
      if (n <= p.budget()) {
        moveCount.put(g.id(), n);
      }
    }
    List<String> candidates = new ArrayList<>(moveCount.keySet());
    candidates.sort(Comparator.comparingInt((String g) -> moveCount.get(g)).thenComparingDouble(g -> 1 - s.freeShare(g))
        .thenComparingInt(s.cluster()::indexOf));
    return candidates;
  }

  /** Whether the request fits once the services on {@code gpu} are gone and it is out of MIG mode (an optimistic probe: it releases their other stages too). */
  private static boolean fitsEmptied(MoveProblem p, String gpu, long[] explored) {
    ClusterState without = p.state();
    for (String id : p.state().servicesOn(gpu)) {
      without = without.release(id);
    }
    if (!without.migLayout(gpu).isEmpty()) {
      without = without.configureMig(gpu, List.of());
    }
    explored[0]++;
    return p.placer().place(without, p.request()).plan().isPresent();
  }

  record Replica(String service, int stage, double share) {}

  /** The stage replicas on {@code gpu}, smallest compute share first (then ledger order). */
  static List<Replica> replicas(ClusterState s, String gpu) {
    List<Replica> out = new ArrayList<>();
    for (String service : s.servicesOn(gpu)) {
      Plan plan = s.allocations().get(service).plan().orElseThrow();
      for (int k = 0; k < plan.stages().size(); k++) {
        Stage st = plan.stages().get(k);
        if (st.gpus().contains(gpu)) {
          out.add(new Replica(service, k, st.placement().computeFraction(s.partitioning(gpu))));
        }
      }
    }
    out.sort(Comparator.comparingDouble(Replica::share));
    return out;
  }
}
