package org.rampa.heuristics.profiles;

/** Which measured times a profile's layer time is: inference or training. */
public enum ProfileMode {
  /** Forward pass only. */
  INFERENCE,
  /** Forward plus backward pass (one training step of the profiled minibatch). */
  TRAINING
}
