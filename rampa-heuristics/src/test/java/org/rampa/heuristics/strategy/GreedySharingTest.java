package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.rampa.Rampa;
import org.rampa.catalog.ClusterPresets;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Whole;
import org.rampa.heuristics.importance.ImportanceModels;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.importance.ImportanceModel;
import org.rampa.importance.StaticImportance;
import org.rampa.perf.share.TierMargins;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.PlacementStrategy;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.strategy.StrategyOptions;
import org.rampa.testing.BruteForcePlacement;
import org.rampa.testing.DecodeServices;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;
import org.rampa.testing.TinyPlacementProblems;
import org.rampa.testing.TinySharedProblems;
import org.rampa.verify.InterferenceGuard;
import org.rampa.verify.PlanVerifier;

/**
 * "greedy" on shared GPUs ({@code sharing=on}): its plans pass the verifier with every incumbent's
 * SLO, never beat the brute-force optimum over the same menu, exist whenever the whole-GPU search
 * finds one, and take MPS room where no whole GPU is left; with sharing off it is the greedy it was.
 */
class GreedySharingTest {

  private final PlacementStrategy greedy = Strategies.named("greedy");

  private static PlacementProblem withOptions(PlacementProblem p, StrategyOptions options) {
    return new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(), options);
  }

  @Test
  void onTinySharedClustersPlansAreVerifiedNeverBelowTheOptimumAndFoundWheneverWholeGpusSuffice() {
    checkOnTinyClusters("shared GPUs", seed -> TinySharedProblems.generate(seed, 4));
  }

  /** The same on NPUs whose templates the menu offers (free NPUs and the free cores of partly used ones). */
  @Test
  void onTinyNpuClustersTemplatePlansAreVerifiedNeverBelowTheOptimumAndFoundWheneverWholeNpusSuffice() {
    checkOnTinyClusters("NPU templates", seed -> TinySharedProblems.generateNpu(seed, 4, 4));
  }

  /** The same on MI100s whose CU-mask levels the menu offers. */
  @Test
  void onTinyMi100ClustersCuMaskPlansAreVerifiedNeverBelowTheOptimumAndFoundWheneverWholeGpusSuffice() {
    checkOnTinyClusters("MI100 CU masks", seed -> TinySharedProblems.generateMi100(seed, 4, 4));
  }

  /**
   * The tiny instances are generated with {@code sharingMargin=none}; under the default margins (the
   * placement API's default), greedy's plans still pass the verifier and never beat the brute-force
   * optimum, both judged on the same margined times.
   */
  @Test
  void underTheDefaultShareMarginsGreedyNeverBeatsTheOptimumOnTheSameMarginedTimes() {
    int[] counts = new int[3]; // optimum exists, greedy found, greedy used a share
    Property.forSeeds("greedy under default margins", 40, seed -> {
      PlacementProblem nominal = TinySharedProblems.generate(seed, 4);
      StrategyOptions options = SharingOptions.in(nominal.options()).withMargin("default").applyTo(nominal.options());
      PlacementProblem shared = new PlacementProblem(nominal.request(), nominal.state(), nominal.importance(),
          PlacementProblem.performanceFor(options), options);
      assertThat(shared.performance().shareMargins()).isEqualTo(TierMargins.defaults());
      Optional<BruteForcePlacement.Optimum> optimum = BruteForcePlacement.solve(shared, SharingOptions.on());
      PlacementResult on = greedy.place(shared);
      counts[0] += optimum.isPresent() ? 1 : 0;
      if (on.status().hasPlan()) {
        counts[1]++;
        Plan plan = on.plan().get();
        assertThat(new PlanVerifier(shared.performance(), shared.interference()).verify(shared.request(), plan, shared.state()).violations())
            .isEmpty();
        assertThat(optimum).isPresent();
        assertThat(plan.cost()).isGreaterThanOrEqualTo(optimum.get().cost() - 1e-9);
        counts[2] += plan.stages().stream().anyMatch(s -> !(s.placement() instanceof Whole)) ? 1 : 0;
      }
    });
    System.out.printf("greedy on shared GPUs under the default margins: optimum exists %d/40, greedy found %d (%d using a share)%n",
        counts[0], counts[1], counts[2]);
    assertThat(counts[1]).as("plans found").isPositive();
  }

  private void checkOnTinyClusters(String label, LongFunction<PlacementProblem> generate) {
    int[] counts = new int[4]; // optimum exists, greedy found, greedy used a share, whole-GPU greedy found
    Property.forSeeds("greedy on " + label, 40, seed -> {
      PlacementProblem shared = generate.apply(seed);
      PlacementProblem whole = withOptions(shared, SharingOptions.off().applyTo(shared.options()));
      Optional<BruteForcePlacement.Optimum> optimum = BruteForcePlacement.solve(shared, SharingOptions.on());
      PlacementResult on = greedy.place(shared);
      PlacementResult off = greedy.place(whole);
      counts[0] += optimum.isPresent() ? 1 : 0;
      assertThat(on.status()).isNotEqualTo(SolveStatus.INFEASIBLE); // with sharing, greedy proves nothing
      if (off.status().hasPlan()) {
        counts[3]++;
        assertThat(on.status().hasPlan()).as("sharing on finds a plan whenever sharing off does").isTrue();
      }
      if (on.status().hasPlan()) {
        counts[1]++;
        Plan plan = on.plan().get();
        assertThat(new PlanVerifier(shared.performance(), shared.interference()).verify(shared.request(), plan, shared.state()).violations())
            .isEmpty();
        assertThat(InterferenceGuard.defaults().refusals(shared.state(), shared.request(), plan)).isEmpty();
        assertThat(optimum).isPresent();
        assertThat(plan.cost()).isGreaterThanOrEqualTo(optimum.get().cost() - 1e-9);
        counts[2] += plan.stages().stream().anyMatch(s -> !(s.placement() instanceof Whole)) ? 1 : 0;
      }
    });
    System.out.printf("greedy on %s: optimum exists %d/40, greedy found %d (%d using a share), whole-GPU greedy %d%n", label,
        counts[0], counts[1], counts[2], counts[3]);
    assertThat(counts[2]).as("plans that use a share").isGreaterThan(0);
    assertThat(counts[1]).as("sharing finds plans where whole GPUs do not").isGreaterThan(counts[3]);
  }

  @Test
  void whereEveryWholeGpuIsTakenButMpsRoomIsLeftTheNewcomerTakesAShare() {
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 1), 2, ClusterPresets.NETWORK_100G);
    String a = cluster.gpus().get(0).id();
    String b = cluster.gpus().get(1).id();
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    DecodeServices.Admission chat = services.service("chat", a, new MpsShare(0.5, services.memory()), 1.2);
    ClusterState state = InterferenceGuard.defaults().admit(ClusterState.empty(cluster).allocate(RandomInstances.holdPlan("hold", b)),
        chat.request(), chat.plan());
    ServiceRequest request = ServiceRequest.builder().id("new").model(ModelCatalog.decode("llama2-7b", 512))
        .slo(Slo.of(1, Duration.ofMillis((long) Math.ceil(4000 * services.service("x", a, new Whole(), 1).aloneSeconds())), 1)).build();

    PlacementProblem off = PlacementProblem.of(request, state, StaticImportance.uniform(), StrategyOptions.defaults());
    assertThat(greedy.place(off).status()).isEqualTo(SolveStatus.INFEASIBLE);

    // on the nominal times: chat was admitted with 20 % slack, which the default margins' re-timing of it would not leave (SharingMarginTest)
    SharingOptions nominal = SharingOptions.on().withMargin("none");
    PlacementProblem on = PlacementProblem.of(request, state, StaticImportance.uniform(), nominal.applyTo(StrategyOptions.defaults()));
    PlacementResult result = greedy.place(on);
    assertThat(result.status()).isEqualTo(SolveStatus.FEASIBLE);
    assertThat(result.plan().get().stages()).singleElement().satisfies(s -> {
      assertThat(s.gpus()).containsExactly(a);
      assertThat(s.placement()).isInstanceOf(MpsShare.class);
    });
    assertThat(result.mpsFaultDomains()).containsEntry(a, List.of("chat", "new"));

    // the fluent API and the holder's admit path take the shared plan, with its request for later re-timing
    PlacementResult fluent = Rampa.on(state).importance(StaticImportance.uniform()).strategy("greedy").sharing(nominal).place(request);
    assertThat(fluent.plan()).isEqualTo(result.plan());
    ClusterStateHolder holder = new ClusterStateHolder(state);
    ClusterStateHolder.CommitResult commit = holder.admit(request, fluent.plan().get(), state.version(), InterferenceGuard.defaults());
    assertThat(commit.outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    assertThat(holder.current().servicesOn(a)).containsExactly("chat", "new");
  }

  @Test
  void everyImportanceModelPricesTheSharesGreedyTakes() {
    // two A100 nodes: one GPU shared by chat (MPS 0.5, room for co-runners), one held whole, two free
    Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 2), 2, ClusterPresets.NETWORK_100G);
    List<String> gpus = cluster.gpus().stream().map(g -> g.id()).toList();
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    DecodeServices.Admission chat = services.service("chat", gpus.get(0), new MpsShare(0.5, services.memory()), 1.2);
    ClusterState state = InterferenceGuard.defaults().admit(
        ClusterState.empty(cluster).allocate(RandomInstances.holdPlan("hold", gpus.get(1))), chat.request(), chat.plan());
    ServiceRequest decode = ServiceRequest.builder().id("decode").model(ModelCatalog.decode("llama2-7b", 512))
        .slo(Slo.of(1, Duration.ofSeconds(1), 1)).build();
    WorkloadForecast forecast = WorkloadForecast.builder().add(decode, 1).build();
    ServiceRequest request = ServiceRequest.builder().from(decode).id("new").build();
    for (ImportanceModel importance : List.of(ImportanceModels.capability(), ImportanceModels.fragmentation(),
        ImportanceModels.scarcity(forecast), ImportanceModels.marginalAcceptanceLoss(forecast),
        ImportanceModels.combination().add(1, ImportanceModels.capability()).add(2, ImportanceModels.scarcity(forecast)).build())) {
      PlacementProblem on = PlacementProblem.of(request, state, importance, SharingOptions.on().applyTo(StrategyOptions.defaults()));
      PlacementResult result = greedy.place(on);
      assertThat(result.status()).as(importance.name()).isEqualTo(SolveStatus.FEASIBLE);
      Plan plan = result.plan().get();
      assertThat(plan.cost()).as(importance.name()).isCloseTo(importance.evaluate(state).of(plan, state), org.assertj.core.data.Offset.offset(1e-9));
      PlacementResult whole = greedy.place(PlacementProblem.of(request, state, importance, StrategyOptions.defaults()));
      assertThat(plan.cost()).as(importance.name()).isLessThanOrEqualTo(whole.plan().get().cost() + 1e-9);
      System.out.printf("greedy with sharing under %s: %s, cost %.4g (whole GPUs: %.4g)%n", importance.name(),
          plan.stages().stream().map(s -> s.gpus() + " " + s.placement().label()).toList(), plan.cost(), whole.plan().get().cost());
    }
  }

  @Test
  void withSharingOffEveryHeuristicPlansAsBeforeSharingExisted() throws Exception {
    // SHA-256 of the heuristics' plans (sharing off) on tiny instances, recorded on main before sharing existed
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    Map<String, String> plans = new LinkedHashMap<>();
    for (long seed = 1; seed <= 60; seed++) {
      PlacementProblem problem = TinyPlacementProblems.generate(seed, 6, 5);
      for (String name : List.of("greedy", "dp", "performance-first", "fewest-gpus", "even-split", "compute-balanced", "first-fit")) {
        PlacementResult result = Strategies.named(name).place(problem);
        String line = seed + " " + name + " " + result.status() + " " + result.plan().map(GreedySharingTest::describe).orElse("-");
        plans.put(seed + name, line);
        digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    String hash = HexFormat.of().formatHex(digest.digest());
    assertThat(hash).as(String.join("\n", plans.values())).isEqualTo(RECORDED_WHOLE_GPU_PLANS);
  }

  /** Everything a plan decides and predicts, none of the timing of the search. */
  private static String describe(Plan p) {
    StringBuilder b = new StringBuilder().append(p.cost()).append(' ').append(p.period().toNanos()).append(' ').append(p.latency().toNanos());
    p.stages().forEach(s -> b.append(" [").append(s.from()).append(',').append(s.to()).append(')').append(s.gpus()).append(s.placement().label()));
    return b.toString();
  }

  private static final String RECORDED_WHOLE_GPU_PLANS = "ea94f99ab2b346c01f14c43bd05f53fc3649f3d422e6006cece9175bfcd02aa8";
}
