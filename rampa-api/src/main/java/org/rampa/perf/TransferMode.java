package org.rampa.perf;

/** How inter-stage transfers enter the pipeline period. */
public enum TransferMode {
  /** Transfers are free (an upper bound on what the links allow; useful for pure splitting). */
  NONE,
  /**
   * Transfers of one batch overlap compute of the next (the default, as docs/SPEC.md section 3): the period
   * is the slowest of all stage times and all transfer times.
   */
  OVERLAPPED,
  /**
   * Transfers are serial with compute on both ends, as PipeDream and Tarnawski et al. assume: a
   * stage's load is its compute plus the transfer it receives plus the transfer it sends.
   */
  SERIAL
}
