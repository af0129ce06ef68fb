package org.rampa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.Plan;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.json.RampaJson;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.DecodeServices.Admission;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SolveStatus;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanRejectedException;
import org.rampa.verify.Violation;

/**
 * Plans on shared GPUs through the fluent entry point: an incumbent holds an MPS share of the one
 * A100-SXM4-80GB, and a strategy returning a hand-built plan lands a newcomer on the same GPU. The
 * fixed-plan strategy controls exactly which plan arrives (greedy with sharing on is tested in rampa-heuristics).
 */
class RampaSharedGpuTest {

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
  private final String gpu = cluster.gpus().get(0).id();
  private final DecodeServices services = new DecodeServices(cluster, "fixed");
  private final long memory = services.memory();
  private final InterferenceGuard guard = InterferenceGuard.defaults();


  private Admission service(String id, Placement placement, double slack) {
    return services.service(id, gpu, placement, slack);
  }

  /** Answers every problem with {@code plan}. */
  private static PlacementStrategy returning(Plan plan) {
    return new PlacementStrategy() {
      @Override
      public String name() {
        return "fixed";
      }

      @Override
      public PlacementResult place(PlacementProblem problem) {
        return PlacementResult.builder().status(SolveStatus.FEASIBLE).plan(plan).strategy(name()).solveTime(Duration.ZERO).build();
      }
    };
  }

  private PlacementResult place(ClusterState state, Admission a) {
    return Rampa.on(state).strategy(returning(a.plan())).place(a.request());
  }

  @Test
  void aPlanJoiningAnMpsGpuNamesItsFaultDomainInTheResultAndItsJson() {
    Admission chat = service("chat", new MpsShare(0.5, memory), 2.0);
    ClusterState state = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    Admission batch = service("batch", new MpsShare(0.3, memory), 2.0);

    PlacementResult result = place(state, batch);

    assertThat(result.mpsFaultDomains()).containsExactly(Map.entry(gpu, List.of("chat", "batch")));
    String json = RampaJson.write(result);
    assertThat(json).contains("\"mpsFaultDomains\"", "\"" + gpu + "\" : [ \"chat\", \"batch\" ]");
    assertThat(RampaJson.read(json, PlacementResult.class)).isEqualTo(result);
  }

  @Test
  void plansOnWholeGpusOrIsolatedSlicesJoinNoFaultDomainAndTheirJsonIsUnchanged() {
    Admission alone = service("alone", new Whole(), 2.0);
    PlacementResult whole = place(ClusterState.empty(cluster), alone);
    assertThat(whole.mpsFaultDomains()).isEmpty();
    assertThat(RampaJson.write(whole)).doesNotContain("mpsFaultDomains");

    ClusterState mig = ClusterState.empty(cluster).configureMig(gpu, List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4)));
    Admission chat = service("chat", new MigSlice("3g.40gb", 4), 2.0);
    ClusterState withChat = guard.admit(mig, chat.request(), chat.plan());
    assertThat(place(withChat, service("batch", new MigSlice("3g.40gb", 0), 2.0)).mpsFaultDomains()).isEmpty();
  }

  @Test
  void aResultWithoutAPlanCannotNameFaultDomains() {
    assertThatThrownBy(() -> PlacementResult.builder().status(SolveStatus.INFEASIBLE).reason("no GPU").strategy("fixed")
        .solveTime(Duration.ZERO).putMpsFaultDomains(gpu, List.of("chat", "batch")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("result.mpsFaultDomains").hasMessageContaining("without a plan");
  }

  @Test
  void thePlannerRefusesAPlanThatWouldPushAnIncumbentPastItsSlo() {
    // 1.03 x its time alone: one contended co-runner (5 %) breaks chat's SLO
    Admission chat = service("chat", new MpsShare(0.5, memory), 1.03);
    ClusterState state = guard.admit(ClusterState.empty(cluster), chat.request(), chat.plan());
    Admission batch = service("batch", new MpsShare(0.3, memory), 2.0);

    assertThatThrownBy(() -> place(state, batch))
        .isInstanceOfSatisfying(PlanRejectedException.class, e -> assertThat(e.violations()).singleElement().satisfies(v -> {
          assertThat(v.kind()).isEqualTo(Violation.Kind.INTERFERENCE);
          assertThat(v.message()).contains("\"chat\"", gpu);
        }));
  }

  @Test
  void aSharedPlanFromThePlannerCommitsThroughTheHoldersAdmitSoLaterAdmissionsRetimeIt() {
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(cluster));
    Admission chat = service("chat", new MpsShare(0.5, memory), 1.08);
    ClusterState planned = holder.current();
    Plan chatPlan = place(planned, chat).plan().orElseThrow();
    assertThat(holder.admit(chat.request(), chatPlan, planned.version(), guard).outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);

    Admission a = service("a", new MpsShare(0.2, memory), 2.0);
    planned = holder.current();
    PlacementResult second = place(planned, a);
    assertThat(second.mpsFaultDomains()).containsExactly(Map.entry(gpu, List.of("chat", "a")));
    assertThat(holder.admit(a.request(), second.plan().orElseThrow(), planned.version(), guard).outcome())
        .isEqualTo(ClusterStateHolder.Outcome.COMMITTED);

    // chat's request stayed in the ledger: a third tenant would slow it 1.10x > 1.08x
    Admission b = service("b", new MpsShare(0.2, memory), 2.0);
    ClusterStateHolder.CommitResult refused = holder.admit(b.request(), b.plan(), holder.current().version(), guard);
    assertThat(refused.outcome()).isEqualTo(ClusterStateHolder.Outcome.REFUSED);
    assertThat(refused.reasons()).singleElement().asString().contains("incumbent \"chat\"", gpu);
  }
}
