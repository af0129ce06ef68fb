package org.rampa.examples.sim;

/**
 * SLO tightness relative to what the model achieves alone on the best GPU of the cluster: the
 * latency bound is a multiple of that latency, the required throughput a fraction of that
 * throughput (ignoring memory: a model too large for one GPU still gets a reference point).
 */
public enum SloClass {
  TIGHT(2.0, 0.8),
  MEDIUM(4.0, 0.4),
  LOOSE(8.0, 0.2);

  /** Latency bound = this × best single-GPU latency. */
  public final double latencyFactor;
  /** Required throughput = this × best single-GPU throughput. */
  public final double throughputFactor;

  SloClass(double latencyFactor, double throughputFactor) {
    this.latencyFactor = latencyFactor;
    this.throughputFactor = throughputFactor;
  }
}
