package org.rampa.examples.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.examples.sim.DefragPolicy;
import org.rampa.examples.sim.DefragTrigger;
import org.rampa.examples.sim.MigStart;
import org.rampa.examples.sim.RunResult;
import org.rampa.strategy.StrategyOptions;

/** E4's "with moves" variant: the same arrivals, every admission and every moved service audited. */
class MovesExperimentTest {

  @Test
  void withMovesEveryAdmissionAndEveryMovedServiceIsAuditedAndTheMovesAreCounted(@TempDir Path dir) throws Exception {
    var settings = new SharingExperiment.Settings(Presets.cluster("small"), Map.of("light", List.of(384.0)), 120, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).build(), 2, true);
    List<SharingExperiment.WorkloadResult> results = new SharingExperiment(settings).run(() -> {});
    ExperimentResult r = results.get(0).result();
    assertThat(r.schedulers()).containsExactly("rampa-greedy/capability+sharing", "rampa-greedy/capability+sharing+moves");
    for (RunResult run : r.runs()) {
      assertThat(run.violations()).as(run.scheduler()).isZero();
      assertThat(run.capacity().auditFindings()).as(run.scheduler()).isEmpty();
      boolean moves = run.scheduler().endsWith(Schedulers.MOVES_SUFFIX);
      assertThat(run.capacity().admittedWithMoves()).isBetween(0, moves ? run.admitted() : 0);
      assertThat(run.capacity().moves()).isBetween(run.capacity().admittedWithMoves(), Schedulers.MOVE_BUDGET * run.capacity().admittedWithMoves());
      assertThat(run.capacity().defragMoves()).as("defragmentation is off by default").isZero();
    }
    List<SharingExperiment.Row> rows = SharingExperiment.summarise(results);
    assertThat(rows).extracting(SharingExperiment.Row::label)
        .containsExactly("rampa-greedy/capability, sharing on", "rampa-greedy/capability, sharing + moves");
    assertThat(rows.get(1).movesPerAdmitted()).isPresent();
    assertThat(rows.get(1).gainOverSharing()).isPresent();
    assertThat(rows.get(0).movesPerAdmitted()).isEmpty();
    SharingExperiment.writeCsv(results, dir.resolve("e4.csv"));
    // the bound with sharing's columns come after the old ones, which are unchanged
    assertThat(Files.readAllLines(dir.resolve("e4.csv")).get(0)).endsWith(",moves,admitted_with_moves,migrations,recuts,mode_changes,"
        + "defrag_moves,placement_changes,offline_bound_shared,offline_bound_shared_proven,offline_bound_shared_lp");
    assertThat(Files.readAllLines(dir.resolve("e4.csv")).get(2)).contains(",moves,");
    // a planner shared, so every trace has its bound with sharing, and no run admitted more
    assertThat(results.get(0).sharedBounds()).hasSize(1);
    int bound = results.get(0).sharedBounds().get(0).bound().admissions();
    assertThat(r.runs()).allSatisfy(run -> assertThat(run.admitted()).isLessThanOrEqualTo(bound));
    assertThat(rows).allSatisfy(row -> {
      assertThat(row.sharedBound()).hasValueSatisfying(i -> assertThat(i.mean()).isEqualTo(bound));
      assertThat(row.percentOfSharedBound()).hasValueSatisfying(i -> assertThat(i.mean()).isBetween(0.0, 100.0 + 1e-9));
    });
    SharingExperiment.writeSummaryCsv(rows, dir.resolve("e4-summary.csv"));
    List<String> summary = Files.readAllLines(dir.resolve("e4-summary.csv"));
    assertThat(summary.get(0)).contains(",slo_violations,offline_bound_shared_mean,").endsWith(",percent_of_offline_bound_shared_high");
    assertThat(summary.subList(1, summary.size())).allSatisfy(l -> assertThat(l.split(",", -1)).hasSize(summary.get(0).split(",").length));
  }

  /**
   * With a defragmentation budget the runs with moves defragment in quiet periods: each step was committed through the
   * ledger and every service on a GPU it changed audited (no finding, no violation), the defragmentation moves are counted
   * with the moves (by kind too), the admissions' moves stay within their budget, placement changes are migrations, and
   * the sharing-alone runs are the same runs as without defragmentation.
   */
  @Test
  void withADefragBudgetQuietPeriodsDefragmentAndEveryStepIsAuditedAndCounted(@TempDir Path dir) throws Exception {
    var cluster = Presets.cluster("small");
    StrategyOptions options = StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).build();
    MigStart mig = MigStart.parse("--mig-layouts", List.of("mig-heavy"), cluster);
    var settings = new SharingExperiment.Settings(cluster, Map.of("light", List.of(384.0)), 120, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), options, 2, true, mig, 2);
    List<SharingExperiment.WorkloadResult> results = new SharingExperiment(settings).run(() -> {});
    ExperimentResult r = results.get(0).result();
    assertThat(r.schedulers()).containsExactly("rampa-greedy/capability+sharing", "rampa-greedy/capability+sharing+moves+defrag2");
    RunResult alone = r.runs().get(0);
    RunResult defrag = r.runs().get(1);
    for (RunResult run : r.runs()) {
      assertThat(run.violations()).as(run.scheduler()).isZero();
      assertThat(run.capacity().auditFindings()).as(run.scheduler()).isEmpty();
      assertThat(run.capacity().moveKinds().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(run.capacity().moves());
      assertThat(run.capacity().placementChanges()).isLessThanOrEqualTo(run.capacity().moveKinds().getOrDefault("migrate", 0));
    }
    assertThat(defrag.capacity().defragMoves()).as("quiet periods defragmented").isPositive();
    int forAdmissions = defrag.capacity().moves() - defrag.capacity().defragMoves();
    assertThat(forAdmissions).isBetween(defrag.capacity().admittedWithMoves(), Schedulers.MOVE_BUDGET * defrag.capacity().admittedWithMoves());
    assertThat(alone.capacity().moves()).isZero();
    var without = new SharingExperiment(new SharingExperiment.Settings(cluster, Map.of("light", List.of(384.0)), 120, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), options, 2, false, mig)).run(() -> {});
    assertThat(without.get(0).result().runs().get(0).admitted()).isEqualTo(alone.admitted());
    List<SharingExperiment.Row> rows = SharingExperiment.summarise(results);
    assertThat(rows).extracting(SharingExperiment.Row::label)
        .containsExactly("rampa-greedy/capability, sharing on", "rampa-greedy/capability, sharing + moves");
    assertThat(rows.get(1).gainOverSharing()).isPresent();
    SharingExperiment.writeCsv(results, dir.resolve("e4.csv"));
    List<String> lines = Files.readAllLines(dir.resolve("e4.csv"));
    assertThat(lines.get(2)).startsWith("light,rampa-greedy/capability,moves,");
    List<String> header = List.of(lines.get(0).split(","));
    String[] row = lines.get(2).split(",", -1);
    assertThat(row[header.indexOf("defrag_moves")]).isEqualTo(String.valueOf(defrag.capacity().defragMoves()));
    assertThat(row[header.indexOf("placement_changes")]).isEqualTo(String.valueOf(defrag.capacity().placementChanges()));
  }

  /**
   * With the refusal trigger a quiet period is defragmented only after an arrival was refused since the last one: on a light
   * load that refuses a few arrivals, the quiet periods' moves stay within the budget per refused arrival, and fewer than
   * where every quiet period is defragmented; every step is audited as before.
   */
  @Test
  void withTheRefusalTriggerOnlyQuietPeriodsAfterARefusalAreDefragmented() {
    RunResult refusal = lightRunWithDefrag(false, DefragTrigger.REFUSAL);
    RunResult departure = lightRunWithDefrag(false, DefragTrigger.DEPARTURE);
    int refused = refusal.arrivals() - refusal.admitted();
    assertThat(refused).as("a light load that still refuses a few").isBetween(1, refusal.arrivals() / 10);
    // at most one quiet period defragmented per refusal, each within the budget of 2
    assertThat(refusal.capacity().defragMoves()).isBetween(0, 2 * refused);
    assertThat(departure.capacity().defragMoves()).as("every quiet period defragments").isGreaterThan(refusal.capacity().defragMoves());
  }

  /**
   * With the hybrid trigger every quiet period is defragmented, but with migrations only after a refusal: from the MIG-heavy
   * start on a light load, the run's migrations are at most the mover's (budget 2 per arrival admitted with moves) and the
   * budget of 2 per refused arrival, which defragmenting every quiet period with migrations exceeds; the quiet periods still
   * re-cut or change modes, and every step is audited as before.
   */
  @Test
  void withTheHybridTriggerQuietPeriodsMigrateOnlyAfterARefusal() {
    java.util.function.ToIntFunction<RunResult> migrationBound = r -> 2 * (r.capacity().admittedWithMoves() + r.arrivals() - r.admitted());
    RunResult hybrid = lightRunWithDefrag(true, DefragTrigger.HYBRID);
    RunResult departure = lightRunWithDefrag(true, DefragTrigger.DEPARTURE);
    assertThat(hybrid.capacity().moveKinds().getOrDefault("migrate", 0)).isLessThanOrEqualTo(migrationBound.applyAsInt(hybrid));
    assertThat(departure.capacity().moveKinds().getOrDefault("migrate", 0)).as("migrating in every quiet period")
        .isGreaterThan(migrationBound.applyAsInt(departure));
    assertThat(hybrid.capacity().moveKinds().getOrDefault("recut", 0) + hybrid.capacity().moveKinds().getOrDefault("mode", 0))
        .as("layout moves in quiet periods").isPositive();
  }

  /**
   * One seed of the light workload at load 24 on the small cluster, from the MIG-heavy or the empty start, with moves and a
   * defragmentation budget of 2 under {@code trigger}: its run with moves, after checking that no SLO was violated and every
   * audit passed.
   */
  private static RunResult lightRunWithDefrag(boolean migHeavy, DefragTrigger trigger) {
    var cluster = Presets.cluster("small");
    StrategyOptions options = StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).build();
    MigStart start = migHeavy ? MigStart.parse("--mig-layouts", List.of("mig-heavy"), cluster) : MigStart.NONE;
    var settings = new SharingExperiment.Settings(cluster, Map.of("light", List.of(24.0)), 120, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), options, 2, true, start, 2, new DefragPolicy(trigger, false, false));
    ExperimentResult r = new SharingExperiment(settings).run(() -> {}).get(0).result();
    assertThat(r.schedulers()).containsExactly("rampa-greedy/capability+sharing", "rampa-greedy/capability+sharing+moves+defrag2" + trigger.suffix());
    RunResult moves = r.runs().get(1);
    assertThat(moves.violations()).isZero();
    assertThat(moves.capacity().auditFindings()).isEmpty();
    return moves;
  }

  @Test
  void aDefragBudgetOutsideItsRangeOrWithoutMovesIsRefusedByName() {
    var cluster = Presets.cluster("small");
    StrategyOptions options = StrategyOptions.defaults();
    assertThatThrownBy(() -> new SharingExperiment.Settings(cluster, Map.of("light", List.of(384.0)), 10, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), options, 1, true, MigStart.NONE, 17))
        .hasMessageContaining("defragBudget").hasMessageContaining("17").hasMessageContaining("[0, 16]");
    assertThatThrownBy(() -> new SharingExperiment.Settings(cluster, Map.of("light", List.of(384.0)), 10, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), options, 1, false, MigStart.NONE, 2))
        .hasMessageContaining("defragBudget").hasMessageContaining("with-moves");
    assertThatThrownBy(() -> Schedulers.named("rampa-greedy/capability+sharing+moves+defrag0", options))
        .hasMessageContaining("+defrag0").hasMessageContaining("[1, 16]");
    assertThatThrownBy(() -> Schedulers.named("rampa-greedy/capability+defrag2", options))
        .hasMessageContaining("rampa-greedy/capability+defrag2").hasMessageContaining("needs a sharing planner");
    assertThat(Schedulers.named("rampa-greedy/capability+sharing+defrag3", options).create(cluster).defragBudget()).isEqualTo(3);
    assertThat(Schedulers.named("rampa-greedy/capability+sharing+moves", options).create(cluster).defragBudget()).isZero();
    assertThat(Schedulers.withMoves("rampa-greedy/capability+sharing+moves+defrag2")).isTrue();
    assertThat(Schedulers.withMoves("rampa-greedy/capability+sharing+defrag2")).isFalse();
    // the trigger and the forecast with pipelines follow the budget, in that order
    var refusal = Schedulers.named("rampa-greedy/capability+sharing+moves+defrag2-refusal-pipelines-guarded", options).create(cluster);
    assertThat(refusal.defragBudget()).isEqualTo(2);
    assertThat(refusal.defragPolicy()).isEqualTo(new DefragPolicy(DefragTrigger.REFUSAL, true, true));
    assertThat(Schedulers.named("rampa-greedy/capability+sharing+moves+defrag2-guarded", options).create(cluster).defragPolicy())
        .isEqualTo(new DefragPolicy(DefragTrigger.DEPARTURE, false, true));
    assertThat(Schedulers.named("rampa-greedy/capability+sharing+moves+defrag2", options).create(cluster).defragPolicy()).isEqualTo(DefragPolicy.DEFAULT);
    assertThat(Schedulers.withMoves("rampa-greedy/capability+sharing+moves+defrag2-pipelines")).isTrue();
    assertThat(Schedulers.named("rampa-greedy/capability+sharing+moves+defrag2-hybrid-guarded", options).create(cluster).defragPolicy())
        .isEqualTo(new DefragPolicy(DefragTrigger.HYBRID, false, true));
    assertThatThrownBy(() -> Schedulers.named("rampa-greedy/capability+sharing+moves+defrag2-refusal-hybrid", options))
        .hasMessageContaining("defrag2-refusal-hybrid");
    assertThatThrownBy(() -> Schedulers.named("rampa-greedy/capability+sharing+moves+defrag2-pipelines-refusal", options))
        .hasMessageContaining("defrag2-pipelines-refusal");
    assertThatThrownBy(() -> new SharingExperiment.Settings(cluster, Map.of("light", List.of(384.0)), 10, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), options, 1, true, MigStart.NONE, 0, new DefragPolicy(DefragTrigger.REFUSAL, false, false)))
        .hasMessageContaining("defragPolicy").hasMessageContaining("REFUSAL").hasMessageContaining("budget is 0");
  }

  /**
   * From the MIG-heavy start: every move of every kind (re-cuts and mode changes can arise only here) is audited with its
   * admission, the kinds add up to the moves, and every refusal is broken down and written out.
   */
  @Test
  void fromMigLayoutsTheMovesOfEveryKindAreAuditedAndCountedAndEveryRefusalIsBrokenDown(@TempDir Path dir) throws Exception {
    var cluster = Presets.cluster("small");
    var settings = new SharingExperiment.Settings(cluster, Map.of("standard", List.of(48.0)), 120, 3600, 1, 1,
        List.of("rampa-greedy/capability+sharing"), StrategyOptions.builder().timeLimit(Duration.ofSeconds(2)).build(), 2, true,
        MigStart.parse("--mig-layouts", List.of("mig-heavy"), cluster));
    List<SharingExperiment.WorkloadResult> results = new SharingExperiment(settings).run(() -> {});
    for (RunResult run : results.get(0).result().runs()) {
      assertThat(run.violations()).as(run.scheduler()).isZero();
      assertThat(run.capacity().audited()).isTrue();
      assertThat(run.capacity().auditFindings()).as(run.scheduler()).isEmpty();
      assertThat(run.capacity().moveKinds().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(run.capacity().moves());
      assertThat(run.capacity().moveKinds().keySet()).isSubsetOf("migrate", "recut", "mode");
      assertThat(run.capacity().refusals().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(run.arrivals() - run.admitted());
    }
    SharingExperiment.writeRefusalsCsv(results, dir.resolve("e4-refusals.csv"));
    List<String> lines = Files.readAllLines(dir.resolve("e4-refusals.csv"));
    assertThat(lines.get(0)).isEqualTo("workload,planner,sharing,offered_load,seed,class,demand,smallest_piece_gpu_eq,moves_to_room,count");
    assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l.split(",")).hasSize(10));
  }
}
