package org.rampa.colocation;

/** What a co-location plan optimises (docs/SHARING.md section 5). */
public enum ColocationObjective {
  /** Serve every service's rate (scale 1) on as few GPUs as possible. */
  MIN_GPUS,
  /** Serve the largest scale Z of the whole mix (every rate times Z) within the cluster. */
  MAX_SCALE,
  /** Maximise the sum over services of weight × min(throughput, rate) within the cluster. */
  MAX_WEIGHTED_THROUGHPUT
}
