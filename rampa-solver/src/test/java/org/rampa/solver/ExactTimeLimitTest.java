package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.PlacementResult;
import org.rampa.strategy.SolveStatus;
import org.rampa.strategy.StrategyOptions;
import org.rampa.solver.flow.IntervalFlowFormulation;

/**
 * The time limit covers the whole call, model building included, on the problem's ticker. A fake
 * ticker that advances a fixed step on every reading stands in for a slow machine, so the test
 * does not depend on this one's speed.
 */
class ExactTimeLimitTest {

  /** Advances {@code stepNanos} on every reading. */
  private static final class SteppingTicker implements LongSupplier {
    final AtomicLong now = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    final long stepNanos;

    SteppingTicker(long stepNanos) {
      this.stepNanos = stepNanos;
    }

    @Override
    public long getAsLong() {
      reads.incrementAndGet();
      return now.addAndGet(stepNanos);
    }
  }

  private static PlacementProblem problem(Duration limit, LongSupplier ticker) {
    PlacementProblem p = TransformerClusters.problem(64, 32, 1);
    return new PlacementProblem(p.request(), p.state(), p.importance(), p.performance(),
        StrategyOptions.builder().from(p.options()).timeLimit(limit).extra(Map.of()).build(), ticker);
  }

  @Test
  void aLimitSpentWhileBuildingTheModelStopsTheCallWithoutSolving() {
    for (ExactStrategy strategy : new ExactStrategy[] {ExactStrategy.scip(), ExactStrategy.cpSat()}) {
      // 1 ms per reading against a 20 ms limit: the budget runs out while the relaxation is built
      SteppingTicker ticker = new SteppingTicker(1_000_000);
      PlacementResult r = strategy.place(problem(Duration.ofMillis(20), ticker));
      assertThat(r.status()).as(strategy.name() + ": " + r).isEqualTo(SolveStatus.NO_SOLUTION_IN_TIME);
      assertThat(r.reason()).contains("time limit of PT0.02S ran out before the relaxed model was solved");
      // the reason says when, on the same clock as the reported solve time
      assertThat(r.reason()).contains(String.format(java.util.Locale.ROOT, "(%.3f s into the call, while building it)", r.solveTime().toNanos() * 1e-9));
      assertThat(r.statistics()).doesNotContainKey("solverMillis");
      // the call noticed within a few readings of the limit, not after building everything
      assertThat(r.solveTime()).isBetween(Duration.ofMillis(20), Duration.ofMillis(25));
    }
  }

  @Test
  void buildingTheCoLocationModelAsksTheClockWhileWritingItsRows() {
    // writing the rows of a large co-location model took hundreds of milliseconds past a 100 ms limit
    PlacementProblem p = TransformerClusters.problem(64, 80, 1);
    AtomicInteger asks = new AtomicInteger();
    IntervalFlowFormulation f = new IntervalFlowFormulation(p.request(), p.state(), p.importance().evaluate(p.state()),
        p.performance(), IntervalFlowFormulation.Charging.NETWORK, () -> asks.incrementAndGet() < 0);
    assertThat(f.slots).isNotEmpty();
    // once per first layer of the arcs, then at least once per slot and GPU type in the GPU-count rows
    assertThat(asks.get()).isGreaterThan(f.layers() + f.slots.size() * f.types.size());
  }

  @Test
  void solveTimeIsReadFromTheProblemsTicker() {
    PlacementResult frozen = ExactStrategy.scip().place(problem(Duration.ofSeconds(60), new SteppingTicker(0)));
    assertThat(frozen.status().hasPlan()).as(frozen.toString()).isTrue();
    assertThat(frozen.solveTime()).isZero();
  }
}
