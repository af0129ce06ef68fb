package org.rampa.perf;

import org.rampa.domain.GpuType;

/**
 * What one replica of a stage runs on, as the performance model sees it: a GPU type and the part
 * of one GPU of that type the stage may use. Today every placement takes whole GPUs
 * ({@link WholeGpu}); a share of a GPU ("A100 at 0.5 MPS") or a MIG slice ("A100 at 3g") will be
 * further kinds, each saying its own compute share and memory, so searches that read stage times
 * and memory per kind through a {@link StageCursor} need no change for them.
 */
public sealed interface DeviceKind permits WholeGpu {

  /** The GPU type underneath. */
  GpuType type();

  /** The fraction of the type's compute a stage on this kind gets, in (0, 1]. */
  double computeShare();

  /** The memory a stage on this kind may use, in bytes. */
  long memoryBytes();

  /** A short name for tables and messages ("A100-SXM4-80GB" for a whole GPU). */
  String name();
}
