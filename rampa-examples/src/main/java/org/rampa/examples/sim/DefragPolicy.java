package org.rampa.examples.sim;

import org.rampa.domain.Invalid;

/**
 * How a scheduler with a defragmentation budget ({@link Scheduler#defragBudget()}) defragments:
 * which quiet periods, and the room its defragmenter increases.
 *
 * @param trigger which quiet periods are defragmented
 * @param pipelines the forecast demand also weighs the classes no single GPU serves, on whole free GPUs
 *     ({@link ForecastDemand#room})
 * @param guarded the room is guarded: MPS room on a GPU that runs services counts only the copies its
 *     incumbents let in under the planner's interference guard ({@link org.rampa.moves.ForecastRoom#guarded})
 */
public record DefragPolicy(DefragTrigger trigger, boolean pipelines, boolean guarded) {

  /** What a scheduler's name carries after {@link #trigger}'s suffix when {@link #pipelines}. */
  public static final String PIPELINES_SUFFIX = "-pipelines";

  /** What a scheduler's name carries last when {@link #guarded}. */
  public static final String GUARDED_SUFFIX = "-guarded";

  /** The seventh session's: every quiet period, each class's smallest piece, the alone-test's room. */
  public static final DefragPolicy DEFAULT = new DefragPolicy(DefragTrigger.DEPARTURE, false, false);

  public DefragPolicy {
    Invalid.requireNonNull("trigger", trigger);
  }

  /** What a scheduler's name carries after its defragmentation budget ("" for {@link #DEFAULT}). */
  public String suffix() {
    return trigger.suffix() + (pipelines ? PIPELINES_SUFFIX : "") + (guarded ? GUARDED_SUFFIX : "");
  }
}
