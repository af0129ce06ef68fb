package org.rampa.examples.sim;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.verify.PlanVerifier;
import org.rampa.verify.Verification;

/**
 * The simulator's own check of every admission, after the commit and independent of the planner
 * and of the commit path: the {@link PlanVerifier} judges the newcomer's plan against the state it
 * was admitted to, and then every service sharing a GPU with it is verified again, its plan against
 * the new state without it, so an incumbent pushed past its SLO by its new co-runners is found
 * whoever let the newcomer in. Departures only take co-runners away, so checking at admissions
 * covers every moment of a run.
 */
final class AdmissionAudit {

  private final PlanVerifier verifier = PlanVerifier.defaults();

  /**
   * The services, newcomer first, whose SLO the admission of {@code plan} for {@code request} broke:
   * {@code before} is the state it was admitted to, {@code after} the state with it. Each entry is
   * "service: first violation".
   */
  /**
   * The services of {@code ids} that {@code state} holds with their requests and that fail the
   * verifier against {@code state} without them: after moves, every moved service. Each entry is
   * "service: first violation".
   */
  List<String> services(ClusterState state, java.util.Collection<String> ids) {
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      Allocation a = state.allocations().get(id);
      Verification v = verifier.verify(a.request().orElseThrow(), a.plan().orElseThrow(), state.release(id));
      if (!v.ok()) {
        out.add(id + " (moved): " + v.violations().get(0));
      }
    }
    return out;
  }

  List<String> violations(ClusterState before, ClusterState after, ServiceRequest request, Plan plan) {
    List<String> out = new ArrayList<>();
    Verification newcomer = verifier.verify(request, plan, before);
    if (!newcomer.ok()) {
      out.add(request.id() + ": " + newcomer.violations().get(0));
    }
    Set<String> neighbours = new LinkedHashSet<>();
    for (Stage s : plan.stages()) {
      for (String gpu : s.gpus()) {
        neighbours.addAll(after.servicesOn(gpu));
      }
    }
    neighbours.remove(request.id());
    for (String id : neighbours) {
      Allocation a = after.allocations().get(id);
      if (a.request().isEmpty() || a.plan().isEmpty()) {
        // committed without its request: nobody could tell whether it still meets its SLO
        out.add(id + ": shares a GPU with " + request.id() + " but was admitted without its request, so it cannot be re-timed");
        continue;
      }
      Verification incumbent = verifier.verify(a.request().get(), a.plan().get(), after.release(id));
      if (!incumbent.ok()) {
        out.add(id + ": " + incumbent.violations().get(0));
      }
    }
    return out;
  }
}
