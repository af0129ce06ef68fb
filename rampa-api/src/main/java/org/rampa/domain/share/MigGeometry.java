package org.rampa.domain.share;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * The MIG geometry of one GPU type: its SM count, its memory slices (8 on A100/H100/H200) and its
 * profiles. Fractions come from the profiles' real SM counts.
 */
public record MigGeometry(String name, int smCount, int memorySlices, List<MigProfile> profiles) {

  public MigGeometry {
    Invalid.requireNonBlank("migGeometry.name", name);
    if (smCount < 1) {
      throw Invalid.value("migGeometry[" + name + "].smCount", smCount, "must be >= 1");
    }
    if (memorySlices < 1) {
      throw Invalid.value("migGeometry[" + name + "].memorySlices", memorySlices, "must be >= 1");
    }
    profiles = Invalid.listOf("mig[" + name + "].profiles", profiles);
    for (MigProfile p : profiles) {
      String f = "migGeometry[" + name + "].profiles[" + p.name() + "].";
      if (p.smCount() > smCount) {
        throw Invalid.value(f + "smCount", p.smCount(), "exceeds the card's " + smCount + " SMs");
      }
      for (int s : p.allowedStarts()) {
        if (s + p.memorySlices() > memorySlices) {
          throw Invalid.value(f + "allowedStarts", s, "the slice [" + s + ", " + (s + p.memorySlices()) + ") ends past the card's " + memorySlices + " memory slices");
        }
      }
    }
    if (profiles.stream().map(MigProfile::name).distinct().count() != profiles.size()) {
      throw Invalid.value("migGeometry[" + name + "].profiles", profiles.stream().map(MigProfile::name).toList(), "profile names must be unique");
    }
  }

  public MigProfile profile(String profileName) {
    for (MigProfile p : profiles) {
      if (p.name().equals(profileName)) {
        return p;
      }
    }
    throw Invalid.value("mig.profile", profileName, "is not a MIG profile of " + name,
        "choose one of " + profiles.stream().map(MigProfile::name).toList());
  }

  /** SMs of the profile over the card's SMs (A100: 14/108 for a 1g slice, not 1/7). */
  public double computeFraction(MigProfile profile) {
    return (double) profile.smCount() / smCount;
  }

  /** Memory slices of the profile over the card's: the share of DRAM channels it owns. */
  public double bandwidthFraction(MigProfile profile) {
    return (double) profile.memorySlices() / memorySlices;
  }

  /**
   * Compute slices of the profile over the card's (those of its largest profile: 7 on A100/H100/H200),
   * as NVML counts instances; {@link #computeFraction} is the SMs it really gets.
   */
  public double computeSliceFraction(MigProfile profile) {
    int computeSlices = profiles.stream().mapToInt(MigProfile::computeSlices).max().orElseThrow();
    return (double) profile.computeSlices() / computeSlices;
  }

  /** The larger of the profile's compute slices over the card's and its memory slices over the card's. */
  public double shareEquivalent(MigProfile profile) {
    return Math.max(computeSliceFraction(profile), bandwidthFraction(profile));
  }

  /** Throws when {@code profileName} does not exist or may not start at {@code start}. */
  public void requireStart(String profileName, int start) {
    MigProfile p = profile(profileName);
    if (!p.allowedStarts().contains(start)) {
      throw Invalid.value("mig[" + profileName + "].start", start, "is not an allowed start of " + profileName + " on " + name,
          "start it at one of " + p.allowedStarts());
    }
  }
}
