package org.rampa.solver.colocation;

import java.util.List;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;

/**
 * A column of the pattern MILP: one configuration of one GPU of pool {@code pool} — its segments —
 * with the throughput it gives each service ({@code throughput[i]}, service order of the problem),
 * interference included for exactly these co-runners.
 */
public record ColocationColumn(int pool, List<Segment> segments, double[] throughput) {

  GpuConfiguration configuration(String gpuType) {
    return new GpuConfiguration(gpuType, segments);
  }

  /** Identity for de-duplication: pool and segments. */
  String key() {
    return pool + "|" + segments;
  }
}
