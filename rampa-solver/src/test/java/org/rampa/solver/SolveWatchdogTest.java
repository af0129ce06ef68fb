package org.rampa.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rampa.strategy.PlacementProblem;
import org.rampa.strategy.support.TimeBudget;
import org.rampa.solver.flow.IntervalFlowFormulation;
import org.rampa.solver.backend.LinearProgram;
import org.rampa.solver.backend.MilpBackend;
import org.rampa.solver.backend.ScipBackend;
import org.rampa.solver.backend.CpSatBackend;
import org.rampa.solver.backend.SolveWatchdog;

/**
 * The watchdog interrupts a solve once its deadline has passed and never after the solve is closed.
 * No test waits for a real deadline: the schedulers here either hand the watchdog's task to the test
 * to run by hand, or treat every deadline as already passed.
 */
class SolveWatchdogTest {

  /** Keeps the watchdog's tasks for the test to run; schedules nothing itself. */
  private static final class ManualScheduler extends ScheduledThreadPoolExecutor {
    final List<Runnable> tasks = new ArrayList<>();

    ManualScheduler() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
      tasks.add(command);
      return super.schedule(() -> {}, 1, TimeUnit.DAYS);
    }
  }

  /** Runs the watchdog's task at once and then at its repeat interval: every deadline has passed. */
  private static final class OverdueScheduler extends ScheduledThreadPoolExecutor {
    OverdueScheduler() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
      return super.scheduleWithFixedDelay(command, 0, delay, unit);
    }
  }

  private final List<ScheduledThreadPoolExecutor> schedulers = new ArrayList<>();

  private <S extends ScheduledThreadPoolExecutor> S scheduler(S s) {
    schedulers.add(s);
    return s;
  }

  @AfterEach
  void stopSchedulers() {
    schedulers.forEach(ScheduledThreadPoolExecutor::shutdownNow);
  }

  @Test
  void aSolveClosedBeforeItsDeadlineIsNeverInterrupted() {
    ManualScheduler scheduler = scheduler(new ManualScheduler());
    AtomicInteger interrupts = new AtomicInteger();
    SolveWatchdog.Guard guard = new SolveWatchdog(scheduler).arm(Duration.ofSeconds(1), interrupts::incrementAndGet);
    guard.close();
    // the deadline task was already taken by the scheduler's thread when the solve returned
    scheduler.tasks.get(0).run();
    assertThat(interrupts).hasValue(0);
    assertThat(guard.fired()).isZero();
  }

  @Test
  void anOverdueSolveIsInterruptedUntilItIsClosedAndNeverAfter() {
    ManualScheduler scheduler = scheduler(new ManualScheduler());
    AtomicInteger interrupts = new AtomicInteger();
    SolveWatchdog.Guard guard = new SolveWatchdog(scheduler).arm(Duration.ZERO, interrupts::incrementAndGet);
    Runnable task = scheduler.tasks.get(0);
    task.run();
    task.run(); // the repeat, for an interrupt that reached the solver before its search began
    assertThat(interrupts).hasValue(2);
    guard.close();
    // a late run must not reach the freed solver, nor another call's solver at the same address
    task.run();
    assertThat(interrupts).hasValue(2);
    assertThat(guard.fired()).isEqualTo(2);
  }

  @Test
  void guardsOfDifferentSolvesAreIndependent() {
    ManualScheduler scheduler = scheduler(new ManualScheduler());
    SolveWatchdog watchdog = new SolveWatchdog(scheduler);
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    watchdog.arm(Duration.ZERO, first::incrementAndGet).close();
    SolveWatchdog.Guard open = watchdog.arm(Duration.ofSeconds(1), second::incrementAndGet);
    scheduler.tasks.get(0).run(); // the first solve's task, firing late
    assertThat(first).hasValue(0);
    assertThat(second).hasValue(0);
    scheduler.tasks.get(1).run();
    assertThat(second).hasValue(1);
    open.close();
  }

  /**
   * The co-location model of a 1000-GPU, 80-block instance with the tight SLO, which SCIP does not
   * solve within 20 s and CP-SAT not within minutes (BENCHMARKS.md). Its budget is an hour on a
   * frozen clock, so the solvers' own limits never end the solve: an answer short of OPTIMAL shows
   * the watchdog stopped it.
   */
  @Test
  void theWatchdogStopsARealSolveWithItsBestIncumbentOrNone() {
    PlacementProblem p = TransformerClusters.problem(1000, 80, 1, true);
    LinearProgram model = new IntervalFlowFormulation(p.request(), p.state(), p.importance().evaluate(p.state()),
        p.performance(), IntervalFlowFormulation.Charging.NETWORK, () -> false).model;
    LongSupplier frozen = () -> 0;
    for (String name : new String[] {ScipBackend.NAME, CpSatBackend.NAME}) {
      SolveWatchdog watchdog = new SolveWatchdog(scheduler(new OverdueScheduler()));
      MilpBackend backend = name.equals(ScipBackend.NAME) ? new ScipBackend(watchdog) : new CpSatBackend(watchdog);
      MilpBackend.Solution s = backend.solve(model,
          new MilpBackend.Settings(TimeBudget.start(frozen, Duration.ofHours(1)), 1e-6, 1, Optional.empty(), ""));
      assertThat(s.outcome()).as(name).isIn(MilpBackend.Outcome.UNKNOWN, MilpBackend.Outcome.FEASIBLE);
      if (s.outcome() == MilpBackend.Outcome.FEASIBLE) {
        assertThat(s.values()).as(name).hasSize(model.variableCount());
      }
    }
  }
}
