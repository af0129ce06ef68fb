package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.domain.Plan;
import org.rampa.domain.share.Whole;
import org.rampa.importance.GpuCosts;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.Strategies;
import org.rampa.testing.TinySharedProblems;
import org.rampa.solver.flow.IntervalFlowFormulation;

/**
 * MIP starts from plans on shares ({@link IntervalFlowFormulation#hint}), on the seeded tiny shared
 * clusters of the oracle tests: exact's own optimal plans on shares become starts that keep every
 * row of the relaxation (and, where they rely on no intra-node link, of the network-only and
 * co-location models) at no more than their cost, and exact started from greedy's shared plan
 * answers what it answers without a start.
 */
class ExactSharedHintTest {

  @Test
  void plansOnSharesAreStartsThatKeepEveryRow() {
    ExactStrategy exact = ExactStrategy.scip();
    int shared = 0;
    int relaxed = 0;
    int colocation = 0;
    for (long seed = 0; seed < 120; seed++) {
      PlacementProblem p = TinySharedProblems.generate(seed, 6, 4);
      Optional<Plan> found = exact.place(p).plan();
      if (found.isEmpty() || found.get().stages().stream().allMatch(s -> s.placement() instanceof Whole)) {
        continue;
      }
      Plan plan = found.get();
      shared++;
      String context = "seed " + seed + ", start " + plan;
      // the relaxation charges every cut at most what the plan really pays: its start keeps every row
      Optional<double[]> start = startIn(p, IntervalFlowFormulation.Charging.OPTIMISTIC, plan, context);
      relaxed += start.isPresent() ? 1 : 0;
      // a plan the network-only model admits (no cut relies on an intra-node link) is a start of the co-location model too
      if (startIn(p, IntervalFlowFormulation.Charging.NETWORK_ONLY, plan, context).isPresent()) {
        assertThat(startIn(p, IntervalFlowFormulation.Charging.NETWORK, plan, context)).as(context).isPresent();
        colocation++;
      }
    }
    System.out.printf("shared starts: of %d optimal plans on shares, %d start the relaxation, %d the network-only and "
        + "co-location models%n", shared, relaxed, colocation);
    assertThat(relaxed).as("plans on shares the relaxation takes as a start").isGreaterThanOrEqualTo(shared * 3 / 4);
    assertThat(colocation).as("plans on shares the co-location model takes as a start").isPositive();
  }

  /** {@code plan}'s start in the model of {@code charging}, when it keeps every row (checked: at most the plan's cost). */
  private static Optional<double[]> startIn(PlacementProblem p, IntervalFlowFormulation.Charging charging, Plan plan, String context) {
    GpuCosts costs = p.importance().evaluate(p.state());
    IntervalFlowFormulation f = new IntervalFlowFormulation(p.request(), p.state(), costs, p.performance(), charging, () -> false,
        SharedSlotMenu.of(p, SharingOptions.on(), costs), p.interference());
    Optional<double[]> start = f.hint(plan).filter(f.model::admits);
    start.ifPresent(h -> assertThat(f.model.objectiveValue(h)).as(context + " " + charging).isLessThanOrEqualTo(plan.cost() + 1e-9));
    return start;
  }

  @Test
  void startingFromGreedysSharedPlanChangesNoAnswer() {
    ExactStrategy cold = ExactStrategy.scip();
    ExactStrategy warm = ExactStrategy.scip().withWarmStart(Strategies.named("greedy"));
    int used = 0;
    for (long seed = 0; seed < 60; seed++) {
      PlacementProblem p = TinySharedProblems.generate(seed, 6, 4);
      PlacementResult a = cold.place(p);
      PlacementResult b = warm.place(p);
      assertThat(b.status()).as("seed %d: %s vs %s", seed, a, b).isEqualTo(a.status());
      if (a.status() == SolveStatus.OPTIMAL) {
        assertThat(b.plan().orElseThrow().cost()).as("seed %d", seed).isCloseTo(a.plan().orElseThrow().cost(),
            org.assertj.core.data.Offset.offset(1e-9));
      }
      used += b.statistics().getOrDefault("warmStartUsed", 0.0) > 0 ? 1 : 0;
    }
    System.out.printf("exact warm-started by greedy's shared plan: the same answers on 60 tiny shared instances, %d used the start%n", used);
  }
}
