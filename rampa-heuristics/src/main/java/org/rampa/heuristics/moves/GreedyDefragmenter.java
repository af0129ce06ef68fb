package org.rampa.heuristics.moves;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MigSlice;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.Defragmenter;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.Migration;
import org.rampa.moves.ModeChange;
import org.rampa.moves.LayoutMove;
import org.rampa.moves.Move;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSpace;
import org.rampa.strategy.SolveStatus;

/**
 * A greedy defragmenter: step by step, the step of most room gained per price ({@link ForecastRoom},
 * gain over the price of its moves), until the budget is spent or no step gains room. A step is one
 * re-cut or mode change ({@link MoveSpace#layoutMoves}), or the evacuation of one partly held GPU
 * whose every service can be re-timed: its replicas, smallest first, each to the fullest GPU that
 * the problem's {@link MoveRules} accept (as {@link GreedyMover} evacuates), then out of MIG mode if
 * it had a layout; or a single migration of one replica off a GPU that keeps other services, to the
 * fullest GPU the rules accept (under a demand for small pieces, moving a tenant off the one piece
 * that blocks a larger entry gains room where emptying the GPU would take more moves; without it,
 * most of the gap to {@code ExactDefragmenter} was single migrations).
 *
 * <p>A re-cut or mode change is scored on its GPU alone ({@link ForecastRoom#withLayout}: the room is
 * a sum over GPUs and the move changes only its own), and only the chosen step is applied: at 1000
 * GPUs applying every candidate re-cut (a ledger copy re-checked in full) was nearly all the time.
 *
 * <p>Evacuations are evaluated in order of an upper bound on their gain (the room of the GPU emptied
 * and without a layout, less its room now: a replica landing elsewhere never adds room there), and
 * evaluation stops when the bound per least price cannot beat the best step found. Every applied
 * step gained room, so the result never has less room than the start; every move went through the
 * rules, so every intermediate state is legal. It proves nothing about the best sequence.
 *
 * <p>Under rules that refuse migrations ({@link MoveRules#layoutOnly()}) only re-cuts and mode
 * changes are scored: evacuations and single migrations are not searched.
 */
public final class GreedyDefragmenter implements Defragmenter {

  private static final double EPS = 1e-9;

  @Override
  public String name() {
    return "greedy-defrag";
  }

  /** A step: its moves, the state after them (null for a layout move scored but not yet applied), its room gained and its price. */
  private record Step(List<Move> moves, ClusterState after, double gain, double price) {
    double ratio() {
      return gain / price;
    }
  }

  @Override
  public DefragResult defragment(DefragProblem p) {
    long deadline = System.nanoTime() + p.timeLimit().toNanos();
    ForecastRoom room = p.room();
    ClusterState s = p.state();
    double before = room.of(s);
    List<Move> moves = new ArrayList<>();
    double spent = 0;
    long[] explored = {0};
    String stop = "no step gains room";
    while (true) {
      if (moves.size() >= p.budget()) {
        stop = "the budget of " + p.budget() + " moves is spent";
        break;
      }
      if (System.nanoTime() > deadline) {
        stop = "the time limit of " + p.timeLimit() + " ran out";
        break;
      }
      Optional<Step> best = bestStep(p, s, p.budget() - moves.size(), explored, deadline);
      if (best.isEmpty()) {
        break;
      }
      s = best.get().after();
      moves.addAll(best.get().moves());
      spent += best.get().price();
    }
    double after = room.of(s);
    // a budget of 0 admits only the empty sequence, so it is the best; otherwise greedy proves nothing
    SolveStatus status = p.budget() == 0 ? SolveStatus.OPTIMAL : SolveStatus.FEASIBLE;
    return new DefragResult(status, moves, spent, s, before, after, moves.size() + " moves gain " + String.format("%.4f", after - before)
        + " GPU share equivalents of room for the forecast; stopped: " + stop, name(), explored[0]);
  }

  /** The step of most gain per price within {@code left} moves, if any gains room. */
  private Optional<Step> bestStep(DefragProblem p, ClusterState s, int left, long[] explored, long deadline) {
    // a re-cut or mode change changes only its GPU, so its gain is that GPU's room with the new layout less its room now:
    // scored on the GPU alone, and only the chosen one is applied (applying each copied and re-checked the whole ledger)
    Step best = null;
    scoring:
    for (Gpu g : s.cluster().gpus()) {
      List<Move> layoutMoves = MoveSpace.layoutMoves(s, g.id());
      if (layoutMoves.isEmpty()) {
        continue;
      }
      double now = p.room().onGpu(s, g.id());
      for (Move m : layoutMoves) {
        if (System.nanoTime() > deadline) {
          break scoring; // the best step so far, if any, is still a gain
        }
        explored[0]++;
        List<MigSlice> to = ((LayoutMove) m).toLayout();
        best = better(best, new Step(List.of(m), null, p.room().withLayout(s, g.id(), to) - now, p.costs().of(m)));
      }
    }
    if (!p.rules().migrates()) {
      return chosen(p, s, best);
    }
    record Candidate(String gpu, List<GreedyMover.Replica> replicas, double bound, double price) {}
    List<Candidate> candidates = new ArrayList<>();
    double emptyRoom = -1;
    for (Gpu g : s.cluster().gpus()) {
      List<String> services = s.servicesOn(g.id());
      if (services.isEmpty() || !services.stream().allMatch(id -> s.allocations().get(id).request().isPresent())) {
        continue;
      }
      List<GreedyMover.Replica> replicas = GreedyMover.replicas(s, g.id());
      boolean mig = !s.migLayout(g.id()).isEmpty();
      int count = replicas.size() + (mig ? 1 : 0);
      if (count > left) {
        continue;
      }
      double price = replicas.size() * p.costs().migration() + (mig ? p.costs().modeChange() : 0);
      double bound = p.room().emptied(s, g.id()) - p.room().onGpu(s, g.id());
      candidates.add(new Candidate(g.id(), replicas, bound, price));
    }
    candidates.sort(Comparator.comparingDouble((Candidate c) -> -c.bound() / c.price()));
    for (Candidate c : candidates) {
      if (c.bound() <= EPS || (best != null && c.bound() / c.price() <= best.ratio() + EPS) || System.nanoTime() > deadline) {
        break;
      }
      explored[0]++;
      Optional<Step> step = evacuate(p, s, c.gpu(), c.replicas());
      if (step.isPresent()) {
        best = better(best, step.get());
      }
    }
    return chosen(p, s, singleMigration(p, s, best, explored, deadline));
  }

