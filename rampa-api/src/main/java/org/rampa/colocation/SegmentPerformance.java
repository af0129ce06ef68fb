package org.rampa.colocation;

/**
 * One segment's batch time with interference ({@code batchSeconds}, what the SLO rule judges), the
 * slowdown α it suffers from its co-runners, and its throughput: processes × batch / batch time.
 */
public record SegmentPerformance(double batchSeconds, double slowdown, double throughput) {}
