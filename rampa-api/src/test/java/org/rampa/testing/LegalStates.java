package org.rampa.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.share.MigLayout;
import org.rampa.verify.PlanVerifier;

/** The legality every intermediate state of a move sequence must keep (issue 25), shared by the movers' tests. */
public final class LegalStates {
  private LegalStates() {}

  /** Every MIG layout passes {@link MigLayout#check} and every placed service passes the verifier among the others. */
  public static void assertLegal(ClusterState s, PlanVerifier verifier, Object after) {
    for (var e : s.migLayouts().entrySet()) {
      assertThat(MigLayout.check(s.partitioning(e.getKey()).requireMig(), e.getValue())).as("layout of %s after %s", e.getKey(), after).isEmpty();
    }
    for (Allocation a : s.allocations().values()) {
      if (a.request().isPresent()) {
        assertThat(verifier.verify(a.request().get(), a.plan().get(), s.release(a.serviceId())).violations())
            .as("%s after %s", a.serviceId(), after).isEmpty();
      }
    }
  }
}