  /** {@code best} applied to {@code s} if it gains room. */
  private static Optional<Step> chosen(DefragProblem p, ClusterState s, Step best) {
    if (best == null || best.gain() <= EPS) {
      return Optional.empty();
    }
    // MoveSpace's layout moves keep every held instance in a legal maximal layout, or change the mode of a free GPU: the rules
    // accept them, and apply re-checks that
    return Optional.of(best.after() != null ? best : new Step(best.moves(), p.rules().apply(s, best.moves().get(0)), best.gain(), best.price()));
  }

  /**
   * {@code best}, or a better step of one migration: a replica off a GPU that holds several
   * services, to the fullest GPU the rules accept (as {@link GreedyMover} lands it). GPUs are taken
   * in order of their room emptied less their room now, and a replica in order of its GPU's room
   * with its service gone less the room now: both bound what moving one replica off gains (room
   * only grows as holdings leave, and a replica landing elsewhere never adds room there), so the
   * search stops when the bound per migration price cannot beat the best step. A GPU with one
   * service is left to evacuation (moving one of its replicas is an evacuation's first move).
   */
  private static Step singleMigration(DefragProblem p, ClusterState s, Step best, long[] explored, long deadline) {
    double price = p.costs().migration();
    record Source(String gpu, double now, double bound) {}
    List<Source> sources = new ArrayList<>();
    for (Gpu g : s.cluster().gpus()) {
      if (s.servicesOn(g.id()).size() < 2) {
        continue;
      }
      double now = p.room().onGpu(s, g.id());
      sources.add(new Source(g.id(), now, p.room().emptied(s, g.id()) - now));
    }
    sources.sort(Comparator.comparingDouble((Source c) -> -c.bound()));
    record Single(GreedyMover.Replica replica, double bound) {}
    for (Source src : sources) {
      if (src.bound() <= EPS || (best != null && src.bound() / price <= best.ratio() + EPS) || System.nanoTime() > deadline) {
        break;
      }
      List<Single> singles = new ArrayList<>();
      for (GreedyMover.Replica r : GreedyMover.replicas(s, src.gpu())) {
        if (s.allocations().get(r.service()).request().isPresent()) {
          singles.add(new Single(r, p.room().onGpu(s.release(r.service()), src.gpu()) - src.now()));
        }
      }
      singles.sort(Comparator.comparingDouble((Single c) -> -c.bound()));
      for (Single c : singles) {
        if (c.bound() <= EPS || (best != null && c.bound() / price <= best.ratio() + EPS) || System.nanoTime() > deadline) {
          break;
        }
        explored[0]++;
        Optional<GreedyMover.Applied> m = GreedyMover.bestTarget(p.rules(), s, c.replica().service(), c.replica().stage(), src.gpu());
        if (m.isPresent()) {
          String to = ((Migration) m.get().move()).toGpu();
          ClusterState after = m.get().after();
          double gain = p.room().onGpu(after, src.gpu()) - src.now() + p.room().onGpu(after, to) - p.room().onGpu(s, to);
          best = better(best, new Step(List.of(m.get().move()), after, gain, p.costs().of(m.get().move())));
        }
      }
    }
    return best;
  }

  private static Step better(Step a, Step b) {
    return a == null || b.ratio() > a.ratio() + EPS ? b : a;
  }

  /** Empties {@code gpu} replica by replica into the fullest GPUs that take them, then out of MIG mode; empty if a replica finds no GPU. */
  private static Optional<Step> evacuate(DefragProblem p, ClusterState s, String gpu, List<GreedyMover.Replica> replicas) {
    ClusterState now = s;
    List<Move> moves = new ArrayList<>();
    Set<String> touched = new LinkedHashSet<>(List.of(gpu));
    for (GreedyMover.Replica r : replicas) {
      Optional<GreedyMover.Applied> m = GreedyMover.bestTarget(p.rules(), now, r.service(), r.stage(), gpu);
      if (m.isEmpty()) {
        return Optional.empty();
      }
      touched.add(((Migration) m.get().move()).toGpu());
      now = m.get().after();
      moves.add(m.get().move());
    }
    List<MigSlice> layout = now.migLayout(gpu);
    if (!layout.isEmpty()) {
      Move out = new ModeChange(gpu, layout, List.of());
      now = p.rules().apply(now, out);
      moves.add(out);
    }
    double gain = 0;
    for (String t : touched) {
      gain += p.room().onGpu(now, t) - p.room().onGpu(s, t);
    }
    double price = moves.stream().mapToDouble(p.costs()::of).sum();
    return Optional.of(new Step(moves, now, gain, price));
  }
}
