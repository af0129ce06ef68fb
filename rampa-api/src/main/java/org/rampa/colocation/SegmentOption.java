package org.rampa.colocation;

import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;

/**
 * One way to run a service on one part of a GPU — a MIG instance of {@code profile} with
 * {@code processes} processes, an NPU partition template named {@code profile} (one process), an
 * AMD CU mask ({@code cuMask}, one process, {@code profile} its part name), or the whole GPU when
 * {@code profile} is null — at one batch size, with the throughput it gives under the SLO rule.
 * Isolation makes the throughput of a MIG instance or template independent of the co-runners, so
 * such an option is priced once and placed at any legal start (a template has no start: its cores
 * are not positions); a CU mask is contended and priced for the number of masks sharing its card
 * ({@link CuMaskPart#tenants()}).
 *
 * @param stage the pipeline stage the option runs, or null for the whole model
 * @param template true when {@code profile} names an NPU partition template, not a MIG profile
 * @param cuMask the CU mask the option runs on, or null when it is not a CU-mask option
 */
public record SegmentOption(String service, String gpuType, String profile, int batch, int processes, long processMemoryBytes, double throughput,
    PipelineStage stage, boolean template, CuMaskPart cuMask) {

  /** An option on the whole GPU, a MIG instance or a template (no CU mask). */
  public SegmentOption(String service, String gpuType, String profile, int batch, int processes, long processMemoryBytes, double throughput,
      PipelineStage stage, boolean template) {
    this(service, gpuType, profile, batch, processes, processMemoryBytes, throughput, stage, template, null);
  }

  public SegmentOption {
    if (template && (profile == null || processes != 1)) {
      throw new IllegalArgumentException("a template option names its template and runs one process; got " + profile + " with " + processes);
    }
    if (cuMask != null && (template || processes != 1 || !cuMask.name().equals(profile))) {
      throw new IllegalArgumentException("a CU-mask option is named by its part " + cuMask.name() + " and runs one process; got " + profile + " with "
          + processes + (template ? " as a template" : ""));
    }
  }

  /** The batch time alone on its part (isolated: the time the verifier recomputes). */
  public double batchSeconds() {
    return processes * batch / throughput;
  }

  /** The segment this option is at memory-slice {@code start} (ignored for the whole GPU, templates and CU masks). */
  public Segment at(int start) {
    return new Segment(service, placementAt(start), batch, stage);
  }

  /** The placement this option takes at memory-slice {@code start} (ignored for the whole GPU, templates and CU masks). */
  public Placement placementAt(int start) {
    if (profile == null) {
      return new Whole();
    }
    if (template) {
      return new TemplatePartition(profile);
    }
    if (cuMask != null) {
      return new CuMask(cuMask.computeUnits(), processMemoryBytes);
    }
    return processes == 1 ? new MigSlice(profile, start) : new MigSliceMps(profile, start, processes, processMemoryBytes);
  }

  public boolean whole() {
    return profile == null;
  }
}
