package org.rampa.heuristics.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.function.DoublePredicate;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SharingOptions;
import org.rampa.testing.TinyPlacementProblems;
import org.rampa.testing.TinySharedProblems;

/**
 * The bound's Lagrangian tables are built one at a time as the search needs them and shared across
 * decisions with the same inputs: neither may change a value the search orders or prunes by. On
 * seeded instances, random queries asked lazily (before the tables are built, with a random
 * incumbent) agree with the full bound asked afterwards: the same value whenever the full bound
 * leaves the label a chance, and a value that is pruned whenever the full bound prunes it; and a
 * search that finds the tables built by an earlier one answers exactly as that one did.
 */
class RelaxationBoundTest {

  @Test
  void lazyPrioritiesAgreeWithTheFullBoundOnWholeGpus() {
    check(70_000, 120, seed -> TinyPlacementProblems.generate(seed, 8, 6));
  }

  @Test
  void lazyPrioritiesAgreeWithTheFullBoundOnShares() {
    check(80_000, 40, seed -> {
      PlacementProblem p = TinySharedProblems.generate(seed, 6, 4);
      return new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(), SharingOptions.on().withMargin("none").applyTo(p.options()));
    });
  }

  /**
   * What {@link RefusedCosts} relies on: where the bound refuses a path of some cost (no chance
   * against the incumbent), it refuses every costlier one at the same boundary, stage count and
   * latency, and needs no more of its tables to do so (so remembering the refusal changes neither the
   * search nor its statistics).
   */
  @Test
  void refusalIsMonotoneInCostAndNeedsNoMoreTables() {
    int refusals = 0;
    for (long seed = 90_000; seed < 90_060; seed++) {
      PlacementProblem p = TinyPlacementProblems.generate(seed, 8, 6);
      LabelSettingOptions options = LabelSettingOptions.of(p.options());
      int layers = p.request().model().size();
      int maxStages = p.request().maxStages();
      double root = new LabelSearch(p, options).bound().priority(0, 0, 0, 0, v -> false);
      double scale = root > 0 && root < Double.POSITIVE_INFINITY ? root : 1;
      SplittableRandom r = new SplittableRandom(seed);
      for (int q = 0; q < 100; q++) {
        int boundary = r.nextInt(layers);
        int stages = r.nextInt(maxStages);
        double latency = r.nextDouble() * 2;
        double limit = r.nextDouble() * 3 * scale;
        double cost = r.nextDouble() * scale;
        double more = cost + r.nextDouble() * scale * (r.nextBoolean() ? 1 : 1e-9);
        // fresh bounds: each counts the tables its own queries needed
        RelaxationBound first = new LabelSearch(p, options).bound();
        if (first.priority(cost, boundary, stages, latency, v -> v < limit) < limit) {
          continue;
        }
        refusals++;
        RelaxationBound second = new LabelSearch(p, options).bound();
        String msg = "seed " + seed + " query " + q;
        assertThat(second.priority(more, boundary, stages, latency, v -> v < limit)).as(msg).isGreaterThanOrEqualTo(limit);
        assertThat(second.latencyTablesUsed()).as(msg).isLessThanOrEqualTo(first.latencyTablesUsed());
      }
    }
    assertThat(refusals).as("queries the bound refused").isGreaterThan(500);
  }

  private static void check(long firstSeed, int instances, LongFunction<PlacementProblem> generate) {
    int comparedWithLagrangian = 0;
    for (long seed = firstSeed; seed < firstSeed + instances; seed++) {
      PlacementProblem p = generate.apply(seed);
      LabelSettingOptions options = LabelSettingOptions.of(p.options());
      LabelSearch search = new LabelSearch(p, options);
      RelaxationBound bound = search.bound();
      int layers = p.request().model().size();
      int maxStages = p.request().maxStages();
      // the plain bound alone: a test no sum passes stops at it
      double root = bound.priority(0, 0, 0, 0, v -> false);
      double scale = root > 0 && root < Double.POSITIVE_INFINITY ? root : 1;
      SplittableRandom r = new SplittableRandom(seed);
      int queries = 200;
      int[] boundary = new int[queries];
      int[] stages = new int[queries];
      double[] latency = new double[queries];
      double[] spent = new double[queries];
      double[] incumbent = new double[queries];
      double[] lazy = new double[queries];
      for (int q = 0; q < queries; q++) {
        boundary[q] = r.nextInt(layers + 1);
        stages[q] = r.nextInt(maxStages + 1);
        latency[q] = r.nextDouble() * 2;
        spent[q] = r.nextDouble() * scale;
        incumbent[q] = r.nextDouble() * 3 * scale;
        double limit = incumbent[q];
        lazy[q] = bound.priority(spent[q], boundary[q], stages[q], latency[q], v -> v < limit);
      }
      comparedWithLagrangian += bound.latencyTablesUsed() > 0 ? 1 : 0;
      for (int q = 0; q < queries; q++) {
        double full = spent[q] + bound.costToGo(boundary[q], stages[q], latency[q]);
        double limit = incumbent[q];
        DoublePredicate viable = v -> v < limit;
        String msg = "seed " + seed + " query " + q;
        assertThat(full).as(msg).isGreaterThanOrEqualTo(bound.priority(spent[q], boundary[q], stages[q], latency[q], v -> false));
        if (viable.test(full)) {
          assertThat(lazy[q]).as(msg).isEqualTo(full);
        } else {
          assertThat(viable.test(lazy[q])).as(msg + ": pruned by the full bound, not by the lazy one").isFalse();
        }
      }
      PlacementResult first = new LabelSearch(p, options).run();
      PlacementResult again = new LabelSearch(p, options).run();
      assertThat(again.status()).isEqualTo(first.status());
      assertThat(again.plan()).isEqualTo(first.plan());
      assertThat(again.reason()).isEqualTo(first.reason());
      assertThat(again.statistics()).isEqualTo(first.statistics());
    }
    assertThat(comparedWithLagrangian).as("instances whose queries needed a Lagrangian table").isGreaterThan(instances / 10);
  }
}
