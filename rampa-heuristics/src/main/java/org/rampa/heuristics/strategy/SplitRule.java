package org.rampa.heuristics.strategy;

/** How a candidate's layers are cut into stages over its chosen GPU groups. */
enum SplitRule {
  /** The exact min-period split (rampa-heuristics' dynamic programme) over the groups in order. */
  MIN_PERIOD,
  /** GPipe-style: equal layer counts per stage, one stage per group. */
  EVEN_LAYERS,
  /**
   * PipeDream-style: stages of balanced compute time measured on one reference GPU (the first
   * group's type), ignoring the differences between the groups' GPUs and the transfers but
   * respecting each group's memory.
   */
  COMPUTE_BALANCED
}
