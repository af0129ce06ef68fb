package org.rampa.examples.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.ClusterStateHolder.CommitResult;
import org.rampa.domain.ClusterStateHolder.Outcome;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Invalid;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.importance.ServiceClass;
import org.rampa.heuristics.moves.GreedyDefragmenter;
import org.rampa.heuristics.moves.GreedyMover;
import org.rampa.moves.DefragProblem;
import org.rampa.moves.DefragResult;
import org.rampa.moves.ForecastRoom;
import org.rampa.moves.Move;
import org.rampa.moves.MoveCosts;
import org.rampa.moves.MoveProblem;
import org.rampa.moves.MoveRules;
import org.rampa.moves.MoveSequence;
import org.rampa.moves.MovesResult;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanRejectedException;

/**
 * A discrete-event simulation of online admission: services arrive, the scheduler plans each one
 * through {@link org.rampa.Rampa} against the current state and commits the plan through a
 * {@link ClusterStateHolder}, as a real scheduler would; admitted services hold their GPUs for
 * their lifetime, then leave. Deterministic for a given trace (the scheduler's own randomness
 * aside, which is seeded), so two schedulers compared on one trace see exactly the same arrivals.
 *
 * <p>Every plan {@code Rampa.place} returns has passed the plan verifier against the state it was
 * made on, and the commit re-checks that it fits: zero SLO violations is a measured result. A plan
 * the verifier rejects (a strategy bug) or the commit refuses is counted as a violation and not
 * admitted. A plan holding shares is admitted through the interference guard
 * ({@link ClusterStateHolder#admit}), which keeps its request so that later admissions re-time it
 * with its new co-runners; a plan of whole GPUs shares them with nobody and is committed. After
 * every commit of a scheduler that shares GPUs (of every scheduler, in experiment E4) the simulator
 * verifies the admission again on its own ({@link AdmissionAudit}): the newcomer, and every
 * incumbent sharing a GPU with it, under the scheduler's own models (planning margins included).
 *
 * <p>A scheduler with a defragmentation budget ({@link Scheduler#defragBudget()}) has the cluster
 * defragmented in quiet periods: when services departed before an arrival (and, with
 * {@link DefragTrigger#REFUSAL}, an arrival was refused since the last defragmentation; with
 * {@link DefragTrigger#HYBRID}, every quiet period, but re-cuts and mode changes only unless an arrival
 * was refused since the last defragmentation), the greedy
 * defragmenter's moves for the workload's forecast demand ({@link ForecastDemand}, its room as
 * {@link Scheduler#defragPolicy()} says) are committed one at a time through the ledger, each step
 * audited like moves made for an admission, and counted with them.
 */
public final class Simulator {

  private final Cluster cluster;
  private final WorkloadForecast workload;
  private final Optional<StrandedCapacity> stranded;
  private final Optional<RefusalBreakdown> refusals;
  private final MigStart migStart;
  private final AdmissionAudit audit = new AdmissionAudit();
  /** The forecast demand's room measures (without and with pipelines), each built on the first run that defragments with it (runs share the simulator across threads). */
  private final Map<Boolean, ForecastRoom> forecastRooms = new HashMap<>();

  public Simulator(Cluster cluster, WorkloadForecast workload) {
    this(cluster, workload, Optional.empty());
  }

  /** As {@link #Simulator(Cluster, WorkloadForecast, Optional, MigStart)}, every GPU starting unconfigured. */
  public Simulator(Cluster cluster, WorkloadForecast workload, Optional<StrandedCapacity> stranded) {
    this(cluster, workload, stranded, MigStart.NONE);
  }

