package org.rampa.heuristics.moves;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.Stage;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.Whole;
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
import org.rampa.strategy.support.LazyOrder;

/**
 * A fast mover: tries the cheap moves first and stops at the first sequence after which the
 * request fits. (1) Re-cuts of a MIG GPU's free part to a maximal layout keeping its held
 * instances that offer a larger free instance than the GPU has, one per kind of GPU and layout, at
 * most {@code maxVictims}, one at a time — unless the request does not fit even with all of them
 * applied at once (one placement). (2) Evacuation: the partly held GPUs whose replicas the budget can move
 * (counting a MIG GPU's mode change out of MIG) and where the request would fit were they empty and
 * out of MIG mode (at most {@code maxVictims} of them, fewest moves and least held first), each emptied replica by replica, smallest first, every replica to the fullest GPU that takes it, on the smallest placement it accepts there ({@link MoveSpace#migrations}: its own placement or, under {@link MoveRules#changesPlacements()}, another of the sharing menu; applied by the
 * problem's {@link MoveRules}), the request tried after every move; an emptied MIG GPU leaves MIG
 * mode if the budget allows. (3) Partial evacuation, when (1) and (2) found nothing: one or two
 * tenants moved off a GPU that keeps others ({@link #evacuatePartly}). It proves nothing: when it finds no sequence it says
 * {@code NO_PLAN_FOUND}, never {@code INFEASIBLE} (unless the placer proved the request infeasible
 * on the state as it is and the budget is 0).
 */
public final class GreedyMover implements Mover {

  /** GPUs tried for evacuation by default. */
  public static final int DEFAULT_MAX_VICTIMS = 8;

  private final int maxVictims;

  /**
   * What {@link #admit} last read off a state regardless of the request: its promising re-cuts and
   * (once asked for) its evacuation candidates for a budget. A state is an immutable value, so for
   * the very same state object and budget both are what {@link #promisingRecuts} and
   * {@link #evacuationCandidates} would compute again (the memo's test checks decisions with it warm
   * against a mover without it); on a full 1000-GPU cluster the two scans of every GPU were a fifth of
   * a decision, and a scheduler asks about one state again whenever requests arrive before the ledger
   * changes (every refused one, every answer not yet committed). One state kept at a time.
   */
  private final AtomicReference<StateReads> last = new AtomicReference<>();

  /** The request-independent reads of one state for one budget; the evacuation candidates found on first use. */
  private static final class StateReads {
    final ClusterState state;
    final int budget;
    final List<Recut> recuts;
    private volatile List<String> evacuation;
    private volatile TargetOrder targetOrder;

    StateReads(ClusterState state, int budget, List<Recut> recuts) {
      this.state = state;
      this.budget = budget;
      this.recuts = recuts;
    }

    /** Two threads finding them at once find equal lists: the race is benign. */
    List<String> evacuation() {
      List<String> e = evacuation;
      if (e == null) {
        e = evacuationCandidates(state, budget);
        evacuation = e;
      }
      return e;
    }

    /** {@link #targetOrder} of the state, found on first use; a race finds equal arrays. */
    TargetOrder targetOrder() {
      TargetOrder o = targetOrder;
      if (o == null) {
        o = GreedyMover.targetOrder(state);
        targetOrder = o;
      }
      return o;
    }
  }

