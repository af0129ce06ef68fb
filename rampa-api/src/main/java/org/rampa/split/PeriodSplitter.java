package org.rampa.split;

/**
 * Solves "minimise the period on given devices" ({@link SplitProblem}). Implementations are
 * stateless and thread-safe; rampa-heuristics ships the exact dynamic programme.
 */
public interface PeriodSplitter {

  SplitResult split(SplitProblem problem);
}