  /**
   * A simulator that measures what sharing does (experiment E4): it also samples, at every arrival,
   * the free capacity no class could use ({@code stranded}), and audits every admission, whole GPUs
   * included, and breaks every refusal down ({@link RefusalBreakdown}). Without it, only the
   * admissions of schedulers that share GPUs are audited, so the whole-GPU experiment costs what it
   * always did. Every run starts from {@code migStart}'s MIG layouts ({@link #start()}).
   */
  public Simulator(Cluster cluster, WorkloadForecast workload, Optional<StrandedCapacity> stranded, MigStart migStart) {
    this.cluster = cluster;
    this.workload = workload;
    this.stranded = stranded;
    this.refusals = stranded.map(RefusalBreakdown::new);
    this.migStart = Invalid.requireNonNull("migStart", migStart);
    start(); // a layout another cluster's GPUs carry fails here, not in the first run
  }

  /** The state every run starts from: nothing held, {@code migStart}'s layouts configured. */
  public ClusterState start() {
    return migStart.apply(ClusterState.empty(cluster));
  }

  /** True when a stage of {@code plan} holds part of a GPU (a strategy planned with sharing on). */
  private static boolean holdsShares(Plan plan) {
    return plan.stages().stream().anyMatch(s -> !(s.placement() instanceof Whole));
  }

  /**
   * Commits a plan on shared GPUs through the admission guard, with the planner's performance and
   * interference models, keeping its request so that later admissions re-time it as a co-runner.
   */
  private static CommitResult admit(ClusterStateHolder holder, Scheduler scheduler, ClusterState state, ServiceRequest request, Plan plan) {
    PlacementProblem problem = scheduler.placer().state(state).problem(request);
    return holder.admit(request, plan, state.version(), new InterferenceGuard(problem.performance(), problem.interference()));
  }

  private record Departure(double time, String serviceId) {}

  /** Runs one scheduler on one trace; {@code seed} is recorded with the result (it made the trace). */
  public RunResult run(SchedulerSpec spec, ArrivalTrace trace, double offeredLoad, long seed) {
    return run(spec, trace, offeredLoad, seed, () -> {});
  }

