package org.rampa.heuristics.strategy;

import java.util.Arrays;

/**
 * The least path cost the bound refused (could not beat the incumbent), per latency, for the new
 * stages of one label ending at one boundary. The label-setting search offers such stages by the
 * hundred thousand on a large cluster (every node × replica count × stage end) and the bound refuses
 * nearly all of them; the bound's verdict depends only on cost, boundary, stage count and latency,
 * and is monotone in cost (see {@link RelaxationBound#priority}). So once it refused cost c at a
 * latency, every cost of at least c at that latency is refused without asking it again — and asking
 * again would not have needed more of its tables either, so what the search reports is unchanged.
 */
final class RefusedCosts {

  /** How many latencies are remembered: a stage end sees a few (the network's or a node's link in, α). */
  private static final int CAPACITY = 8;

  private final double[] latency = new double[CAPACITY];
  private final double[] leastRefused = new double[CAPACITY];
  private int size;

  /** Forgets everything: a new label or a new stage end. */
  void clear() {
    size = 0;
  }

  /** True when a path of {@code cost} at {@code latencySoFar} is known to be refused. */
  boolean refuses(double latencySoFar, double cost) {
    return cost >= leastRefused(latencySoFar);
  }

  /** The least cost known to be refused at {@code latencySoFar}: every cost at or above it is; infinite when none is known. */
  double leastRefused(double latencySoFar) {
    for (int k = 0; k < size; k++) {
      if (latency[k] == latencySoFar) {
        return leastRefused[k];
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /** Records that the bound refused a path of {@code cost} at {@code latencySoFar}. */
  void refused(double latencySoFar, double cost) {
    for (int k = 0; k < size; k++) {
      if (latency[k] == latencySoFar) {
        leastRefused[k] = Math.min(leastRefused[k], cost);
        return;
      }
    }
    if (size < CAPACITY) {
      latency[size] = latencySoFar;
      leastRefused[size++] = cost;
    }
  }

  @Override
  public String toString() {
    return "RefusedCosts" + Arrays.toString(Arrays.copyOf(latency, size)) + Arrays.toString(Arrays.copyOf(leastRefused, size));
  }
}