  /** The reads of {@code p}'s state for its budget: the last ones when the state is the same object, else found anew and kept. */
  private StateReads reads(MoveProblem p) {
    StateReads r = last.get();
    if (r == null || r.state != p.state() || r.budget != p.budget()) {
      r = new StateReads(p.state(), p.budget(), promisingRecuts(p.state()));
      last.set(r);
    }
    return r;
  }

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
    Probes explored = new Probes();
    if (now.plan().isPresent()) {
      return found(p, List.of(), p.state(), now, "fits without moves", explored.placed);
    }
    if (p.budget() == 0) {
      return new MovesResult(now.status() == SolveStatus.INFEASIBLE ? SolveStatus.INFEASIBLE : SolveStatus.NO_PLAN_FOUND, List.of(), 0,
          p.state(), Optional.of(now), "moves budget 0: " + now.reason(), name(), explored.placed);
    }
    StateReads reads = reads(p);
    List<Recut> recuts = reads.recuts;
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
    for (String gpu : reads.evacuation()) {
      if (victims == maxVictims || probes++ == 4 * maxVictims || System.nanoTime() > deadline) {
        break;
      }
      if (!fitsEmptied(p, gpu, explored)) {
        continue;
      }
      victims++;
      Optional<MovesResult> r = evacuate(p, reads, gpu, explored, deadline);
      if (r.isPresent()) {
        return r.get();
      }
    }
    Optional<MovesResult> partly = evacuatePartly(p, explored, deadline);
    if (partly.isPresent()) {
      return partly.get();
    }
    return new MovesResult(SolveStatus.NO_PLAN_FOUND, List.of(), 0, p.state(), Optional.of(now), "no sequence of at most " + p.budget()
        + " moves found by re-cuts, by evacuating " + victims + " GPUs and by moving tenants off crowded ones (a heuristic: one may exist); without moves: "
        + now.reason(), name(), explored.placed);
  }

  /** Empties {@code gpu} replica by replica into the fullest GPUs that take them, trying the request after each move. */
  private Optional<MovesResult> evacuate(MoveProblem p, StateReads reads, String gpu, Probes explored, long deadline) {
    ClusterState s = p.state();
    List<Move> moves = new ArrayList<>();
    for (Replica replica : replicas(s, gpu)) {
      if (moves.size() == p.budget() || System.nanoTime() > deadline) {
        return Optional.empty();
      }
      // the first replica leaves the problem's state, whose target order is the same for every replica and request
      Optional<Applied> m = s == reads.state
          ? bestTarget(p.rules(), s, replica.service(), replica.stage(), gpu, reads.targetOrder())
          : bestTarget(p.rules(), s, replica.service(), replica.stage(), gpu);
      if (m.isEmpty()) {
        return Optional.empty();
      }
      moves.add(m.get().move());
      s = m.get().after();
      Optional<MovesResult> r = fits(p, s, moves, explored);
      if (r.isPresent()) {
        return r;
      }
    }
    List<MigSlice> layout = s.migLayout(gpu);
    if (!layout.isEmpty() && s.isFree(gpu) && moves.size() < p.budget()) {
      return tryMoves(p, s, moves, new ModeChange(gpu, layout, List.of()), explored);
    }
    return Optional.empty();
  }

  /**
   * Partial evacuation ({@link PartialEvacuation}): moves one or two tenants off a crowded GPU, and
   * on a MIG GPU re-cuts its free part after, so that the newcomer fits there. Per GPU type and kind
   * the least room at which the newcomer fits is found by probes on the GPU's neighbourhood with the
   * tenants released (the largest room first: if the newcomer does not fit there, no opening of that
   * kind is tried; then a bisection over the rooms, at most {@code 4 × maxVictims} probes in all).
   * The openings reaching it are tried cheapest first, then with the least room beyond it (the
   * tenants that free about what the newcomer needs), then moving the least compute, then in cluster
   * order: each replica to the fullest GPU the rules accept, the re-cut, then the request placed.
   * Openings whose first replica has nowhere to go are skipped (found once per replica; the rules are asked about the
   * targets of at most {@code 4 × maxVictims} replicas); at most {@code maxVictims} openings are placed; among those that
   * admit the newcomer at the least price (at most {@link #COMPARED} of them) the one whose plan has
   * the least importance cost wins.
   */
  private Optional<MovesResult> evacuatePartly(MoveProblem p, Probes explored, long deadline) {
    List<PartialEvacuation.Opening> openings = PartialEvacuation.openings(p.state(), p.budget(), p.costs());
    Map<String, Double> least = new HashMap<>();
    int[] probes = {0};
    for (Map.Entry<String, List<PartialEvacuation.Opening>> e : PartialEvacuation.representatives(openings).entrySet()) {
      List<PartialEvacuation.Opening> rooms = e.getValue();
      int hi = rooms.size() - 1;
      if (probes[0] == 4 * maxVictims || System.nanoTime() > deadline || !fitsOpened(p, rooms.get(hi), explored, probes)) {
        continue;
      }
      int lo = 0;
      while (lo < hi && probes[0] < 4 * maxVictims && System.nanoTime() <= deadline) {
        int mid = (lo + hi) >>> 1;
        if (fitsOpened(p, rooms.get(mid), explored, probes)) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      least.put(e.getKey(), rooms.get(hi).room());
    }
    List<PartialEvacuation.Opening> eligible = new ArrayList<>();
    for (PartialEvacuation.Opening o : openings) {
      Double need = least.get(o.key());
      if (need != null && o.room() >= need - 1e-6) {
        eligible.add(o);
      }
    }
    // excess room relative to the least: rooms of different keys are in different units
    eligible.sort(Comparator.comparingDouble(PartialEvacuation.Opening::price)
        .thenComparingDouble(o -> o.room() / least.get(o.key()) - 1)
        .thenComparingDouble(PartialEvacuation.Opening::movedShare)
        .thenComparingInt(PartialEvacuation.Opening::position));
    // where each replica would go from the state as it is: one replica is in many openings, and on a
    // crowded cluster most have nowhere to go (every instance of their MIG profile held), which the
    // memo finds once per replica instead of once per opening
    Map<List<Object>, Optional<Applied>> firstMoves = new HashMap<>(); // by replica and the GPU it leaves
    int[] relocating = {0}; // replicas whose targets the rules were asked about
    MovesResult best = null;
    int tried = 0;
    int admitted = 0;
    for (PartialEvacuation.Opening o : eligible) {
      if (tried == maxVictims || admitted == COMPARED || relocating[0] > 4 * maxVictims || System.nanoTime() > deadline
          || (best != null && o.price() > best.moveCost() + 1e-9)) {
        break;
      }
      Replica first = o.moved().get(0);
      Optional<Applied> away = firstMoves.computeIfAbsent(List.of(first, o.gpu()), k -> {
        List<Migration> targets = MoveSpace.migrations(p.state(), p.rules(), first.service(), first.stage(), o.gpu());
        if (targets.isEmpty()) {
          return Optional.empty(); // no candidate target at all: cheap to tell, not counted
        }
        relocating[0]++;
        return bestTarget(p.rules(), p.state(), targets);
      });
      if (away.isEmpty()) {
        continue; // not counted as a try: no placement was spent on it
      }
      tried++;
      Optional<MovesResult> r = open(p, o, away.get(), explored);
      if (r.isPresent()) {
        admitted++;
        if (best == null || r.get().plan().orElseThrow().cost() < best.plan().orElseThrow().cost() - 1e-12) {
          best = r.get();
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** Admissions compared by importance cost at the least price found by partial evacuation: each costs a placement on the full state. */
  static final int COMPARED = 3;

  /** Whether the request fits on the neighbourhood of the opening's GPU with its tenants gone (and the GPU re-cut): an optimistic probe, as {@link #fitsEmptied}. */
  private static boolean fitsOpened(MoveProblem p, PartialEvacuation.Opening o, Probes explored, int[] probes) {
    probes[0]++;
    return explored.place(p, p.state(), List.of(o.gpu()), near -> {
      ClusterState without = near;
      for (String id : o.services()) {
        without = without.release(id);
      }
      if (o.recutTo().isEmpty()) {
        return without;
      }
      MoveRules.Outcome cut = p.rules().attempt(without, new Recut(o.gpu(), without.migLayout(o.gpu()), o.recutTo()));
      return cut.applied() ? cut.after().get() : without;
    }).result().plan().isPresent();
  }

  /**
   * The opening's moves applied one by one, its first replica's already ({@code first}); each other
   * replica to the fullest GPU the rules accept, then the re-cut; the request placed after them.
   */
  private Optional<MovesResult> open(MoveProblem p, PartialEvacuation.Opening o, Applied first, Probes explored) {
    ClusterState s = first.after();
    List<Move> moves = new ArrayList<>(List.of(first.move()));
    for (Replica r : o.moved().subList(1, o.moved().size())) {
      Optional<Applied> m = bestTarget(p.rules(), s, r.service(), r.stage(), o.gpu());
      if (m.isEmpty()) {
        return Optional.empty();
      }
      moves.add(m.get().move());
      s = m.get().after();
    }
    if (o.recutTo().isEmpty()) {
      return fits(p, s, moves, explored);
    }
    return tryMoves(p, s, moves, new Recut(o.gpu(), s.migLayout(o.gpu()), o.recutTo()), explored);
  }

  /** A move the rules accepted and the state after it. */
  record Applied(Move move, ClusterState after) {}

  /**
   * The migration of the replica to the fullest GPU (least free compute) that the rules accept, on it
   * the smallest placement they accept (least compute part; the replica's own placement first among
   * equals), applied. Smallest first because a larger share of the same GPU leaves less room for the
   * newcomer the move is made for; that the smallest share also keeps the moved service's SLO is
   * the rules' to say, so larger ones are tried after it.
   */
  static Optional<Applied> bestTarget(MoveRules rules, ClusterState s, String service, int stage, String gpu) {
    MoveSpace.ReplicaTargets targets = new MoveSpace.ReplicaTargets(s, rules, service, stage, gpu);
    List<Gpu> gpus = s.cluster().gpus();
    int[] some = new int[gpus.size()];
    int n = 0;
    for (int i = 0; i < some.length; i++) {
      if (!offersNoTarget(s, gpus.get(i).id())) {
        some[n++] = i;
      }
    }
    // the candidates of a GPU built only when the walk reaches it: the walk stops at the first GPU
    // that takes the replica, and building the candidates of every GPU was most of this method
    return bestTarget(rules, s, Arrays.copyOf(some, n), targets);
  }

  /**
   * As {@link #bestTarget(MoveRules, ClusterState, String, int, String)} given {@code order}, the
   * state's {@link #targetOrder}: the GPUs are walked in it instead of from a heap; the same order,
   * so the same answer ({@code GreedyMoverBookkeepingTest} checks both against the definition).
   */
  static Optional<Applied> bestTarget(MoveRules rules, ClusterState s, String service, int stage, String gpu, TargetOrder order) {
    MoveSpace.ReplicaTargets targets = new MoveSpace.ReplicaTargets(s, rules, service, stage, gpu);
    int[] positions = order.positions();
    int[] k = {0};
    return walk(rules, s, () -> k[0] < positions.length ? positions[k[0]++] : -1, order.free(), targets, null);
  }

  /** A state's GPU positions in the walk's order and every GPU's free share by position (0 for those left out). */
  record TargetOrder(int[] positions, double[] free) {}

  /**
   * Whether no replica could move to {@code gpu} on {@code s}, by a cheap exact test: the GPU has no
   * MIG layout and is held whole. The move space's candidates on a GPU without a layout that
   * somebody holds are the placements of the holders' class whose compute part is at most the free
   * share plus the MPS overcommit ({@link MoveSpace#fitsFreeShare}); a whole holding makes that class
   * {@code Whole} (compute part 1) and the free share 0, so nothing fits below an overcommit of 1.
   * {@code GreedyMoverBookkeepingTest} checks that such GPUs get no candidate.
   */
  static boolean offersNoTarget(ClusterState s, String gpu) {
    if (MoveSpace.fitsFreeShare(s, 1, 0) || !s.migLayout(gpu).isEmpty()) {
      return false;
    }
    List<Holding> on = s.holdingsOn(gpu);
    return !on.isEmpty() && on.get(0).placement() instanceof Whole;
  }

  /**
   * The positions of {@code s}'s GPUs in the order the target walk takes them, (free share,
   * position), without those that {@link #offersNoTarget offer no replica a target}: the same for every replica
   * and request on one state, so a state's order is found once ({@link StateReads}) instead of every
   * GPU's free share and a heap per replica.
   */
  static TargetOrder targetOrder(ClusterState s) {
    List<Gpu> gpus = s.cluster().gpus();
    int[] some = new int[gpus.size()];
    double[] free = new double[gpus.size()];
    int n = 0;
    for (int i = 0; i < some.length; i++) {
      String id = gpus.get(i).id();
      if (!offersNoTarget(s, id)) {
        free[i] = s.freeShare(id);
        some[n++] = i;
      }
    }
    return new TargetOrder(Arrays.stream(some, 0, n).boxed()
        .sorted(Comparator.<Integer>comparingDouble(i -> free[i]).thenComparingInt(i -> i))
        .mapToInt(Integer::intValue).toArray(), free);
  }

  /** As {@link #bestTarget(MoveRules, ClusterState, String, int, String)} among {@code migrations}, the replica's candidates on {@code s}. */
  private static Optional<Applied> bestTarget(MoveRules rules, ClusterState s, List<Migration> migrations) {
    // MoveSpace lists them GPU by GPU: grouped by the target's position, each group in its order
    Map<Integer, List<Migration>> byGpu = new LinkedHashMap<>();
    for (Migration m : migrations) {
      byGpu.computeIfAbsent(s.cluster().indexOf(m.toGpu()), k -> new ArrayList<>()).add(m);
    }
    int[] positions = byGpu.keySet().stream().mapToInt(Integer::intValue).toArray();
    double[] free = freeShares(s, positions);
    return walk(rules, s, heap(positions, free), free, null, byGpu::get);
  }

  /**
   * The first migration the rules accept, in the order of the definition above: all candidates
   * sorted by the free share of their target GPU, then its position, then their compute part,
   * stably (among equal keys the order of MoveSpace, which lists the replica's own placement
   * first). The first two keys are the target GPU's alone and the position tells GPUs apart, so that
   * order is the GPUs' in (free share, position) order, each GPU's candidates stably by compute part:
   * the GPUs at {@code positions} are taken in that order from a heap and their candidates
   * ({@code to}) are built and tried one GPU at a time, until one is accepted. Equal to sorting the
   * whole list first ({@code GreedyMoverBookkeepingTest} checks it against that definition).
   */
  private static Optional<Applied> bestTarget(MoveRules rules, ClusterState s, int[] positions, MoveSpace.ReplicaTargets targets) {
    double[] free = freeShares(s, positions);
    return walk(rules, s, heap(positions, free), free, targets, null);
  }

  /** The free share of the GPUs at {@code positions}, by position (0 elsewhere). */
  private static double[] freeShares(ClusterState s, int[] positions) {
    List<Gpu> gpus = s.cluster().gpus();
    double[] free = new double[gpus.size()];
    for (int i : positions) {
      free[i] = s.freeShare(gpus.get(i).id());
    }
    return free;
  }

  /** The {@code positions} in (free share, position) order, taken lazily from a heap; -1 at the end. */
  private static IntSupplier heap(int[] positions, double[] free) {
    LazyOrder order = new LazyOrder(positions.length, (a, b) -> {
      int c = Double.compare(free[positions[a]], free[positions[b]]);
      return c != 0 ? c : Integer.compare(positions[a], positions[b]);
    });
    return () -> {
      int next = order.next();
      return next < 0 ? -1 : positions[next];
    };
  }

  /**
   * The first migration the rules accept among the GPUs {@code next} gives (positions, -1 at the
   * end), each GPU's candidates stably by compute part: the replica's {@code targets}, built only
   * for a GPU that {@link MoveSpace.ReplicaTargets#offersNothing may offer one} given its
   * {@code free} share (on a full cluster the walk passes hundreds of GPUs too full for any), or,
   * without targets, the candidates {@code listed}.
   */
  private static Optional<Applied> walk(MoveRules rules, ClusterState s, IntSupplier next, double[] free, MoveSpace.ReplicaTargets targets,
      IntFunction<List<Migration>> listed) {
    List<Gpu> gpus = s.cluster().gpus();
    for (int i = next.getAsInt(); i >= 0; i = next.getAsInt()) {
      Gpu g = gpus.get(i);
      if (targets != null && targets.offersNothing(g, free[i])) {
        continue;
      }
      List<Migration> candidates = targets != null ? targets.to(g) : listed.apply(i);
      if (candidates.isEmpty()) {
        continue;
      }
      record Target(Migration move, double compute) {}
      GpuPartitioning parts = s.partitioning(gpus.get(i).id());
      List<Target> sorted = new ArrayList<>(candidates.size());
      for (Migration m : candidates) {
        sorted.add(new Target(m, m.placement().computeFraction(parts)));
      }
      sorted.sort(Comparator.comparingDouble(Target::compute)); // stable: MoveSpace's order among equals
      for (Target t : sorted) {
        Migration m = t.move();
        MoveRules.Outcome o = rules.attempt(s, m);
        if (o.applied()) {
          return Optional.of(new Applied(m, o.after().get()));
        }
      }
    }
    return Optional.empty();
  }

  /** {@code moves} then {@code next} on {@code state}, if {@code next} applies and the request then fits. */
  private Optional<MovesResult> tryMoves(MoveProblem p, ClusterState state, List<Move> moves, Move next, Probes explored) {
    MoveRules.Outcome o = p.rules().attempt(state, next);
    if (!o.applied()) {
      return Optional.empty();
    }
    List<Move> all = new ArrayList<>(moves);
    all.add(next);
    return fits(p, o.after().get(), all, explored);
  }

  /**
   * The result when the request fits on {@code after}, the state after {@code moves} on the problem's
   * state. The request was refused on that state, and only the GPUs the moves touched differ, so
   * it is first placed on the {@link Neighbourhood} of those GPUs; only when that finds a plan is it
   * placed on the full state, whose plan (through the placer's verified strategy) is the answer.
   * Exact for a request whose plan would use only touched GPUs, GPUs their services also hold and
   * free GPUs; a heuristic filter for one that would need an untouched partly held GPU with a touched one.
   */
  private Optional<MovesResult> fits(MoveProblem p, ClusterState after, List<Move> moves, Probes explored) {
    Set<String> touched = new HashSet<>();
    moves.forEach(m -> touched.addAll(m.gpus()));
    Probes.Near near = explored.place(p, after, touched, UnaryOperator.identity());
    PlacementResult r = near.result();
    if (r.plan().isPresent() && near.part()) {
      r = p.placer().place(after, p.request());
      explored.placed++;
    }
    if (r.plan().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(found(p, List.copyOf(moves), after, r, "fits after " + moves.size() + " moves (heuristic: fewer may do)", explored.placed));
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
  List<Recut> promisingRecuts(ClusterState s) {
    record Chosen(Recut recut, int gain) {}
    Map<RecutClass, Chosen> byClass = new LinkedHashMap<>();
    // the global memo's part for each type, looked up once per type (a geometry's hash walks its profiles)
    Map<String, Map<List<List<MigSlice>>, List<Promising>>> byType = new HashMap<>();
    // the re-cuts of MoveSpace#layoutMoves, GPU by GPU in cluster order
    for (Gpu gpu : s.cluster().gpus()) {
      List<MigSlice> layout = s.migLayout(gpu.id());
      if (layout.isEmpty()) {
        continue;
      }
      List<Holding> on = s.holdingsOn(gpu.id());
      List<MigSlice> held = new ArrayList<>(on.size());
      on.forEach(h -> held.add(MigLayout.instanceOf(h.placement())));
      MigGeometry g = s.partitioning(gpu.id()).requireMig();
      Map<List<List<MigSlice>>, List<Promising>> memo = byType.computeIfAbsent(gpu.type(), t -> PROMISING.computeIfAbsent(List.of(t, g),
          k -> new ConcurrentHashMap<>()));
      for (Promising e : memo.computeIfAbsent(List.of(List.copyOf(held), List.copyOf(layout)), k -> promising(gpu.type(), g, held, layout))) {
        if (!byClass.containsKey(e.key())) {
          byClass.put(e.key(), new Chosen(new Recut(gpu.id(), layout, e.layout()), e.gain()));
        }
      }
    }
    List<Chosen> out = new ArrayList<>(byClass.values());
    out.sort(Comparator.comparingInt((Chosen c) -> -c.gain()));
    return out.subList(0, Math.min(out.size(), maxVictims)).stream().map(Chosen::recut).toList();
  }

  /** A promising layout of a GPU class: the layout, its largest free instance, and its class for {@link #promisingRecuts}' one-per-class rule. */
  private record Promising(List<MigSlice> layout, int gain, RecutClass key) {}

  /**
   * GPU type, held instances and new layout (as sets): GPUs alike in these are alike to the request
   * but for their node. The hash is computed once: the key is looked up once per MIG GPU and decision.
   */
  private record RecutClass(String type, Set<MigSlice> held, Set<MigSlice> layout, int hash) {
    RecutClass(String type, Set<MigSlice> held, Set<MigSlice> layout) {
      this(type, held, layout, java.util.Objects.hash(type, held, layout));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RecutClass k && hash == k.hash && type.equals(k.type) && held.equals(k.held) && layout.equals(k.layout);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * The promising layouts of a GPU of {@code type} ({@code g}) holding {@code held} in {@code layout}:
   * the maximal layouts keeping {@code held} whose largest free instance is larger than the layout's
   * now, in {@link MoveSpace#maximalLayouts} order.
   */
  private static List<Promising> promising(String type, MigGeometry g, List<MigSlice> held, List<MigSlice> layout) {
    Set<MigSlice> heldSet = Set.copyOf(held);
    Set<MigSlice> current = Set.copyOf(layout);
    int before = largestFree(g, layout, heldSet);
    List<Promising> out = new ArrayList<>();
    for (List<MigSlice> to : MoveSpace.maximalLayouts(g, held)) {
      int after = largestFree(g, to, heldSet);
      Set<MigSlice> toSet = Set.copyOf(to);
      if (after > before && !toSet.equals(current)) {
        out.add(new Promising(to, after, new RecutClass(type, heldSet, toSet)));
      }
    }
    return List.copyOf(out);
  }

  /**
   * {@link #promising} by type and geometry, then held instances and layout (as lists, as given),
   * kept across decisions: a cluster has few distinct ones, and finding them anew for every MIG GPU
   * of every decision was most of {@link #promisingRecuts} on a 1000-GPU cluster. Bounded by the
   * legal layouts of the cluster's MIG types.
   */
  private static final Map<List<Object>, Map<List<List<MigSlice>>, List<Promising>>> PROMISING = new ConcurrentHashMap<>();

  /** The most memory slices of an instance of {@code layout} nobody holds (0 when none). */
  static int largestFree(MigGeometry g, List<MigSlice> layout, Set<MigSlice> held) {
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
  private static boolean fitsAfterAll(MoveProblem p, List<Recut> recuts, Probes explored) {
    // placed on the recut GPUs' neighbourhood: the request was refused on the rest as it stands
    return explored.place(p, p.state(), recuts.stream().map(Recut::gpu).toList(), near -> {
      ClusterState all = near;
      for (Recut r : recuts) {
        MoveRules.Outcome o = p.rules().attempt(all, r);
        if (o.applied()) {
          all = o.after().get();
        }
      }
      return all;
    }).result().plan().isPresent();
  }

  /**
   * The GPUs worth evacuating, in the order to try them: partly held GPUs whose every holding can
   * be re-timed and whose replicas the budget can move (a MIG GPU counts one more move, for leaving
   * MIG), fewest moves first, then least held compute, then cluster order. {@code admit} tries at
   * most {@code 4 × maxVictims} of them and evacuates at most {@code maxVictims}: those where the
   * request fits once they are emptied ({@link #fitsEmptied}), so that moves are spent only where
   * they can help.
   */
  private static List<String> evacuationCandidates(ClusterState s, int budget) {
    record Candidate(String gpu, int moves, double held, int position) {}
    List<Candidate> candidates = new ArrayList<>();
    List<Gpu> gpus = s.cluster().gpus();
    for (int i = 0; i < gpus.size(); i++) {
      String g = gpus.get(i).id();
      List<Holding> on = s.holdingsOn(g);
      // every holding is at least one replica to move: most GPUs of a full cluster hold more than the budget
      if (on.isEmpty() || on.size() > budget) {
        continue;
      }
      int replicas = movableReplicas(s, g);
      int n = replicas + (s.migLayout(g).isEmpty() ? 0 : 1);
      if (replicas >= 0 && n <= budget) {
        candidates.add(new Candidate(g, n, 1 - s.freeShare(g), i));
      }
    }
    // the sort keys computed once: each comparison re-summing a GPU's holdings was most of this method
    candidates.sort(Comparator.comparingInt(Candidate::moves).thenComparingDouble(Candidate::held).thenComparingInt(Candidate::position));
    return candidates.stream().map(Candidate::gpu).toList();
  }

  /**
   * How many stage replicas {@code gpu} holds (as {@link #replicas} lists them), or -1 when a
   * service on it was admitted without its request (it cannot be re-timed, so
   * the GPU cannot be emptied). One pass without the shares and the sort of {@link #replicas}: it
   * runs on every GPU of a full cluster that holds at most the budget.
   */
  static int movableReplicas(ClusterState s, String gpu) {
    int n = 0;
    for (String id : s.servicesOn(gpu)) {
      Optional<Plan> plan = s.allocations().get(id).plan(); // present exactly when the request is
      if (plan.isEmpty()) {
        return -1;
      }
      for (Stage st : plan.get().stages()) {
        n += st.gpus().contains(gpu) ? 1 : 0;
      }
    }
    return n;
  }

  /** Whether the request fits once the services on {@code gpu} are gone and it is out of MIG mode (an optimistic probe: it releases their other stages too). */
  private static boolean fitsEmptied(MoveProblem p, String gpu, Probes explored) {
    // placed on the GPU's neighbourhood: the request was refused on the rest as it stands
    return explored.place(p, p.state(), List.of(gpu), near -> {
      ClusterState without = near;
      for (String id : p.state().servicesOn(gpu)) {
        without = without.release(id);
      }
      return without.migLayout(gpu).isEmpty() ? without : without.configureMig(gpu, List.of());
    }).result().plan().isPresent();
  }

  record Replica(String service, int stage, double share) {}

  /**
   * The placements of one decision: how many, and whether the placer still takes a part of its
   * cluster ({@link Neighbourhood}); one that refuses a part as bad input (static importance weights
   * naming GPUs outside it, say) is asked about full states from then on.
   */
  private static final class Probes {
    long placed = 1;
    private boolean parts = true;

    /** A placement, and whether it was on a part of the state. */
    record Near(PlacementResult result, boolean part) {}

    /** The request placed on {@code change} of the neighbourhood of {@code gpus} in {@code base} (of {@code base} itself, see above). */
    Near place(MoveProblem p, ClusterState base, Collection<String> gpus, UnaryOperator<ClusterState> change) {
      placed++;
      if (parts) {
        ClusterState near = Neighbourhood.around(base, gpus);
        try {
          return new Near(p.placer().place(change.apply(near), p.request()), near != base);
        } catch (IllegalArgumentException e) {
          if (near == base) {
            throw e;
          }
          parts = false;
        }
      }
      return new Near(p.placer().place(change.apply(base), p.request()), false);
    }
  }

  /** The stage replicas on {@code gpu} of services with a plan, smallest compute share first (then ledger order). */
  static List<Replica> replicas(ClusterState s, String gpu) {
    List<Replica> out = new ArrayList<>();
    GpuPartitioning parts = s.partitioning(gpu);
    for (String service : s.servicesOn(gpu)) {
      Optional<Plan> planned = s.allocations().get(service).plan();
      if (planned.isEmpty()) {
        continue; // committed without a plan: it cannot be moved, so it is no replica to move
      }
      Plan plan = planned.get();
      for (int k = 0; k < plan.stages().size(); k++) {
        Stage st = plan.stages().get(k);
        if (st.gpus().contains(gpu)) {
          out.add(new Replica(service, k, st.placement().computeFraction(parts)));
        }
      }
    }
    out.sort(Comparator.comparingDouble(Replica::share));
    return out;
  }
}