  /**
   * As {@link #run(SchedulerSpec, ArrivalTrace, double, long)}, telling {@code onArrival} as each
   * arrival is taken up (from the running thread), so that a progress bar moves with arrivals.
   */
  public RunResult run(SchedulerSpec spec, ArrivalTrace trace, double offeredLoad, long seed, Runnable onArrival) {
    long wallStart = System.nanoTime();
    Scheduler scheduler = spec.create(cluster);
    ClusterStateHolder holder = new ClusterStateHolder(start());
    PriorityQueue<Departure> departures = new PriorityQueue<>((a, b) -> Double.compare(a.time, b.time));
    Map<String, Integer> gpuCountByType = new LinkedHashMap<>();
    for (Gpu g : cluster.gpus()) {
      gpuCountByType.merge(g.type(), 1, Integer::sum);
    }
    Map<String, Double> heldShareByType = new HashMap<>();
    Map<String, Double> gpuSecondsByType = new LinkedHashMap<>();
    gpuCountByType.keySet().forEach(t -> gpuSecondsByType.put(t, 0.0));
    Map<SolveStatus, Integer> statuses = new EnumMap<>(SolveStatus.class);
    Map<String, Integer> admittedByClass = new LinkedHashMap<>();
    Map<String, Integer> arrivalsByClass = new LinkedHashMap<>();
    Map<String, Integer> reasons = new TreeMap<>();
    Map<String, Double> freeAtRejection = new LinkedHashMap<>();
    gpuCountByType.keySet().forEach(t -> freeAtRejection.put(t, 0.0));
    List<Arrival> arrivals = trace.arrivals();
    long[] decisions = new long[arrivals.size()];
    int admitted = 0;
    int violations = 0;
    int rejected = 0;
    int sharedPlans = 0;
    int moves = 0;
    int admittedWithMoves = 0;
    int defragMoves = 0;
    int placementChanges = 0;
    Map<String, Integer> moveKinds = new TreeMap<>();
    Map<String, Integer> refusalBreakdown = new TreeMap<>();
    Map<String, ServiceRequest> classOf = new HashMap<>(); // admitted service -> its class, for the refusal breakdown
    List<String> auditFindings = new ArrayList<>();
    boolean audits = stranded.isPresent() || spec.sharing();
    double freePerNodeSum = 0;
    double freeEquivalentSum = 0;
    double strandedSum = 0;
    double now = 0;
    boolean refusedSinceDefrag = false; // for DefragTrigger.REFUSAL and HYBRID

    for (int i = 0; i < arrivals.size(); i++) {
      onArrival.run();
      Arrival a = arrivals.get(i);
      boolean departed = false;
      while (!departures.isEmpty() && departures.peek().time <= a.timeSeconds()) {
        Departure d = departures.poll();
        accumulate(gpuSecondsByType, heldShareByType, d.time - now);
        now = d.time;
        changeHeld(heldShareByType, holder.current(), d.serviceId, -1);
        classOf.remove(d.serviceId);
        expectCommitted(holder.release(d.serviceId, holder.current().version()), d.serviceId);
        departed = true;
      }
      DefragTrigger trigger = scheduler.defragPolicy().trigger();
      if (departed && scheduler.defragBudget() > 0 && trigger.defragments(refusedSinceDefrag)) {
        boolean migrates = trigger.migrates(refusedSinceDefrag);
        refusedSinceDefrag = false;
        // a quiet period: the departures left room scattered; re-arrange it before the next arrival is planned
        ClusterState before = holder.current();
        Defragmentation d = defragment(holder, scheduler, migrates, heldShareByType, auditFindings);
        moves += d.applied().size();
        defragMoves += d.applied().size();
        placementChanges += placementChanges(before, d.applied());
        d.applied().forEach(m -> moveKinds.merge(m.kind(), 1, Integer::sum));
        if (d.refusal().isPresent()) {
          violations++;
          reasons.merge("defragmentation move refused by the ledger: " + d.refusal().get(), 1, Integer::sum);
        }
      }
      accumulate(gpuSecondsByType, heldShareByType, a.timeSeconds() - now);
      now = a.timeSeconds();
      ClusterState state = holder.current();
      freePerNodeSum += meanFreePerNode(state);
      if (stranded.isPresent()) {
        StrandedCapacity.Sample sample = stranded.get().sample(state);
        freeEquivalentSum += sample.freeGpuEquivalents();
        strandedSum += sample.strandedGpuEquivalents();
      }

      ServiceClass serviceClass = workload.classes().get(a.classIndex());
      String className = serviceClass.template().id();
      ServiceRequest request = ServiceRequest.builder().from(serviceClass.template())
          .id("svc" + a.sequence())
          .arrivalTime(Duration.ofNanos((long) (a.timeSeconds() * 1e9)))
          .expectedLifetime(Duration.ofNanos(Math.max(1, (long) (a.lifetimeSeconds() * 1e9))))
          .build();
      arrivalsByClass.merge(className, 1, Integer::sum);
      scheduler.observe(request);
      long t0 = System.nanoTime();
      PlacementResult result;
      try {
        result = scheduler.placer().state(state).place(request);
      } catch (PlanRejectedException e) {
        decisions[i] = System.nanoTime() - t0;
        violations++;
        reasons.merge("plan rejected by the verifier: " + e.violations().get(0).kind(), 1, Integer::sum);
        rejected = recordRejection(state, freeAtRejection, rejected);
        refusedSinceDefrag = true;
        continue;
      }
      decisions[i] = System.nanoTime() - t0;
      statuses.merge(result.status(), 1, Integer::sum);

      if (result.plan().isPresent()) {
        Plan plan = result.plan().get();
        CommitResult commit = holdsShares(plan) ? admit(holder, scheduler, state, request, plan) : holder.commit(plan, state.version());
        if (commit.outcome() == Outcome.COMMITTED) {
          if (audits) {
            auditFindings.addAll(audit.violations(scheduler.placer(), state, commit.state(), request, plan));
          }
          if (holdsShares(plan)) {
            sharedPlans++;
          }
          changeHeld(heldShareByType, commit.state(), plan.serviceId(), +1);
          departures.add(new Departure(a.timeSeconds() + a.lifetimeSeconds(), plan.serviceId()));
          classOf.put(plan.serviceId(), serviceClass.template());
          admitted++;
          admittedByClass.merge(className, 1, Integer::sum);
          continue;
        }
        violations++;
        reasons.merge("commit refused: " + commit.reasons().get(0), 1, Integer::sum);
      } else {
        if (scheduler.moveBudget() > 0) {
          long m0 = System.nanoTime();
          Optional<List<Move>> applied = admitWithMoves(holder, scheduler, state, request, heldShareByType, auditFindings);
          decisions[i] += System.nanoTime() - m0;
          if (applied.isPresent()) {
            moves += applied.get().size();
            placementChanges += placementChanges(state, applied.get());
            applied.get().forEach(m -> moveKinds.merge(m.kind(), 1, Integer::sum));
            admittedWithMoves++;
            sharedPlans += holdsShares(holder.current().allocations().get(request.id()).plan().orElseThrow()) ? 1 : 0;
            changeHeld(heldShareByType, holder.current(), request.id(), +1);
            departures.add(new Departure(a.timeSeconds() + a.lifetimeSeconds(), request.id()));
            classOf.put(request.id(), serviceClass.template());
            admitted++;
            admittedByClass.merge(className, 1, Integer::sum);
            continue;
          }
        }
        reasons.merge(reasonCategory(result.reason()), 1, Integer::sum);
        refusals.ifPresent(b -> refusalBreakdown.merge(b.classify(state, serviceClass.template(), classOf::get), 1, Integer::sum));
      }
      rejected = recordRejection(state, freeAtRejection, rejected);
      refusedSinceDefrag = true;
    }
    int finalRejected = rejected;
    freeAtRejection.replaceAll((t, sum) -> finalRejected == 0 ? 0 : sum / finalRejected);
    double horizon = now;
    Map<String, Double> gpuHours = new LinkedHashMap<>();
    Map<String, Double> utilisation = new LinkedHashMap<>();
    gpuSecondsByType.forEach((t, s) -> {
      gpuHours.put(t, s / 3600);
      utilisation.put(t, horizon > 0 ? s / (gpuCountByType.get(t) * horizon) : 0);
    });
    return new RunResult(spec.name(), offeredLoad, seed, arrivals.size(), admitted, violations, gpuHours, utilisation,
        arrivals.isEmpty() ? 0 : freePerNodeSum / arrivals.size(), decisions, statuses, admittedByClass, arrivalsByClass,
        reasons, freeAtRejection, (System.nanoTime() - wallStart) / 1e9,
        new RunResult.CapacityUse(spec.sharing(), sharedPlans, audits, auditFindings, arrivals.isEmpty() ? 0 : freeEquivalentSum / arrivals.size(),
            arrivals.isEmpty() ? 0 : strandedSum / arrivals.size(), moves, admittedWithMoves, moveKinds, refusalBreakdown,
            defragMoves, placementChanges));
  }

