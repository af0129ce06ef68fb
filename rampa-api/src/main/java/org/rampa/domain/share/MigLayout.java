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
 *
 * <p>An instance is also the one tracker of a GPU's MIG occupancy for searches that fill GPUs
 * instance by instance (the co-location packing and the learned policy's environment): the memory
 * slices taken so far, which starts are still free, and how many (profile, start) placements remain.
 * Immutable; its memory slices are the bits of a {@code long}, so a geometry may have at most
 * {@value #MAX_TRACKED_SLICES}.
 */
public final class MigLayout {

  /** The most memory slices a tracked geometry may have (the catalog's have 8). */
  public static final int MAX_TRACKED_SLICES = 62;

  private final MigGeometry geometry;
  /** Bit i set: memory slice i belongs to an instance. */
  private final long used;

  private MigLayout(MigGeometry geometry, long used) {
    this.geometry = geometry;
    this.used = used;
  }

  /**
   * The MIG instance a MIG placement occupies: the slice itself, or the slice an MPS-in-MIG process
   * runs in. Refused for any other placement.
   */
  public static MigSlice instanceOf(Placement p) {
    if (p instanceof MigSliceMps m) {
      return m.slice();
    }
    if (p instanceof MigSlice s) {
      return s;
    }
    throw new IllegalArgumentException("placement " + p + " occupies no MIG instance");
  }

  /** No instance on a GPU of {@code geometry}. */
  public static MigLayout empty(MigGeometry geometry) {
    Invalid.requireNonNull("geometry", geometry);
    if (geometry.memorySlices() > MAX_TRACKED_SLICES) {
      throw Invalid.value("migGeometry[" + geometry.name() + "].memorySlices", geometry.memorySlices(),
          "a MIG layout tracks at most " + MAX_TRACKED_SLICES + " memory slices");
    }
    return new MigLayout(geometry, 0);
  }

  /** The instances {@code slices} on a GPU of {@code geometry}, each added by {@link #with}. */
  public static MigLayout of(MigGeometry geometry, List<MigSlice> slices) {
    MigLayout layout = empty(geometry);
    for (MigSlice s : Invalid.listOf("slices", slices)) {
      layout = layout.with(s.profile(), s.start());
    }
    return layout;
  }

  public MigGeometry geometry() {
    return geometry;
  }

  /** The memory slices taken, bit i for slice i: equal masks are equal layouts of one geometry. */
  public long usedMask() {
    return used;
  }

  /** True when memory slice {@code slice} belongs to no instance. */
  public boolean isFree(int slice) {
    return (used & (1L << slice)) == 0;
  }

  /** Memory slices that belong to no instance. */
  public int freeSlices() {
    return geometry.memorySlices() - Long.bitCount(used);
  }

  /** True when an instance of {@code profile} may start at {@code start}: an allowed start whose memory slices are all free. */
  public boolean fits(MigProfile profile, int start) {
    return profile.allowedStarts().contains(start) && (used & slices(start, profile.memorySlices())) == 0;
  }

  /** This layout with an instance of {@code profile} at {@code start}; throws unless it {@link #fits}. */
  public MigLayout with(String profile, int start) {
    MigProfile p = geometry.profile(profile);
    if (!fits(p, start)) {
      throw Invalid.value("mig[" + profile + "].start", start, "is not a free allowed start of " + profile + " on " + geometry.name(),
          "check fits(profile, start) first");
    }
    return new MigLayout(geometry, used | slices(start, p.memorySlices()));
  }

  /** This layout without the instance of {@code profile} at {@code start}. */
  public MigLayout without(String profile, int start) {
    return new MigLayout(geometry, used & ~slices(start, geometry.profile(profile).memorySlices()));
  }

  /** The (profile, start) placements that still {@link #fits fit}, over every profile of the geometry. */
  public int legalPlacements() {
    int n = 0;
    for (MigProfile p : geometry.profiles()) {
      for (int s : p.allowedStarts()) {
        n += (used & slices(s, p.memorySlices())) == 0 ? 1 : 0;
      }
    }
    return n;
  }

  /**
   * The free allowed start of {@code profile} that leaves the most {@link #legalPlacements()} (the
   * first such in the profile's order of starts), so small instances do not break up room for large
   * ones; -1 when none is free.
   */
  public int bestStart(MigProfile profile) {
    int best = -1;
    int bestRoom = -1;
    for (int s : profile.allowedStarts()) {
      long b = slices(s, profile.memorySlices());
      if ((used & b) == 0) {
        int room = new MigLayout(geometry, used | b).legalPlacements();
        if (room > bestRoom) {
          bestRoom = room;
          best = s;
        }
      }
    }
    return best;
  }

  private static long slices(int start, int size) {
    return ((1L << size) - 1) << start;
  }

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
