package org.rampa.examples.sim;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.Holding;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.perf.PerformanceModel;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/**
 * A discrete-event simulation of online admission: services arrive, the planner places each one
 * against the current state, admitted services hold their GPUs for their lifetime, then leave.
 * Deterministic for a given trace (the planner's own randomness aside, which is seeded), so two
 * planners compared on one trace see exactly the same arrivals.
 *
 * <p>Every admitted plan is checked by the {@link PlanVerifier} against the state it is admitted
 * into: zero SLO violations is a measured result. A plan the verifier rejects is counted as a
 * violation and not admitted.
 */
public final class Simulator {

  private final Cluster cluster;
  private final Workload workload;
  private final PlanVerifier verifier;

  public Simulator(Cluster cluster, Workload workload, PerformanceModel performance) {
    this.cluster = cluster;
    this.workload = workload;
    this.verifier = new PlanVerifier(performance);
  }

  private record Departure(double time, String serviceId) {}

  public RunResult run(PlannerSpec spec, ArrivalTrace trace, double offeredLoad) {
    long wallStart = System.nanoTime();
    Planner planner = spec.create(cluster);
    ClusterState state = ClusterState.empty(cluster);
    PriorityQueue<Departure> departures = new PriorityQueue<>((a, b) -> Double.compare(a.time, b.time));
    Map<String, Integer> gpuCountByType = new LinkedHashMap<>();
    for (Gpu g : cluster.gpus()) {
      gpuCountByType.merge(g.type(), 1, Integer::sum);
    }
    Map<String, Double> heldShareByType = new HashMap<>();
    Map<String, Double> gpuSecondsByType = new LinkedHashMap<>();
    gpuCountByType.keySet().forEach(t -> gpuSecondsByType.put(t, 0.0));
    Map<SolveStatus, Integer> statuses = new java.util.EnumMap<>(SolveStatus.class);
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
    double freePerNodeSum = 0;
    double now = 0;

    for (int i = 0; i < arrivals.size(); i++) {
      Arrival a = arrivals.get(i);
      while (!departures.isEmpty() && departures.peek().time <= a.timeSeconds()) {
        Departure d = departures.poll();
        accumulate(gpuSecondsByType, heldShareByType, d.time - now);
        now = d.time;
        changeHeld(heldShareByType, state, d.serviceId, -1);
        state = state.release(d.serviceId);
      }
      accumulate(gpuSecondsByType, heldShareByType, a.timeSeconds() - now);
      now = a.timeSeconds();
      freePerNodeSum += meanFreePerNode(state);

      WorkloadClass wc = workload.classes().get(a.classIndex());
      ServiceRequest request = ServiceRequest.builder().from(wc.template())
          .id("svc" + a.sequence())
          .arrivalTime(Duration.ofNanos((long) (a.timeSeconds() * 1e9)))
          .expectedLifetime(Duration.ofNanos(Math.max(1, (long) (a.lifetimeSeconds() * 1e9))))
          .build();
      arrivalsByClass.merge(wc.name(), 1, Integer::sum);
      planner.observe(request, request.arrivalTime().orElseThrow());
      long t0 = System.nanoTime();
      PlacementResult result = planner.plan(request, state);
      decisions[i] = System.nanoTime() - t0;
      statuses.merge(result.status(), 1, Integer::sum);

      if (result.plan().isPresent()) {
        Plan plan = result.plan().get();
        Verification v = verifier.verify(request, plan, state);
        if (v.ok()) {
          state = state.allocate(plan);
          changeHeld(heldShareByType, state, plan.serviceId(), +1);
          departures.add(new Departure(a.timeSeconds() + a.lifetimeSeconds(), plan.serviceId()));
          admitted++;
          admittedByClass.merge(wc.name(), 1, Integer::sum);
          continue;
        }
        violations++;
        reasons.merge("plan rejected by the verifier: " + v.violations().get(0).kind(), 1, Integer::sum);
      } else {
        reasons.merge(reasonCategory(result.reason()), 1, Integer::sum);
      }
      rejected++;
      for (Gpu g : state.freeGpus()) {
        freeAtRejection.merge(g.type(), 1.0, Double::sum);
      }
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
    return new RunResult(spec.name(), offeredLoad, arrivals.size(), admitted, violations, gpuHours, utilisation,
        arrivals.isEmpty() ? 0 : freePerNodeSum / arrivals.size(), decisions, statuses, admittedByClass, arrivalsByClass,
        reasons, freeAtRejection, (System.nanoTime() - wallStart) / 1e9);
  }

  private static void accumulate(Map<String, Double> gpuSeconds, Map<String, Double> held, double dt) {
    if (dt > 0) {
      held.forEach((t, share) -> gpuSeconds.merge(t, share * dt, Double::sum));
    }
  }

  private static void changeHeld(Map<String, Double> held, ClusterState state, String serviceId, int sign) {
    for (Holding h : state.allocations().get(serviceId).holdings()) {
      held.merge(state.cluster().gpu(h.gpu()).type(), sign * h.share(), Double::sum);
    }
  }

  private double meanFreePerNode(ClusterState state) {
    Map<String, Integer> freeByNode = new HashMap<>();
    for (Gpu g : state.freeGpus()) {
      freeByNode.merge(g.node(), 1, Integer::sum);
    }
    return freeByNode.isEmpty() ? 0 : freeByNode.values().stream().mapToInt(Integer::intValue).average().orElse(0);
  }

  /** Groups reasons that differ only in their numbers ("needs 140 GB" and "needs 70 GB"). */
  static String reasonCategory(String reason) {
    String shape = reason.replaceAll("[0-9]+([.,][0-9]+)*(e[-+]?[0-9]+)?", "#");
    return shape.length() > 160 ? shape.substring(0, 160) + "..." : shape;
  }
}
