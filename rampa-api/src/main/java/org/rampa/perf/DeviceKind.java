package org.rampa.perf;

import org.rampa.domain.GpuType;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;

/**
 * What one replica of a stage runs on, as the performance model sees it: a GPU type and the part
 * of one GPU of that type the stage may use: the whole GPU ({@link WholeGpu}) or a placement on it
 * ({@link SharedGpu}: "A100 at 0.3 MPS", "A100 3g.40gb@4"), so searches that read stage times and
 * memory per kind through a {@link StageCursor} need no change for shares.
 */
public sealed interface DeviceKind permits WholeGpu, SharedGpu {

  /**
   * {@code placement} on a GPU of {@code type}: a {@link WholeGpu} for the whole GPU, else a
   * {@link SharedGpu} with the type's partitioning from the sharing catalog.
   */
  static DeviceKind of(GpuType type, Placement placement) {
    if (placement instanceof Whole) {
      return new WholeGpu(type);
    }
    return new SharedGpu(type, type.partitioning(), placement);
  }

  /** The GPU type underneath. */
  GpuType type();

  /** The memory a stage on this kind may use, in bytes. */
  long memoryBytes();

  /** A short name for tables and messages ("A100-SXM4-80GB" for a whole GPU). */
  String name();
}
