package org.rampa.domain.share;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * How one holding occupies its GPU: a closed set of kinds (docs/SHARING.md section 1). A placement names
 * its part of the GPU; the numbers follow from the GPU type's {@link GpuPartitioning}, so a MIG
 * slice's compute is its profile's SM count over the card's, never {@code g/7}.
 *
 * <p>JSON names the kind in a {@code "kind"} property from this fixed list, never a class name, so
 * a document cannot make Jackson instantiate arbitrary classes.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
  @JsonSubTypes.Type(value = Whole.class, name = "whole"),
  @JsonSubTypes.Type(value = MpsShare.class, name = "mps"),
  @JsonSubTypes.Type(value = MigSlice.class, name = "mig"),
  @JsonSubTypes.Type(value = MigSliceMps.class, name = "mig-mps"),
  @JsonSubTypes.Type(value = CuMask.class, name = "cu-mask"),
  @JsonSubTypes.Type(value = TemplatePartition.class, name = "template")
})
public sealed interface Placement permits Whole, MpsShare, MigSlice, MigSliceMps, CuMask, TemplatePartition {

  /** The fraction of the card's compute units (SMs, CUs, cores) this placement may use, in (0, 1]. */
  double computeFraction(GpuPartitioning gpu);

  /**
   * The fraction of the card's memory bandwidth this placement is entitled to, in (0, 1]. Contended
   * kinds (MPS, CU masks) say 1: they compete for the whole bus, which interference models.
   */
  double bandwidthFraction(GpuPartitioning gpu);

  /**
   * How much of a whole GPU this placement uses up, for its cost (docs/SHARING.md section 4): the
   * compute fraction, except for MIG, where a slice uses up the larger of its compute slices and
   * its memory slices (a 1g.20gb takes 1/7 of the compute but 2/8 of the memory).
   */
  default double shareEquivalent(GpuPartitioning gpu) {
    return computeFraction(gpu);
  }

  /** The memory this placement may use on its GPU, in bytes. */
  long memoryBytes(GpuPartitioning gpu);

  /**
   * True when hardware isolates this placement from its co-runners (MIG, hard NPU templates), so
   * co-runners cause no interference; false for the whole GPU trivially and for contended kinds.
   */
  @JsonIgnore
  boolean isolated();

  /** A short name for tables and messages: "whole", "mps 0.3", "3g.40gb@4", "cu-mask 60", "template vir02". */
  @JsonIgnore
  String label();

  /**
   * Throws, naming the field, the value and the rule, when this placement cannot exist on a GPU of
   * {@code gpu}'s type (a profile it does not have, a start it does not allow, more CUs than it has).
   */
  void requireOn(GpuPartitioning gpu);
}