  /** The heuristic mover of experiment E4's "with moves" variant. */
  private static final GreedyMover MOVER = new GreedyMover();

  /**
   * Admits {@code request}, refused on {@code state} as it stands, after at most the scheduler's
   * budget of moves ({@link GreedyMover}, default prices), the moves and the admission committed as
   * one change through the interference guard; the moved services and the newcomer are audited.
   * Returns the moves applied, or empty when the mover found none or the commit refused them.
   */
  private Optional<List<Move>> admitWithMoves(ClusterStateHolder holder, Scheduler scheduler, ClusterState state, ServiceRequest request,
      Map<String, Double> heldShareByType, List<String> auditFindings) {
    MoveProblem problem = MoveProblem.of(scheduler.placer().state(state), request, scheduler.moveBudget(), MoveCosts.defaults());
    MovesResult found = MOVER.admit(problem);
    if (found.plan().isEmpty()) {
      return Optional.empty();
    }
    Plan plan = found.plan().get();
    PlacementProblem p = scheduler.placer().state(found.afterMoves()).problem(request);
    InterferenceGuard guard = new InterferenceGuard(p.performance(), p.interference());
    Set<String> moved = new LinkedHashSet<>();
    found.moves().forEach(m -> {
      if (m.service() != null) {
        moved.add(m.service());
      }
    });
    CommitResult commit = holder.apply(MoveSequence.admitting(problem.rules(), found.moves(), request, plan, guard), state.version());
    if (commit.outcome() != Outcome.COMMITTED) {
      return Optional.empty();
    }
    moved.forEach(id -> changeHeld(heldShareByType, state, id, -1));
    moved.forEach(id -> changeHeld(heldShareByType, commit.state(), id, +1));
    auditFindings.addAll(audit.violations(scheduler.placer(), found.afterMoves(), commit.state(), request, plan));
    auditFindings.addAll(audit.services(scheduler.placer(), commit.state(), moved));
    return Optional.of(found.moves());
  }

