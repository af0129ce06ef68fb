package org.rampa.solver;

import java.util.ArrayList;
import java.util.List;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentOption;

/**
 * A column of the pattern MILP: one configuration of one GPU of pool {@code pool} — isolated options
 * at their starts — with the throughput it gives each service ({@code throughput[i]}, service
 * order of the problem).
 */
record ColocationColumn(int pool, List<SegmentOption> options, List<Integer> starts, double[] throughput) {

  GpuConfiguration configuration(String gpuType) {
    List<Segment> segments = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      segments.add(options.get(i).at(starts.get(i)));
    }
    return new GpuConfiguration(gpuType, segments);
  }

  /** Identity for de-duplication: pool, options and starts. */
  String key() {
    StringBuilder b = new StringBuilder().append(pool);
    for (int i = 0; i < options.size(); i++) {
      SegmentOption o = options.get(i);
      b.append('|').append(o.service()).append(':').append(o.profile()).append('@').append(starts.get(i)).append('b').append(o.batch()).append('p').append(o.processes());
    }
    return b.toString();
  }
}
