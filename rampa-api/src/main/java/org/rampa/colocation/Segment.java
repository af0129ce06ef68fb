package org.rampa.colocation;

import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;

/**
 * One service running on one part of a GPU at one batch size: the whole GPU, an MPS share, a MIG
 * instance, n MPS processes inside a MIG instance (ParvaGPU's segment), an AMD CU mask (contended
 * like an MPS share) or an NPU partition template (a hard partition like a MIG instance). Every
 * placement kind can be a segment; {@link ColocationVerifier} decides which may share a GPU.
 */
public record Segment(String service, Placement placement, int batch) {

  public Segment {
    Invalid.requireNonBlank("segment.service", service);
    Objects.requireNonNull(placement, "segment.placement");
    if (batch < 1) {
      throw Invalid.value("segment.batch", batch, "must be >= 1");
    }
  }

  /** The processes running the service's batches in parallel on this placement. */
  public int processes() {
    return placement instanceof MigSliceMps m ? m.processes() : 1;
  }

  /** The MIG instance this segment runs in, or null when it is not on MIG. */
  MigSlice migSlice() {
    if (placement instanceof MigSliceMps m) {
      return m.slice();
    }
    return placement instanceof MigSlice s ? s : null;
  }
}
