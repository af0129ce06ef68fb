package org.rampa.domain.share;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.rampa.domain.Invalid;

/**
 * MIG layout legality as NVML checks it: every instance uses a profile of the GPU type, starts at
 * one of that profile's allowed memory slices, and its memory slices {@code [start, start + size)}
 * overlap no other instance's. Nothing else: the compute-slice budget follows from these two rules
 * on every geometry in the catalog.
 */
public final class MigLayout {
  private MigLayout() {}

  /** The first rule {@code slices} break on {@code geometry}, or empty when the layout is legal. */
  public static Optional<ShareViolation> check(MigGeometry geometry, List<MigSlice> slices) {
    Invalid.requireNonNull("geometry", geometry);
    Invalid.listOf("slices", slices);
    List<int[]> intervals = new ArrayList<>(slices.size());
    for (int i = 0; i < slices.size(); i++) {
      MigSlice s = slices.get(i);
      MigProfile p = find(geometry, s.profile());
      if (p == null) {
        return violation(ShareViolation.Rule.MIG_PROFILE, "slice " + i + " (" + describe(s) + "): " + geometry.name()
            + " has no profile " + s.profile() + "; it has " + geometry.profiles().stream().map(MigProfile::name).toList());
      }
      if (!p.allowedStarts().contains(s.start())) {
        return violation(ShareViolation.Rule.MIG_START, "slice " + i + " (" + describe(s) + "): " + p.name() + " on "
            + geometry.name() + " may start only at memory slices " + p.allowedStarts());
      }
      intervals.add(new int[] {s.start(), s.start() + p.memorySlices(), i});
    }
    intervals.sort(Comparator.comparingInt(a -> a[0]));
    for (int k = 1; k < intervals.size(); k++) {
      int[] a = intervals.get(k - 1);
      int[] b = intervals.get(k);
      if (b[0] < a[1]) {
        return violation(ShareViolation.Rule.MIG_OVERLAP, "slice " + b[2] + " (" + describe(slices.get(b[2])) + ") overlaps slice "
            + a[2] + " (" + describe(slices.get(a[2])) + "): memory slices [" + a[0] + ", " + a[1] + ") and ["
            + b[0] + ", " + b[1] + ")");
      }
    }
    return Optional.empty();
  }

  private static MigProfile find(MigGeometry geometry, String name) {
    return geometry.profiles().stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
  }

  private static String describe(MigSlice s) {
    return s.profile() + "@" + s.start();
  }

  private static Optional<ShareViolation> violation(ShareViolation.Rule rule, String message) {
    return Optional.of(new ShareViolation(rule, message));
  }
}
