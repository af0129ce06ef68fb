package org.rampa.examples.sim;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rampa.Rampa;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.verify.Verification;

/**
 * The simulator's own check of every admission, after the commit and independent of the planner
 * and of the commit path: the {@link PlanVerifier} judges the newcomer's plan against the state it
 * was admitted to, and then every service sharing a GPU with it is verified again, its plan against
 * the new state without it, so an incumbent pushed past its SLO by its new co-runners is found
 * whoever let the newcomer in. Departures only take co-runners away, so checking at admissions
 * covers every moment of a run.
 *
 * <p>The verifier judges under the scheduler's own models ({@link Rampa.Placer#verify}): the
 * performance model its options ask for, planning margins on shared stages included
 * ({@code sharingMargin}), and its interference model. The audit re-checks what the planner and the
 * commit path claimed under the model they planned with; judged on the nominal model, a plan made
 * under a margin states stage times the nominal model does not give, and every such plan would be
 * flagged. Within one run every service was admitted by the same scheduler, so incumbents are
 * re-timed under the margin they were admitted under.
 */
final class AdmissionAudit {

  /**
   * The services of {@code ids} that {@code state} holds with their requests and that fail the
   * verifier of {@code placer}'s models against {@code state} without them: after moves, every
   * moved service. Each entry is "service: first violation".
   */
  List<String> services(Rampa.Placer placer, ClusterState state, java.util.Collection<String> ids) {
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      Allocation a = state.allocations().get(id);
      Verification v = placer.state(state.release(id)).verify(a.request().orElseThrow(), a.plan().orElseThrow());
      if (!v.ok()) {
        out.add(id + " (moved): " + v.violations().get(0));
      }
    }
    return out;
  }

  /**
   * The services, newcomer first, whose SLO the admission of {@code plan} for {@code request} broke,
   * judged by the verifier of {@code placer}'s models: {@code before} is the state it was admitted
   * to, {@code after} the state with it. Each entry is "service: first violation".
   */
  List<String> violations(Rampa.Placer placer, ClusterState before, ClusterState after, ServiceRequest request, Plan plan) {
    List<String> out = new ArrayList<>();
    Verification newcomer = placer.state(before).verify(request, plan);
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
      Verification incumbent = placer.state(after.release(id)).verify(a.request().get(), a.plan().get());
      if (!incumbent.ok()) {
        out.add(id + ": " + incumbent.violations().get(0));
      }
    }
    return out;
  }
}
