package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.Stage;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.RandomInstances;
import org.rampa.verify.InterferenceGuard;

/**
 * Issue 24: the placement API with sharing on and {@code sharingMargin=default} plans every stage a
 * share tier times under that tier's default margin (as {@code colocate --margin default} does), the
 * verifier judges the plan under the same margin, the result names it, and {@code sharingMargin=none}
 * plans on the nominal times. {@code default} is the default for sharing plans.
 */
class SharingMarginTest {

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
  private final String a = cluster.gpus().get(0).id();
  private final DecodeServices services = new DecodeServices(cluster, "incumbent");
  // one GPU held whole, the other shared by chat (MPS 0.5, an SLO of 10 times its time alone, which the margins' re-timing of
  // it still meets): only MPS room is left for a newcomer
  private final ClusterState state = sharedState();
  private final ServiceRequest request = ServiceRequest.builder().id("new").model(ModelCatalog.decode("llama2-7b", 512))
      .slo(Slo.of(1, Duration.ofMillis((long) Math.ceil(4000 * services.service("x", a, new Whole(), 1).aloneSeconds())), 1)).build();

  private ClusterState sharedState() {
    DecodeServices.Admission chat = services.service("chat", a, new MpsShare(0.5, services.memory()), 10);
    return InterferenceGuard.defaults().admit(ClusterState.empty(cluster).allocate(RandomInstances.holdPlan("hold", cluster.gpus().get(1).id())),
        chat.request(), chat.plan());
  }

  private Rampa.Placer placer(SharingOptions sharing) {
    return Rampa.on(state).importance(StaticImportance.uniform()).strategy("greedy").sharing(sharing);
  }

  @Test
  void sharedStagesArePlannedAndVerifiedUnderTheirTiersDefaultMarginUnlessToldNone() {
    PlacementResult margined = placer(SharingOptions.on().withMargin("default")).place(request);
    PlacementResult nominal = placer(SharingOptions.on().withMargin("none")).place(request);
    assertThat(margined.status()).as(margined.reason()).isEqualTo(SolveStatus.FEASIBLE);
    assertThat(nominal.status()).as(nominal.reason()).isEqualTo(SolveStatus.FEASIBLE);
    assertThat(margined.shareMargins()).isEqualTo(TierMargins.defaults().byLabel());
    assertThat(nominal.shareMargins()).isEmpty();

    Plan plan = margined.plan().orElseThrow();
    Stage stage = plan.stages().get(0);
    assertThat(stage.placement()).isInstanceOf(MpsShare.class);
    SharedStage shared = new SharedStage(request.model(), stage.from(), stage.to(), request.slo().batchSize(), cluster.typeOf(a),
        cluster.typeOf(a).partitioning(), stage.placement());
    // the stated stage time is the nominal share-tier time times 1 + the answering tier's margin for the model's runtime
    double nominalSeconds = ShareTimeModel.defaults().seconds(shared).getAsDouble();
    double margin = TierMargins.defaults().of(ShareTimeModel.defaults().tier(shared), shared);
    assertThat(margin).isPositive();
    assertThat(stage.computeTime().toNanos() * 1e-9).isCloseTo(nominalSeconds * (1 + margin), within(1e-8));
    assertThat(PerformanceModel.defaults().withShareMargins(TierMargins.defaults())
        .estimate(request, PerformanceModel.assignmentsOf(plan), cluster).stageComputeSeconds().get(0))
        .isCloseTo(nominalSeconds * (1 + margin), within(1e-12));

    // one verifier, judging under the placer's margin: each plan passes under its own and is refused under the other's
    assertThat(placer(SharingOptions.on().withMargin("default")).verify(request, plan).ok()).isTrue();
    assertThat(placer(SharingOptions.on().withMargin("none")).verify(request, nominal.plan().orElseThrow()).ok()).isTrue();
    assertThat(placer(SharingOptions.on().withMargin("none")).verify(request, plan).ok()).isFalse();
    assertThat(placer(SharingOptions.on().withMargin("default")).verify(request, nominal.plan().orElseThrow()).ok()).isFalse();
  }

  @Test
  void wholeGpuPlansCarryNoMarginAndSayNone() {
    Cluster free = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 1, ClusterPresets.NETWORK_100G);
    PlacementResult off = Rampa.on(free).importance(StaticImportance.uniform()).strategy("greedy").place(request);
    PlacementResult on = Rampa.on(free).importance(StaticImportance.uniform()).strategy("greedy").sharing(SharingOptions.on().withMargin("default"))
        .place(request);
    assertThat(off.plan().orElseThrow().stages()).allMatch(s -> s.placement() instanceof Whole);
    assertThat(off.shareMargins()).isEmpty();
    if (on.plan().orElseThrow().stages().stream().allMatch(s -> s.placement() instanceof Whole)) {
      assertThat(on.shareMargins()).isEmpty();
      assertThat(on.plan()).isEqualTo(off.plan());
    }
  }

  @Test
  void theMarginIsTheSharingOptionSharingMarginNamedAndParsedLikeColocatesMargin() {
    StrategyOptions margined = SharingOptions.on().withMargin("default").applyTo(StrategyOptions.defaults());
    // the default (each tier's own margin) is left out of the options, as every default is; a margin-free plan says none
    assertThat(margined.extra()).containsExactly(Map.entry("sharing", "on"));
    assertThat(SharingOptions.in(margined)).isEqualTo(SharingOptions.on().withMargin("default")).isEqualTo(SharingOptions.on());
    assertThat(SharingOptions.in(margined).margins()).isEqualTo(TierMargins.defaults());
    assertThat(SharingOptions.on().margins()).isEqualTo(TierMargins.defaults());
    assertThat(SharingOptions.of(ExtraOptions.of(StrategyOptions.builder().putExtra("sharing", "on").build(), "sharing", SharingOptions.KEYS))
        .margins()).isEqualTo(TierMargins.defaults());
    assertThat(SharingOptions.on().withMargin("none").applyTo(StrategyOptions.defaults()).extra()).containsEntry("sharingMargin", "none");
    assertThat(SharingOptions.on().withMargin("none").margins()).isEqualTo(TierMargins.none());
    assertThat(SharingOptions.on().withMargin("0.1").margins()).isEqualTo(TierMargins.uniform(0.1));
    assertThat(SharingOptions.off().margins()).isEqualTo(TierMargins.none());
    assertThatThrownBy(() -> SharingOptions.on().withMargin("lots")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("options.extra.sharingMargin").hasMessageContaining("lots");
    // the options name the margin and the performance model applies it: a problem where they disagree is refused
    StrategyOptions byDefault = margined;
    assertThatThrownBy(() -> new PlacementProblem(request, state, StaticImportance.uniform(), PerformanceModel.defaults(), byDefault))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("options.extra.sharingMargin").hasMessageContaining("Maybe");
    assertThat(PlacementProblem.of(request, state, StaticImportance.uniform(), byDefault).performance().shareMargins()).isEqualTo(TierMargins.defaults());
  }
}
