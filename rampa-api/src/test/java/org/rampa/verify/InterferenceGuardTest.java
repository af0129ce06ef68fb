package org.rampa.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Allocation;
import org.rampa.domain.AllocationRefusedException;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.Holding;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;

/**
 * Concrete admission-guard cases on one A100-SXM4-80GB: Llama-2-7B decode steps (context 512,
 * batch 1) sharing it. The default interference is linear, 5 % per contended co-runner, none
 * under MIG; an SLO's latency bound is set a given factor above the service's time alone.
 */
class InterferenceGuardTest {

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
  private final String gpu = cluster.gpus().get(0).id();
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final long memory = services.memory();
  private final InterferenceGuard guard = InterferenceGuard.defaults();

  private Admission service(String id, Placement placement, double slack) {
    return services.service(id, gpu, placement, slack);
  }


  private MpsShare mps(double fraction) {
    return new MpsShare(fraction, memory);
  }

  @Test
  void aNewcomerThatWouldPushAnIncumbentPastItsSloIsRefusedNamingTheIncumbentAndTheGpu() {
    Admission chat = service("chat", mps(0.5), 1.03);
    ClusterState state = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    Admission batch = service("batch", mps(0.3), 2.0);
    List<String> refusals = guard.refusals(state, batch.request(), batch.plan());
    assertThat(refusals).hasSize(1);
    assertThat(refusals.get(0)).contains("incumbent \"chat\"", "GPU \"" + gpu + "\"", "1.050x slower", "Maybe", "MIG slice");
    assertThatThrownBy(() -> guard.admit(state, batch.request(), batch.plan())).isInstanceOf(AllocationRefusedException.class);
    assertThat(state.allocations()).containsOnlyKeys("chat");
    System.out.println("guard case 1 (refused): " + refusals.get(0));
  }

  @Test
  void withSlackForOneCoRunnerBothAreAdmittedAndASecondNewcomerIsRefused() {
    Admission chat = service("chat", mps(0.4), 1.08);
    ClusterState one = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    Admission a = service("a", mps(0.3), 2.0);
    ClusterState two = guard.admit(one, a.request(), a.plan());
    assertThat(two.servicesOn(gpu)).containsExactly("chat", "a");
    // a third tenant gives chat two co-runners: 1.10 > 1.08
    Admission b = service("b", mps(0.3), 2.0);
    assertThat(guard.refusals(two, b.request(), b.plan())).singleElement().asString().contains("incumbent \"chat\"", "1.100x");
  }

  @Test
  void migSlicesAreIsolatedSoATightIncumbentKeepsItsSlo() {
    ClusterState mig = ClusterState.empty(cluster).configureMig(gpu, List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4)));
    Admission chat = service("chat", new MigSlice("3g.40gb", 4), 1.0001);
    Admission batch = service("batch", new MigSlice("3g.40gb", 0), 1.0001);
    ClusterState both = guard.admit(guard.admit(mig, chat.request(), chat.plan()), batch.request(), batch.plan());
    assertThat(both.servicesOn(gpu)).containsExactly("chat", "batch");
  }

  @Test
  void aNewcomerThatCoRunnersWouldSlowPastItsOwnSloIsRefusedToo() {
    Admission chat = service("chat", mps(0.5), 2.0);
    ClusterState state = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    Admission tight = service("tight", mps(0.3), 1.01);
    assertThat(guard.refusals(state, tight.request(), tight.plan())).singleElement().asString().contains("\"tight\" itself", "[chat]");
  }

  @Test
  void aHoldingWithoutAPlanStillCountsAsACoRunner() {
    ClusterState bare = ClusterState.empty(cluster).allocate(Allocation.of("legacy", List.of(Holding.of(gpu, mps(0.2), memory))));
    Admission tight = service("tight", mps(0.3), 1.03);
    assertThat(guard.refusals(bare, tight.request(), tight.plan())).singleElement().asString().contains("[legacy]");
  }

  @Test
  void theVerifierRecomputesInterferenceForEveryServiceOnTheGpu() {
    Admission chat = service("chat", mps(0.5), 1.03);
    ClusterState state = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    Admission batch = service("batch", mps(0.3), 2.0);
    Verification v = PlanVerifier.defaults().verify(batch.request(), batch.plan(), state);
    assertThat(v.violations()).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo(Violation.Kind.INTERFERENCE);
      assertThat(x.message()).contains("\"chat\"", "[batch]", gpu);
    });
    Admission easy = service("easy", mps(0.3), 2.0);
    ClusterState loose = guard.admit(ClusterState.empty(cluster), service("chat", mps(0.5), 1.2).request(), service("chat", mps(0.5), 1.2).plan());
    assertThat(PlanVerifier.defaults().verify(easy.request(), easy.plan(), loose).violations()).isEmpty();
  }

  @Test
  void theHolderAdmitsThroughTheGuardAndRefusesStalePlans() {
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(cluster));
    Admission chat = service("chat", mps(0.5), 1.03);
    assertThat(holder.admit(chat.request(), chat.plan(), 0, guard).outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    Admission batch = service("batch", mps(0.3), 2.0);
    assertThat(holder.admit(batch.request(), batch.plan(), 0, guard).outcome()).isEqualTo(ClusterStateHolder.Outcome.STALE);
    ClusterStateHolder.CommitResult refused = holder.admit(batch.request(), batch.plan(), 1, guard);
    assertThat(refused.outcome()).isEqualTo(ClusterStateHolder.Outcome.REFUSED);
    assertThat(refused.reasons()).singleElement().asString().contains("incumbent \"chat\"");
    assertThat(holder.current().version()).isEqualTo(1);
  }

  @Test
  void aGuardKeptAcrossLedgersAndClustersAnswersAsAFreshOne() {
    // the guard remembers each ledger entry's prediction alone: the same entries on another cluster must be predicted anew
    Cluster faster = ClusterPresets.of(Map.of("H100-SXM5-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    Admission chat = service("chat", mps(0.4), 1.08);
    Admission a = service("a", mps(0.3), 2.0);
    Allocation chatHolds = Allocation.of(chat.request(), chat.plan());
    Allocation aHolds = Allocation.of(a.request(), a.plan());
    InterferenceGuard kept = InterferenceGuard.defaults();
    int refused = 0;
    for (Cluster c : List.of(cluster, faster, cluster)) {
      ClusterState state = ClusterState.empty(c).allocate(chatHolds).allocate(aHolds);
      for (double fraction : new double[] {0.2, 0.3}) {
        Admission b = service("b", mps(fraction), 1.5);
        List<String> refusals = kept.refusals(state, b.request(), b.plan());
        assertThat(refusals).isEqualTo(InterferenceGuard.defaults().refusals(state, b.request(), b.plan()));
        assertThat(kept.incumbentBudget(state, gpu, mps(fraction), 4)).isEqualTo(InterferenceGuard.defaults().incumbentBudget(state, gpu, mps(fraction), 4));
        assertThat(kept.newcomerSlowdown(state, gpu, mps(fraction))).isEqualTo(InterferenceGuard.defaults().newcomerSlowdown(state, gpu, mps(fraction)));
        refused += refusals.isEmpty() ? 0 : 1;
      }
    }
    assertThat(refused).as("the A100 ledgers refuse a third tenant for chat").isGreaterThanOrEqualTo(4);
  }
}
