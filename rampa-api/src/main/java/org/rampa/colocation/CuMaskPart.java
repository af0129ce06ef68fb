package org.rampa.colocation;

import org.rampa.domain.Invalid;
import org.rampa.domain.share.GpuPartitioning;

/**
 * One AMD CU mask of the co-location menu ({@link SegmentMenu#cuMaskOptions}): {@code eighths} of
 * the card's CUs, {@code ⌊eighths × CUs / 8⌋} of them, priced for a card that {@code tenants}
 * masks share (its α is the interference of {@code tenants − 1} contended co-runners). Masks of
 * eighths never overlap: masks whose eighths sum to at most 8 hold at most the card's CUs, which is
 * MPS admission's rule for CU masks (compute fractions sum to at most 1).
 */
public record CuMaskPart(int eighths, int computeUnits, int tenants) {

  /** The card's CUs are cut into eighths, as the NPU's 8 cores into templates. */
  public static final int PARTS_PER_CARD = 8;

  public CuMaskPart {
    if (eighths < 1 || eighths > PARTS_PER_CARD) {
      throw Invalid.value("cuMaskPart.eighths", eighths, "must be in 1.." + PARTS_PER_CARD);
    }
    if (computeUnits < 1) {
      throw Invalid.value("cuMaskPart.computeUnits", computeUnits, "must be >= 1", "a card of fewer than 8 CUs has no eighths to mask");
    }
    if (tenants < 1 || tenants > 1 + PARTS_PER_CARD - eighths) {
      throw Invalid.value("cuMaskPart.tenants", tenants, "must be in 1.." + (1 + PARTS_PER_CARD - eighths) + " for a mask of " + eighths + " eighths");
    }
  }

  /** The mask of {@code eighths} of {@code gpu}'s CUs on a card {@code tenants} masks share. */
  public static CuMaskPart of(GpuPartitioning gpu, int eighths, int tenants) {
    return new CuMaskPart(eighths, eighths * gpu.requireComputeUnits() / PARTS_PER_CARD, tenants);
  }

  /** The most masks a card can hold beside one of {@code eighths}: one per other eighth. */
  public static int mostTenants(int eighths) {
    return 1 + PARTS_PER_CARD - eighths;
  }

  /** The menu's name of this part: its CUs and the tenants it is priced for, e.g. "cu60/2". */
  public String name() {
    return name(computeUnits, tenants);
  }

  /** The part name of a mask of {@code computeUnits} CUs on a card {@code tenants} masks share. */
  public static String name(int computeUnits, int tenants) {
    return "cu" + computeUnits + "/" + tenants;
  }
}
