package org.rampa.solver.backend;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Stops a native solve that runs past its call's deadline. SCIP and CP-SAT read their own clocks
 * only now and then, and their limits start after the model is loaded; {@code
 * MPSolver.interruptSolve()} and {@code CpSolver.stopSearch()}, called from another thread at the
 * call's deadline, make the solve return with its best incumbent at the solver's next check (see
 * rampa-solver/BENCHMARKS.md for what that gained and what it does not reach).
 *
 * <p>One daemon thread serves every solve in the JVM, so a call costs a scheduled task, not a
 * thread. Once the deadline has passed the interrupt is repeated every {@link #REPEAT} until the
 * solve returns: an interrupt that reaches the solver before its search has begun may be lost.
 */
public final class SolveWatchdog {

  /** How often an overdue solve is interrupted again. */
  public static final Duration REPEAT = Duration.ofMillis(5);

  private static final SolveWatchdog SHARED = new SolveWatchdog(sharedScheduler());

  private final ScheduledExecutorService scheduler;

  public SolveWatchdog(ScheduledExecutorService scheduler) {
    this.scheduler = scheduler;
  }

  private static ScheduledExecutorService sharedScheduler() {
    ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "rampa-solve-watchdog");
      t.setDaemon(true); // never keeps a JVM alive
      return t;
    });
    // most solves end before their deadline: drop their tasks at once rather than at the deadline
    scheduler.setRemoveOnCancelPolicy(true);
    return scheduler;
  }

  /** The JVM's one watchdog. */
  public static SolveWatchdog shared() {
    return SHARED;
  }

  /**
   * Calls {@code interrupt} once {@code delay} has passed, and again every {@link #REPEAT}, until
   * the returned guard is closed. Close it as soon as the solve returns and before the solver is
   * freed.
   */
  public Guard arm(Duration delay, Runnable interrupt) {
    Guard guard = new Guard(interrupt);
    guard.task = scheduler.scheduleWithFixedDelay(guard::fire, Math.max(0, delay.toNanos()), REPEAT.toNanos(),
        TimeUnit.NANOSECONDS);
    return guard;
  }

  /** One armed solve. */
  public static final class Guard implements AutoCloseable {
    private final Runnable interrupt;
    private ScheduledFuture<?> task;
    /** Guarded by {@code this}: an interrupt runs only while the solve it belongs to is open. */
    private boolean closed;
    private int fired;

    private Guard(Runnable interrupt) {
      this.interrupt = interrupt;
    }

    private synchronized void fire() {
      if (!closed) {
        fired++;
        interrupt.run();
      }
    }

    /** How many times the interrupt ran. */
    public synchronized int fired() {
      return fired;
    }

    /**
     * Stops further interrupts. Returns only after an interrupt in progress has finished (both hold
     * this guard's lock), so none can reach the solver after this, even one whose task had already
     * started: the solver may be freed, and its memory reused by another call's solver.
     */
    @Override
    public void close() {
      synchronized (this) {
        closed = true;
      }
      task.cancel(false);
    }
  }
}
