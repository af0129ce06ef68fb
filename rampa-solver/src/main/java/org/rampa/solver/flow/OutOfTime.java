package org.rampa.solver.flow;

/** Thrown while an {@link IntervalFlowFormulation} is built when the caller's time is up: a model too large to build in time. */
public final class OutOfTime extends RuntimeException {
  private static final long serialVersionUID = 1L;

  OutOfTime() {
    super("the time limit ran out while the model was being built", null, false, false);
  }
}
