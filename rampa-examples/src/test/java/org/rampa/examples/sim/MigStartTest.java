package org.rampa.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigSlice;
import org.rampa.examples.experiment.Presets;
import org.rampa.examples.experiment.Schedulers;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.strategy.StrategyOptions;

/** Starting a simulation from configured MIG layouts (issue 25's MIG-heavy E4). */
class MigStartTest {

  private static final String FIELD = "--mig-layouts";
  private final Cluster small = Presets.cluster("small");

  @Test
  void migHeavyPutsEveryA100AndH100InTheMixedLayoutAndEveryLayoutIsLegalOnItsGeometry() {
    MigStart start = MigStart.parse(FIELD, List.of("mig-heavy"), small);
    List<String> migCapable = small.gpus().stream().filter(g -> small.typeOf(g.id()).partitioning().mig().isPresent()).map(Gpu::id).toList();
    assertThat(migCapable).hasSize(16);
    assertThat(start.layouts().keySet()).containsExactlyElementsOf(migCapable);
    start.layouts().forEach((gpu, layout) -> {
      assertThat(MigLayout.check(small.typeOf(gpu).partitioning().requireMig(), layout)).as(gpu).isEmpty();
      assertThat(layout).extracting(MigSlice::start).containsExactly(4, 0, 2, 3);
    });
    String a100 = migCapable.stream().filter(g -> small.typeOf(g).name().startsWith("A100")).findFirst().orElseThrow();
    assertThat(start.layouts().get(a100)).containsExactly(new MigSlice("3g.40gb", 4), new MigSlice("2g.20gb", 0),
        new MigSlice("1g.10gb", 2), new MigSlice("1g.10gb", 3));
    assertThat(MigStart.parse(FIELD, List.of("none"), small).layouts()).isEmpty();
  }

  @Test
  void anExplicitEntryConfiguresTheFirstFractionOfTheTypesGpusInClusterOrder() {
    String type = a100Type();
    MigStart start = MigStart.parse(FIELD, List.of(type + "=4g.40gb@0+3g.40gb@4:0.5"), small);
    List<String> ofType = small.gpus().stream().filter(g -> g.type().equals(type)).map(Gpu::id).toList();
    assertThat(start.layouts().keySet()).containsExactlyElementsOf(ofType.subList(0, ofType.size() / 2));
    assertThat(start.layouts().values()).allSatisfy(l -> assertThat(l).containsExactly(new MigSlice("4g.40gb", 0), new MigSlice("3g.40gb", 4)));
  }

  @Test
  void badPoliciesNameTheFieldTheValueAndTheRule() {
    String a100 = a100Type();
    bad(List.of("A999=1g.10gb@0"), "A999=1g.10gb@0", "not in the cluster", "Maybe one of");
    bad(List.of("T4=1g.10gb@0"), "T4=1g.10gb@0", "has no MIG geometry");
    bad(List.of(a100 + "=3g.40gb@2"), "3g.40gb@2", "MIG_START", "may start only at memory slices [0, 4]");
    bad(List.of(a100 + "=4g.40gb@0+3g.40gb@0"), "4g.40gb@0+3g.40gb@0", "is not a legal MIG layout");
    bad(List.of(a100 + "=5g.50gb@0"), "5g.50gb@0", "MIG_PROFILE");
    bad(List.of(a100 + "=3g.40gb@4:0"), ":0", "must lie in (0, 1]");
    bad(List.of(a100 + "=3g.40gb@x"), "3g.40gb@x", "not a whole number");
    bad(List.of(a100 + "=3g.40gb"), "3g.40gb", "must be PROFILE@START");
    bad(List.of("heavy"), "heavy", "must be none, mig-heavy or TYPE=");
    bad(List.of("mig-heavy", a100 + "=3g.40gb@4"), "mig-heavy", "cannot be combined");
    bad(List.of(a100 + "=3g.40gb@4", a100 + "=2g.20gb@0"), "2g.20gb@0", "names GPU type " + a100 + " twice");
    Cluster noMig = ClusterPresets.mixed(new int[] {1, 1, 0, 0}, 2);
    bad(noMig, List.of("mig-heavy"), "mig-heavy", "no GPU type of the cluster has a MIG geometry");
  }

  /** The layouts reach every run: on a cluster all in MIG mode only MIG instances can be held, so whole-GPU planning admits nothing. */
  @Test
  void everyRunStartsFromTheLayoutsAndSharingPlansOnTheirInstances() {
    Cluster a100s = ClusterPresets.mixed(new int[] {0, 0, 1, 0}, 4);
    WorkloadForecast light = WorkloadSpec.lightMix().resolve(a100s);
    MigStart heavy = MigStart.parse(FIELD, List.of("mig-heavy"), a100s);
    Optional<StrandedCapacity> measured = Optional.of(new StrandedCapacity(a100s, light));
    Simulator configured = new Simulator(a100s, light, measured, heavy);
    assertThat(configured.start().migLayouts()).isEqualTo(heavy.layouts());
    assertThat(configured.start().allocations()).isEmpty();
    ArrivalTrace trace = ArrivalTrace.poisson(light, 8.0 / 3600, 3600, 30, 3);
    StrategyOptions options = StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).seed(3).build();
    RunResult whole = configured.run(Schedulers.named("rampa-greedy/capability", options), trace, 8, 3);
    assertThat(whole.admitted()).isZero();
    RunResult unconfigured = new Simulator(a100s, light, measured).run(Schedulers.named("rampa-greedy/capability", options), trace, 8, 3);
    assertThat(unconfigured.admitted()).isPositive();
    RunResult shared = configured.run(Schedulers.named("rampa-greedy/capability+sharing", options), trace, 8, 3);
    assertThat(shared.admitted()).isPositive();
    assertThat(shared.capacity().sharedPlans()).isEqualTo(shared.admitted());
    assertThat(shared.capacity().audited()).isTrue();
    assertThat(shared.capacity().auditFindings()).isEmpty();
    assertThat(shared.violations()).isZero();
    // every refusal is broken down, the counts add up to the refusals
    assertThat(shared.capacity().refusals().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(shared.arrivals() - shared.admitted());
  }

  @Test
  void aStartLayoutIsOnlyAppliedToAnEmptyUnconfiguredState() {
    MigStart heavy = MigStart.parse(FIELD, List.of("mig-heavy"), small);
    ClusterState configured = heavy.apply(ClusterState.empty(small));
    assertThatThrownBy(() -> heavy.apply(configured)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("migStart.state").hasMessageContaining("empty, unconfigured");
    assertThat(MigStart.NONE.apply(configured)).isSameAs(configured);
  }

  private String a100Type() {
    return small.gpuTypes().stream().map(t -> t.name()).filter(n -> n.startsWith("A100")).findFirst().orElseThrow();
  }

  private void bad(List<String> entries, String value, String... rule) {
    bad(small, entries, value, rule);
  }

  private static void bad(Cluster cluster, List<String> entries, String value, String... rule) {
    assertThatThrownBy(() -> MigStart.parse(FIELD, entries, cluster)).as(entries.toString()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(FIELD + " = ").hasMessageContaining(value).hasMessageContaining(rule[0])
        .satisfies(e -> {
          for (String r : rule) {
            assertThat(e.getMessage()).contains(r);
          }
        });
  }
}
