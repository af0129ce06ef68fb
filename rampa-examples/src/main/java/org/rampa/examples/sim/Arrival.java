package org.rampa.examples.sim;

/** One service arriving at {@code timeSeconds}, of workload class {@code classIndex}, staying {@code lifetimeSeconds}. */
public record Arrival(int sequence, double timeSeconds, int classIndex, double lifetimeSeconds) {}