  /** The moves a quiet period committed, in order, and the ledger's reason when it refused the next one (a bug: the rules accepted it). */
  private record Defragmentation(List<Move> applied, Optional<String> refusal) {}

  /** The defragmenter of quiet periods. */
  private static final GreedyDefragmenter DEFRAGMENTER = new GreedyDefragmenter();

  /** The forecast demand's room measure: the workload's class mix ({@link ForecastDemand}), with or without pipelines, built once each. */
  private synchronized ForecastRoom forecastRoom(boolean pipelines) {
    return forecastRooms.computeIfAbsent(pipelines,
        p -> ForecastDemand.room(cluster, workload, stranded.orElseGet(() -> new StrandedCapacity(cluster, workload)), p));
  }

  /**
   * Defragments the current state for the forecast demand within the scheduler's budget
   * ({@link GreedyDefragmenter}, default prices, the planner's rules, {@link MoveRules#layoutOnly()}
   * unless {@code migrates}, and time limit) and commits the
   * moves one at a time through the ledger, each with the version the last commit returned, as a
   * scheduler would in a quiet period; after each, every service on a GPU the move changed is audited
   * against the state it now stands in, so every intermediate state is checked, not only the last.
   */
  private Defragmentation defragment(ClusterStateHolder holder, Scheduler scheduler, boolean migrates, Map<String, Double> heldShareByType,
      List<String> auditFindings) {
    ClusterState state = holder.current();
    // the rules need a problem only for the planner's models and sharing menu: any class of the workload serves
    PlacementProblem problem = scheduler.placer().state(state).problem(workload.classes().get(0).template());
    MoveRules rules = migrates ? MoveRules.of(problem) : MoveRules.of(problem).layoutOnly();
    ForecastRoom room = forecastRoom(scheduler.defragPolicy().pipelines());
    if (scheduler.defragPolicy().guarded()) {
      room = room.guarded(new InterferenceGuard(problem.performance(), problem.interference()));
    }
    DefragResult found = DEFRAGMENTER.defragment(new DefragProblem(state, rules, scheduler.defragBudget(), MoveCosts.defaults(), room,
        problem.options().timeLimit()));
    List<Move> applied = new ArrayList<>();
    for (Move m : found.moves()) {
      ClusterState before = holder.current();
      CommitResult commit = holder.apply(MoveSequence.of(rules, List.of(m)), before.version());
      if (commit.outcome() != Outcome.COMMITTED) {
        return new Defragmentation(applied, Optional.of(m + ": " + commit.outcome() + " " + commit.reasons()));
      }
      applied.add(m);
      if (m.service() != null) {
        changeHeld(heldShareByType, before, m.service(), -1);
        changeHeld(heldShareByType, commit.state(), m.service(), +1);
      }
      Set<String> touched = new LinkedHashSet<>();
      for (String gpu : m.gpus()) {
        for (String id : commit.state().servicesOn(gpu)) {
          if (commit.state().allocations().get(id).request().isPresent()) {
            touched.add(id);
          } else {
            auditFindings.add(id + ": shares GPU " + gpu + " changed by a defragmentation move but was admitted without its request");
          }
        }
      }
      auditFindings.addAll(audit.services(scheduler.placer(), commit.state(), touched));
    }
    return new Defragmentation(applied, Optional.empty());
  }

