package org.rampa.colocation;

/**
 * One segment's batch time with interference ({@code batchSeconds}, what the SLO rule judges; on a
 * time-shared GPU the round of all tenants' batches), the slowdown α it suffers from its co-runners
 * (batchSeconds over its time alone), and its throughput: processes × batch / batchSeconds.
 */
public record SegmentPerformance(double batchSeconds, double slowdown, double throughput) {}
