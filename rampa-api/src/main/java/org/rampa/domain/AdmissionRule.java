package org.rampa.domain;

import java.util.List;

/**
 * A rule an admission must pass beyond the ledger's own (capacity, MIG legality, MPS room), judged
 * on the very state the plan would join: {@link ClusterStateHolder#admit} applies it. The library's
 * rule is {@code org.rampa.verify.InterferenceGuard} (no service on the plan's GPUs may miss its
 * SLO with its new co-runners); the ledger names only this interface, so it does not depend on the
 * verifier that implements it.
 */
@FunctionalInterface
public interface AdmissionRule {

  /** Why {@code plan} for {@code request} may not join {@code state}, one reason each; empty when it may. */
  List<String> refusals(ClusterState state, ServiceRequest request, Plan plan);
}