  /**
   * How many of {@code moves}, applied in order to {@code before}, are migrations that changed their
   * replica's placement kind or size (another placement class, or another compute fraction), as
   * {@code MoveSpace}'s placement changes do; a migration to the same piece elsewhere is not one.
   */
  static int placementChanges(ClusterState before, List<Move> moves) {
    Map<String, org.rampa.domain.share.Placement> current = new HashMap<>();
    Map<String, String> gpuOf = new HashMap<>();
    int changes = 0;
    for (Move m : moves) {
      if (m instanceof org.rampa.moves.Migration g) {
        String key = g.service() + "#" + g.stage();
        org.rampa.domain.share.Placement was = current.computeIfAbsent(key,
            k -> before.allocations().get(g.service()).plan().orElseThrow().stages().get(g.stage()).placement());
        String wasOn = gpuOf.getOrDefault(key, g.fromGpu());
        boolean changed = was.getClass() != g.placement().getClass()
            || Math.abs(was.computeFraction(before.partitioning(wasOn)) - g.placement().computeFraction(before.partitioning(g.toGpu()))) > 1e-9;
        changes += changed ? 1 : 0;
        current.put(key, g.placement());
        gpuOf.put(key, g.toGpu());
      }
    }
    return changes;
  }

  /** Counts one rejection and the free GPUs by type it happened with; returns the new count. */
  private static int recordRejection(ClusterState state, Map<String, Double> freeAtRejection, int rejected) {
    // by type from the capacity view: a scan of every free GPU per rejection dominated runs on large clusters
    state.capacity().countByType().forEach((type, n) -> freeAtRejection.merge(type, (double) n, Double::sum));
    return rejected + 1;
  }

  /** The simulator is the holder's only writer, so a departure can only be refused by a bookkeeping bug. */
  private static void expectCommitted(CommitResult release, String serviceId) {
    if (release.outcome() != Outcome.COMMITTED) {
      throw new IllegalStateException("releasing " + serviceId + " was " + release.outcome() + ": " + release.reasons());
    }
  }

  private static void accumulate(Map<String, Double> gpuSeconds, Map<String, Double> held, double dt) {
    if (dt > 0) {
      held.forEach((t, share) -> gpuSeconds.merge(t, share * dt, Double::sum));
    }
  }

  private static void changeHeld(Map<String, Double> held, ClusterState state, String serviceId, int sign) {
    for (Holding h : state.allocations().get(serviceId).holdings()) {
      held.merge(state.cluster().gpu(h.gpu()).type(), sign * state.computeFraction(h), Double::sum);
    }
  }

  private double meanFreePerNode(ClusterState state) {
    // free GPUs over the nodes that have any, counted on the capacity view's flags, not hashed per GPU and arrival
    int nodes = state.capacity().nodeCount();
    return nodes == 0 ? 0 : (double) state.capacity().count() / nodes;
  }

  /** Groups reasons that differ only in their numbers ("needs 140 GB" and "needs 70 GB"). */
  static String reasonCategory(String reason) {
    String shape = reason.replaceAll("[0-9]+([.,][0-9]+)*(e[-+]?[0-9]+)?", "#");
    return shape.length() > 160 ? shape.substring(0, 160) + "..." : shape;
  }
}
