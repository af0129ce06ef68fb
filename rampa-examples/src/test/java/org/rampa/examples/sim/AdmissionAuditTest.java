package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.domain.Allocation;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.examples.experiment.Presets;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.DecodeServices;

class AdmissionAuditTest {

  private final Cluster cluster = Presets.cluster("small");
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final String h100 = cluster.gpus().stream().filter(g -> g.type().startsWith("H100")).map(Gpu::id).findFirst().orElseThrow();
  private final AdmissionAudit audit = new AdmissionAudit();
  // the schedulers' placers: sharing under the default planning margins, and margin-free
  private final Rampa.Placer margined = Rampa.on(cluster).sharing(SharingOptions.on());
  private final Rampa.Placer nominal = Rampa.on(cluster).sharing(SharingOptions.on().withMargin("none"));
  // the same services stated by the margined model, as a scheduler planning under the default margins states them
  private final DecodeServices marginedServices =
      new DecodeServices(cluster, "test", PerformanceModel.defaults().withShareMargins(TierMargins.defaults()));

  @Test
  void anIncumbentPushedPastItsSloByANewCoRunnerIsFound() {
    // the incumbent tolerates no slowdown at all; the newcomer tolerates plenty
    DecodeServices.Admission incumbent = services.service("incumbent", h100, new MpsShare(0.5, services.memory()), 1.0001);
    DecodeServices.Admission newcomer = services.service("newcomer", h100, new MpsShare(0.5, services.memory()), 3);
    ClusterState before = ClusterState.empty(cluster).allocate(Allocation.of(incumbent.request(), incumbent.plan()));
    // allocated past any guard, as a faulty commit path would
    ClusterState after = before.allocate(Allocation.of(newcomer.request(), newcomer.plan()));
    List<String> found = audit.violations(nominal, before, after, newcomer.request(), newcomer.plan());
    assertThat(found).isNotEmpty().allMatch(f -> f.startsWith("incumbent: INTERFERENCE") || f.startsWith("newcomer: INTERFERENCE"));
    assertThat(found).anyMatch(f -> f.startsWith("incumbent: "));
  }

  @Test
  void coRunnersWithinTheirSlosAndWholeGpusPass() {
    DecodeServices.Admission incumbent = services.service("incumbent", h100, new MpsShare(0.5, services.memory()), 3);
    DecodeServices.Admission newcomer = services.service("newcomer", h100, new MpsShare(0.5, services.memory()), 3);
    ClusterState before = ClusterState.empty(cluster).allocate(Allocation.of(incumbent.request(), incumbent.plan()));
    ClusterState after = before.allocate(Allocation.of(newcomer.request(), newcomer.plan()));
    assertThat(audit.violations(nominal, before, after, newcomer.request(), newcomer.plan())).isEmpty();

    DecodeServices.Admission alone = services.service("alone", h100, new Whole(), 1.5);
    ClusterState empty = ClusterState.empty(cluster);
    assertThat(audit.violations(nominal, empty, empty.allocate(Allocation.of(alone.request(), alone.plan())), alone.request(), alone.plan())).isEmpty();
  }

  @Test
  void anIncumbentCommittedWithoutItsRequestCannotBeReTimedAndIsReported() {
    DecodeServices.Admission incumbent = services.service("incumbent", h100, new MpsShare(0.5, services.memory()), 3);
    DecodeServices.Admission newcomer = services.service("newcomer", h100, new MpsShare(0.5, services.memory()), 1000);
    ClusterState before = ClusterState.empty(cluster).allocate(incumbent.plan());
    ClusterState after = before.allocate(Allocation.of(newcomer.request(), newcomer.plan()));
    assertThat(audit.violations(nominal, before, after, newcomer.request(), newcomer.plan()))
        .containsExactly("incumbent: shares a GPU with newcomer but was admitted without its request, so it cannot be re-timed");
  }

  @Test
  void plansMadeUnderTheDefaultMarginsPassTheAuditUnderThoseMarginsAndOnlyThere() {
    assertThat(margined.problem(marginedServices.service("x", h100, new Whole(), 1).request()).performance().shareMargins())
        .isEqualTo(TierMargins.defaults());
    DecodeServices.Admission incumbent = marginedServices.service("incumbent", h100, new MpsShare(0.5, services.memory()), 3);
    DecodeServices.Admission newcomer = marginedServices.service("newcomer", h100, new MpsShare(0.5, services.memory()), 3);
    ClusterState before = ClusterState.empty(cluster).allocate(Allocation.of(incumbent.request(), incumbent.plan()));
    ClusterState after = before.allocate(Allocation.of(newcomer.request(), newcomer.plan()));
    assertThat(audit.violations(margined, before, after, newcomer.request(), newcomer.plan())).isEmpty();
    // judged on the nominal model, as the audit did before, the margined stage times are claims it does not make
    assertThat(audit.violations(nominal, before, after, newcomer.request(), newcomer.plan()))
        .isNotEmpty().allMatch(f -> f.contains("PREDICTION_MISMATCH"));
  }

  @Test
  void underTheDefaultMarginsAnIncumbentPushedPastItsSloIsStillFound() {
    DecodeServices.Admission incumbent = marginedServices.service("incumbent", h100, new MpsShare(0.5, services.memory()), 1.0001);
    DecodeServices.Admission newcomer = marginedServices.service("newcomer", h100, new MpsShare(0.5, services.memory()), 3);
    ClusterState before = ClusterState.empty(cluster).allocate(Allocation.of(incumbent.request(), incumbent.plan()));
    ClusterState after = before.allocate(Allocation.of(newcomer.request(), newcomer.plan()));
    List<String> found = audit.violations(margined, before, after, newcomer.request(), newcomer.plan());
    assertThat(found).isNotEmpty().allMatch(f -> f.startsWith("incumbent: INTERFERENCE") || f.startsWith("newcomer: INTERFERENCE"));
    assertThat(found).anyMatch(f -> f.startsWith("incumbent: "));
  }
}
