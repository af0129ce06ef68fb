package org.rampa.colocation;

import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * One way to run a service on one isolated part of a GPU — a MIG instance of {@code profile} with
 * {@code processes} processes, or the whole GPU when {@code profile} is null — at one batch size,
 * with the throughput it gives under the SLO rule. Isolation makes the throughput independent of
 * the co-runners, so an option is priced once and placed at any legal start.
 */
public record SegmentOption(String service, String gpuType, String profile, int batch, int processes, long processMemoryBytes, double throughput) {

  /** The segment this option is at memory-slice {@code start} (ignored for the whole GPU). */
  public Segment at(int start) {
    Placement p;
    if (profile == null) {
      p = new Whole();
    } else if (processes == 1) {
      p = new MigSlice(profile, start);
    } else {
      p = new MigSliceMps(profile, start, processes, processMemoryBytes);
    }
    return new Segment(service, p, batch);
  }

  public boolean whole() {
    return profile == null;
  }
}
